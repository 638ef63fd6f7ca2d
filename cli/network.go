package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/spec"
	"github.com/urfave/cli/v2"
)

var (
	topologyFlag = &cli.StringFlag{Name: "topology", Usage: "the `FAMILY` of networks, for a protocol that runs on several (elcheck list): " +
		"tree (every tree on n processes), graph (every connected graph), complete, uniring or biring (default: the protocol's own)"}
	graphFlag = &cli.StringFlag{Name: "graph", Usage: "check one network, given by its two-way `LINKS` between positions, 0-based like -ids and -initiators, " +
		"e.g. 0-1,1-2,2-0,2-3 (connected, no self-loop or repeated link; -n may be left out); for a protocol on trees, graphs or complete graphs"}
)

// parseFamily reads -topology: one of the families the protocol runs on
// (spec.TopologyKind.Families), its own by default.
func parseFamily(c *cli.Context, info spec.Info) (spec.TopologyKind, error) {
	own := info.Topology
	if !c.IsSet(topologyFlag.Name) {
		return own, nil
	}
	s := c.String(topologyFlag.Name)
	var names []string
	for _, k := range own.Families() {
		names = append(names, k.Name())
	}
	k, err := spec.ParseTopologyKind(toKeyword(s))
	if err != nil {
		return 0, usagef("-topology=%s is not a family: use %s (%s runs on %s)", s, strings.Join(spec.KindNames(), ", "), info.Name, strings.Join(names, ", "))
	}
	if !slices.Contains(own.Families(), k) {
		return 0, usagef("-topology=%s: %s does not run on a %v, only on %s", s, info.Name, k, strings.Join(names, ", "))
	}
	return k, nil
}

// parseGraph reads -graph=0-1,1-2: the links, and the number of processes
// they name (the largest position plus one); nil if -graph is not given.
func parseGraph(c *cli.Context) (links [][2]int, n int, err error) {
	if !c.IsSet(graphFlag.Name) {
		return nil, 0, nil
	}
	return parseLinks(c.String(graphFlag.Name))
}

// parseLinks reads links like 0-1,1-2 (-graph's, or a report's).
func parseLinks(s string) (links [][2]int, n int, err error) {
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		a, b, ok := strings.Cut(f, "-")
		x, err1 := strconv.Atoi(strings.TrimSpace(a))
		y, err2 := strconv.Atoi(strings.TrimSpace(b))
		// 1--2 reads as 1 to -2: a malformed link, not a link to a
		// process that is not there.
		if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 {
			return nil, 0, usagef("-graph=%s: %s is malformed: a link is two positions A-B, 0-based, e.g. 0-1,1-2,2-0", s, f)
		}
		links = append(links, [2]int{x, y})
		n = max(n, x+1, y+1)
	}
	return links, n, nil
}

// familySpace returns the space of n processes of family kind, or, with
// links, of the one network they give (graph is the flag's text, for
// messages); the error is a usage error.
func familySpace(name string, kind spec.TopologyKind, n int, links [][2]int, graph string) (configs.Space, error) {
	if links == nil {
		sp, err := configs.NewSpace(kind, n)
		if err != nil {
			return sp, usagef("%s cannot run on %d processes: %v", name, n, err)
		}
		return sp, nil
	}
	if !kind.Linked() {
		return configs.Space{}, usagef("-graph=%s: %s runs on a %v, which is not given by its links", graph, name, kind)
	}
	t, err := spec.NewNetwork(kind, n, links)
	if err != nil {
		if shifted, ok := oneBased(links); ok {
			// The likeliest cause: positions counted from 1, which leaves
			// 0 alone and makes the network look disconnected.
			return configs.Space{}, usagef("-graph=%s: position 0 is in no link: positions are 0-based, like -ids and -initiators; did you mean -graph=%s?", graph, shifted)
		}
		return configs.Space{}, usagef("-graph=%s: %v", graph, err)
	}
	return configs.Space{Topologies: []spec.Topology{t}}, nil
}

// oneBased returns links with every position less one, written as -graph
// takes them, if no link names position 0 (and none is negative): links
// that seem to count positions from 1.
func oneBased(links [][2]int) (string, bool) {
	var b strings.Builder
	for i, l := range links {
		if min(l[0], l[1]) < 1 {
			return "", false
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d-%d", l[0]-1, l[1]-1)
	}
	return b.String(), len(links) > 0
}

// familyText describes the networks of sp for the report: "" for a ring,
// else the family and how many networks, or the one given (graph, -graph's
// links), and whether every numbering of their ports is covered.
func familyText(sp configs.Space, graph string) string {
	if len(sp.Topologies) == 0 || !sp.Topologies[0].Kind.Linked() {
		return ""
	}
	t, nets := sp.Topologies[0], len(sp.Topologies)
	what := fmt.Sprintf("every %v on %d processes", t.Kind, t.N)
	switch {
	case graph != "":
		what = fmt.Sprintf("the %v %s", t.Kind, graph)
	case t.Kind == spec.Complete:
		what = fmt.Sprintf("the complete graph of %d", t.N)
	case !sp.AnyNumbering:
		what += fmt.Sprintf(" (%d networks)", nets)
	}
	if sp.AnyNumbering {
		what += fmt.Sprintf(" with every numbering of the ports up to symmetry (%d numbered networks)", nets)
	}
	return what + ", "
}
