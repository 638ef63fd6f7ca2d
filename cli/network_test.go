package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/spec"
)

// floodEnv is a run's env knowing fixture-flood, a protocol on connected
// graphs (none of the built-ins runs on one yet), as cli.Run's caller
// would make it known.
func floodEnv() *env { return newEnv([]spec.Machine{spec.Erase(fixtures.Flood{})}) }

// -topology picks one of the families a protocol runs on, -graph one
// network; the report says which, and list shows the families.
func TestNetworkFamilies(t *testing.T) {
	e := floodEnv()
	tests := []struct {
		args []string
		says string // in the report
	}{
		{[]string{"-n=3"}, "every connected graph on 3 processes (2 networks), every id placement up to each network's symmetries, every non-empty initiator set"},
		{[]string{"-n=4", "-topology=tree"}, "every tree on 4 processes (2 networks)"},
		{[]string{"-n=3", "-topology=complete graph"}, "the complete graph of 3,"},
		{[]string{"-graph=0-1,1-2,2-0"}, "the connected graph 0-1,1-2,2-0, every id placement"},
		{[]string{"-n=3", "-orientation=any"}, "every connected graph on 3 processes with every numbering of the ports up to symmetry (3 numbered networks)"},
	}
	for _, tt := range tests {
		out := e.expectExit(t, append([]string{"verify", "-algo=fixture-flood"}, tt.args...), exitVerified, "VERIFIED")
		if !strings.Contains(out, tt.says) {
			t.Errorf("%v: the report does not say %q:\n%s", tt.args, tt.says, out)
		}
	}
	out := e.expectExit(t, []string{"bounds", "-algo=fixture-flood", "-n=3", "-topology=tree"}, exitVerified, "")
	if !strings.Contains(out, "tree") {
		t.Errorf("bounds does not name the family:\n%s", out)
	}
	_, out, _ = e.elcheck("list")
	if !strings.Contains(out, "connected graph, tree, complete graph") {
		t.Errorf("list does not show fixture-flood's families:\n%s", out)
	}
}

func TestNetworkFlagsRefused(t *testing.T) {
	e := floodEnv()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-algo=fixture-flood", "-n=3", "-topology=uniring"}, "-topology=uniring: fixture-flood does not run on a unidirectional ring, only on graph, tree, complete"},
		{[]string{"-algo=fixture-flood", "-n=3", "-topology=torus"}, "-topology=torus is not a family: use uniring, biring, tree, graph, complete"},
		{[]string{"-algo=dkr", "-n=3", "-topology=tree"}, "dkr does not run on a tree, only on uniring"},
		{[]string{"-algo=dkr", "-graph=0-1,1-2"}, "-graph=0-1,1-2: dkr runs on a unidirectional ring, which is not given by its links"},
		{[]string{"-algo=fixture-flood", "-graph=0-1,1-1"}, "-graph=0-1,1-1: link 1-1 is a self-loop"},
		{[]string{"-algo=fixture-flood", "-graph=0-1,1-2,2-1"}, "link 2-1 is given twice"},
		{[]string{"-algo=fixture-flood", "-graph=0-1,2-3"}, "not connected: no path from process 0 to 2, 3"},
		{[]string{"-algo=fixture-flood", "-n=4", "-graph=0-1,1-5"}, "link 1-5: the processes are 0 to 3"},
		{[]string{"-algo=fixture-flood", "-n=5", "-graph=0-1,1-2"}, "no path from process 0 to 3, 4"},
		{[]string{"-algo=fixture-flood", "-graph=0-1,1to2"}, "-graph=0-1,1to2: 1to2 is malformed: a link is two positions A-B, 0-based, e.g. 0-1,1-2,2-0"},
		{[]string{"-algo=fixture-flood", "-graph=0-1,1--2"}, "-graph=0-1,1--2: 1--2 is malformed: a link is two positions A-B"},
		{[]string{"-algo=fixture-flood", "-graph=-1-2"}, "-graph=-1-2: -1-2 is malformed"},
		// Counted from 1, as a person might: the error says how to write it.
		{[]string{"-algo=fixture-flood", "-graph=1-2,2-3,3-1,3-4"}, "-graph=1-2,2-3,3-1,3-4: position 0 is in no link: positions are 0-based, like -ids and -initiators; did you mean -graph=0-1,1-2,2-0,2-3?"},
		{[]string{"-algo=fixture-flood", "-n=4", "-graph=1-2,2-3,3-4,4-1"}, "did you mean -graph=0-1,1-2,2-3,3-0?"},
		{[]string{"-algo=fixture-flood", "-topology=tree", "-graph=0-1,1-2,2-0"}, "not a tree"},
		{[]string{"-algo=fixture-flood", "-n=7"}, "every connected graph on 7 processes is more than elcheck enumerates (at most 6)"},
		{[]string{"-algo=fixture-flood", "-n=5", "-topology=complete", "-orientation=any"}, "-orientation=any: the complete graph of 5 has 7962624 port numberings"},
		{[]string{"-algo=fixture-flood", "-graph="}, "-graph= is empty"},
	}
	for _, tt := range tests {
		e.expectUsageError(t, append([]string{"verify"}, tt.args...), tt.want)
	}
	e.expectUsageError(t, []string{"bounds", "-algo=fixture-flood", "-n=3..4", "-graph=0-1,1-2"}, "-graph gives one network of 3 processes")
}

// The shards of a sweep over one given network merge; its trace files
// (here a -graph network, renumbered) replay.
func TestGraphShardsMerge(t *testing.T) {
	e := floodEnv()
	dir := t.TempDir()
	var shards []string
	for i, s := range []string{"0/2", "1/2"} {
		code, js, stderr := e.elcheck("verify", "-algo=fixture-flood", "-graph=0-1,1-2,2-0", "-orientation=any", "-format=json", "-shard="+s)
		if code != exitVerified {
			t.Fatalf("shard %s: exit %d: %s", s, code, stderr)
		}
		f := filepath.Join(dir, "shard"+string(rune('0'+i))+".json")
		if err := os.WriteFile(f, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, f)
	}
	e.expectExit(t, append([]string{"merge"}, shards...), exitVerified, "VERIFIED")
}
