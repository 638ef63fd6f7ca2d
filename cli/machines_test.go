package cli

import (
	"strings"
	"testing"

	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// userMachine is a built-in under another name, as a user's protocol given
// to Run would be: without a source in docs/references.md, which only the
// built-ins are asked for.
type userMachine struct {
	spec.Machine
	name string
}

func (m userMachine) Info() spec.Info {
	info := m.Machine.Info()
	info.Name, info.Source = m.name, ""
	return info
}

// userMachines are the protocols the tests give Run; TestMain gives them
// to the fresh process that replays a counterexample, as a user's main
// calling Run with its protocols does.
func userMachines() []spec.Machine {
	cr, _ := protocols.Lookup("cr")
	flip, _ := protocols.Lookup("cr-flip")
	return []spec.Machine{userMachine{cr, "my-cr"}, userMachine{flip, "my-cr-flip"}}
}

// userEnv is a run's env knowing userMachines, as Run given them makes
// it.
func userEnv(t *testing.T) *env {
	t.Helper()
	if err := checkMachines(userMachines()); err != nil {
		t.Fatal(err)
	}
	return newEnv(userMachines())
}

// A user's protocols work in every command as the built-ins do.
func TestUserMachines(t *testing.T) {
	e := userEnv(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"list", []string{"list"}, exitVerified, []string{"my-cr ", "my-cr-flip ", "dkr "}},
		{"list -correct", []string{"list", "-correct"}, exitVerified, []string{"my-cr\n"}},
		{"verify", []string{"verify", "-algo=my-cr", "-n=3"}, exitVerified, []string{"VERIFIED"}},
		{"violated", []string{"verify", "-algo=my-cr-flip", "-n=3"}, exitViolated, []string{"validity"}},
		{"bounds", []string{"bounds", "-algo=my-cr", "-n=3"}, exitVerified, []string{"my-cr"}},
		{"unknown names them", []string{"verify", "-algo=nope", "-n=3"}, exitUsage, []string{"my-cr-flip"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := e.elcheck(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d:\n%s%s", code, tc.code, out, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+stderr, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, stderr)
				}
			}
		})
	}
}

// Protocols Run cannot take are refused before any command runs.
func TestUserMachinesRefused(t *testing.T) {
	cr, _ := protocols.Lookup("cr")
	mine := userMachine{cr, "mine"}
	for _, tc := range []struct {
		name string
		ms   []spec.Machine
		want string
	}{
		{"a built-in's name", []spec.Machine{cr}, `named "cr", as a built-in`},
		{"a name twice", []spec.Machine{mine, mine}, `two protocols given to cli.Run are named "mine"`},
		{"no name", []spec.Machine{userMachine{cr, ""}}, "no Name"},
		{"nil", []spec.Machine{nil}, "is nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkMachines(tc.ms)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("checkMachines: %v, want %q", err, tc.want)
			}
		})
	}
}
