package cli

import (
	"io"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// Help is exit 0 on stdout; a help that does not exist, or a stray "help"
// among a run's flags, is a usage error.
func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want []string // on stdout
	}{
		{[]string{"help"}, []string{"COMMANDS:", "verify", "bounds", "help", "version", "Exit codes: 0 verified, 1 violation found, 2 usage error, 3 incomplete, 4 internal error"}},
		{[]string{"-h"}, []string{"COMMANDS:", "-version, -v"}},
		{[]string{"--help"}, []string{"COMMANDS:"}},
		{[]string{"help", "verify"}, []string{"elcheck verify - ", "-trace-out=FILE", "-progress "}},
		{[]string{"help", "bounds"}, []string{"elcheck bounds - ", "-worst-out=FILE", "-progress "}},
		{[]string{"help", "merge"}, []string{"elcheck merge - "}},
		{[]string{"help", "replay"}, []string{"elcheck replay - "}},
		{[]string{"help", "list"}, []string{"elcheck list - "}},
		{[]string{"help", "help"}, []string{"elcheck help [COMMAND]"}},
		{[]string{"help", "version"}, []string{"elcheck version - "}},
		{[]string{"verify", "-h"}, []string{"elcheck verify - ", "-n=N"}},
		{[]string{"verify", "-algo=dkr", "-n=3", "-h"}, []string{"elcheck verify - "}},
		{[]string{"verify", "-h", "extra"}, []string{"elcheck verify - "}},
		{[]string{"bounds", "--help"}, []string{"elcheck bounds - "}},
		{[]string{"list", "-h"}, []string{"elcheck list - "}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, stderr := elcheck(tt.args...)
			if code != 0 || stderr != "" {
				t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("the help does not say %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestHelpErrors(t *testing.T) {
	commands := "list, verify, bounds, merge, replay, chart, serve, vet, help or version"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no such command", []string{"help", "nosuchcmd"}, `no command "nosuchcmd": the commands are ` + commands},
		{"two topics", []string{"help", "verify", "bounds"}, "help takes one command"},
		{"help after verify's flags", []string{"verify", "-algo=dkr", "-n=3", "help"}, `unexpected argument "help": flags come as -name=value; for help use elcheck help verify`},
		{"h after verify's flags", []string{"verify", "-algo=dkr", "-n=3", "h"}, `unexpected argument "h": flags come as -name=value; for help use elcheck help verify`},
		{"help after bounds' flags", []string{"bounds", "-algo=cr", "-n=3", "help"}, `unexpected argument "help": flags come as -name=value; for help use elcheck help bounds`},
		{"help after list", []string{"list", "help"}, `unexpected argument "help": flags come as -name=value; for help use elcheck help list`},
		{"replay help", []string{"replay", "help"}, "for help use elcheck help replay"},
		{"merge help", []string{"merge", "help"}, "for help use elcheck help merge"},
		{"chart help", []string{"chart", "help"}, "for help use elcheck help chart"},
		{"version argument", []string{"version", "x"}, "elcheck version takes no arguments"},
		{"empty command", []string{""}, "the command is empty: use " + commands},
		{"unknown command", []string{"prove"}, `unknown command "prove": use ` + commands},
		{"verify version flag", []string{"verify", "--version"}, "flag provided but not defined: -version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { expectUsageError(t, tt.args, tt.want) })
	}
	// No command at all: the help, on stderr, and exit 2, as go does; a
	// script whose command expanded to nothing fails.
	code, out, stderr := elcheck()
	if code != exitUsage || out != "" || !strings.Contains(stderr, "COMMANDS:") || !strings.HasSuffix(stderr, "elcheck: no command: use "+commands+"\n") {
		t.Errorf("elcheck without a command: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestVersion(t *testing.T) {
	want := "elcheck version " + version() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}, {"-v"}} {
		if code, out, stderr := elcheck(args...); code != 0 || out != want || stderr != "" {
			t.Errorf("elcheck %s: exit %d, stdout %q, stderr %q; want 0 and %q", args[0], code, out, stderr, want)
		}
	}
	if v := version(); v == "" || strings.Contains(v, "\n") {
		t.Errorf("version %q", v)
	}
}

// Every flag in every command's help is written -name=VALUE, says its
// default at most once, and never a meaningless one.
func TestFlagHelp(t *testing.T) {
	flagLine := regexp.MustCompile(`^   (-[a-z-]+)(=[A-Z/]+)?(, -[a-z]+)?  +\S`)
	for _, cmd := range []string{"verify", "bounds", "merge", "replay", "list", "help", "version"} {
		_, out, _ := elcheck("help", cmd)
		inOptions := false
		for _, l := range strings.Split(out, "\n") {
			if l == "OPTIONS:" {
				inOptions = true
				continue
			}
			if !inOptions || l == "" {
				continue
			}
			if !flagLine.MatchString(l) {
				t.Errorf("elcheck help %s: flag line not as -name=VALUE: %q", cmd, l)
			}
			if n := strings.Count(l, "default"); n > 1 {
				t.Errorf("elcheck help %s: %d defaults: %q", cmd, n, l)
			}
			for _, bad := range []string{"(default: 0)", "(default: false)", "(default: 0s)", `(default: "`} {
				if strings.Contains(l, bad) {
					t.Errorf("elcheck help %s: %s: %q", cmd, bad, l)
				}
			}
		}
	}
	for _, c := range []struct{ cmd, flag, want string }{
		{"verify", "-algo=NAME", "required"},
		{"verify", "-n=N", "required"},
		{"bounds", "-n=N", "required"},
		{"verify", "-workers=N", "(default, or 0: one per CPU)"},
		{"verify", "-memory=SIZE", "K, M, G, T or KiB, MiB, GiB, TiB: powers of 1024"},
		{"verify", "-memory=SIZE", "KB, MB, GB, TB: powers of 1000"},
	} {
		_, out, _ := elcheck("help", c.cmd)
		found := false
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), c.flag+" ") {
				found = true
				if !strings.Contains(l, c.want) {
					t.Errorf("elcheck help %s: %s does not say %q: %q", c.cmd, c.flag, c.want, l)
				}
			}
		}
		if !found {
			t.Errorf("elcheck help %s: no %s", c.cmd, c.flag)
		}
	}
}

func TestVersionOf(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "9399eea"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: vcs}, "v1.2.3"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "(devel) 9399eea (modified)"},
		{debug.BuildInfo{Main: debug.Module{Version: ""}, Settings: vcs[:2]}, "(devel) 9399eea"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
	} {
		if got := versionOf(&c.bi); got != c.want {
			t.Errorf("versionOf(%+v) = %q, want %q", c.bi.Main, got, c.want)
		}
	}
}

// An unknown flag is one line naming it and the command's help, exit 2,
// for every command: urfave/cli's own answer, where a command sets no
// OnUsageError, is the whole help and exit 3.
func TestUnknownFlag(t *testing.T) {
	for _, cmd := range newApp(io.Discard, io.Discard, newEnv(nil)).Commands {
		t.Run(cmd.Name, func(t *testing.T) {
			expectUsageError(t, []string{cmd.Name, "-bogus"}, "elcheck: flag provided but not defined: -bogus (see elcheck help "+cmd.Name+")\n")
		})
	}
}
