package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
)

// Output files (-trace-out, -worst-out, -plot) are written after a search
// that may have taken hours. Their paths are checked before it
// (checkOutput), so that a typo costs a second, not the search; and if a
// write still fails after it, the report and the verdict are printed all the
// same, the error goes to stderr on one line, and the exit code is the
// verdict's.

// checkOutput makes sure that the file at path can be written, for flag
// (e.g. "trace-out"); the error is a usage error that says why not.
//
// It opens the file itself rather than a temporary file beside it: that
// also refuses a path that is a directory and an existing file that cannot
// be written, which a temporary file in the directory would let through.
// It leaves nothing behind and changes nothing: a file that did not exist
// is created with O_EXCL (so it is certainly ours) and removed at once, and
// a run that ends with nothing to write (no counterexample) leaves no empty
// file; an existing file is opened without O_TRUNC and closed untouched.
// Holding the file open through the search would guard against the
// directory changing meanwhile, but would leave an empty file if the run
// were killed; a write that fails after the search is handled there.
func checkOutput(flag, path string) error {
	err := probeWritable(path)
	if err == nil {
		return nil
	}
	return usagef("-%s=%s: %s", flag, path, whyNotWritable(path, err))
}

// whyNotWritable says what err, the error of opening path for writing,
// means: the OS's own reason (permission denied, read-only file system),
// and for "no such file" or "not a directory", which directory is missing
// or which file stands in the way. An existing directory can answer "no
// such file" too (/proc, /sys: they take no new files), which is not a
// missing directory.
func whyNotWritable(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	dir := filepath.Dir(path)
	switch {
	case errors.Is(err, syscall.EISDIR):
		return "it is a directory; name a file in it"
	case errors.Is(err, syscall.ENOTDIR):
		if file, ok := fileInPath(dir); ok {
			return fmt.Sprintf("cannot write it: %s is not a directory", file)
		}
	case errors.Is(err, fs.ErrNotExist):
		if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
			return fmt.Sprintf("cannot create it: the directory %s takes no new files (%v)", dir, err)
		}
		return fmt.Sprintf("cannot create it: the directory %s does not exist", dir)
	}
	return fmt.Sprintf("cannot write it: %v", err)
}

// fileInPath returns the nearest of dir and its parents that exists, if it
// is not a directory.
func fileInPath(dir string) (string, bool) {
	for {
		if fi, err := os.Stat(dir); err == nil {
			return dir, !fi.IsDir()
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func probeWritable(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		f.Close()
		return os.Remove(path)
	}
	if !errors.Is(err, fs.ErrExist) {
		return err
	}
	if f, err = os.OpenFile(path, os.O_WRONLY, 0); err != nil {
		return err
	}
	return f.Close()
}

// checkOutputs checks the paths of the output flags given (flag name, path;
// an empty path is a flag not given), and that no two name one file.
func checkOutputs(pairs ...[2]string) error {
	seen := map[string]string{}
	for _, p := range pairs {
		flag, path := p[0], p[1]
		if path == "" {
			continue
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		if other, ok := seen[abs]; ok {
			return usagef("-%s and -%s both name %s: give each its own file", other, flag, path)
		}
		seen[abs] = flag
		if err := checkOutput(flag, path); err != nil {
			return err
		}
	}
	return nil
}

// saveCounterexample writes the run's counterexample, if it has one, to
// -trace-out (printing the report: report.saveTrace) and to -chart, for
// verify and merge. A run with none to write removes the files an earlier
// run left at those paths, and says so: a script that tests whether
// -trace-out exists must not find an old counterexample.
func saveCounterexample(c *cli.Context, rep *report, traceOut string) {
	rep.saveTrace(c, traceOut)
	saveChart(c, rep.trace)
	if rep.trace == nil {
		removeStale(c.App.ErrWriter, "trace-out", traceOut, "no counterexample")
		removeStale(c.App.ErrWriter, "chart", c.String(chartFlag.Name), "no counterexample")
	}
}

// removeStale removes path, the file output flag names ("" for none), in a
// run that has nothing to write to it (why), and says so on w if there was
// one: a script that tests whether the file exists must not find an old one.
func removeStale(w io.Writer, flag, path, why string) {
	if path == "" {
		return
	}
	switch err := os.Remove(path); {
	case err == nil:
		fmt.Fprintf(w, "elcheck: -%s: %s: removed old %s\n", flag, why, path)
	case !errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(w, "elcheck: -%s: %s, but the old %s is still there: %s\n", flag, why, path, oneLine(err))
	}
}

// oneLine joins an error's lines, for stderr's one line per error.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
