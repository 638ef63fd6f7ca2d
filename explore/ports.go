package explore

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// The port-blindness check, step by step. A protocol that declares
// spec.Info.PortBlind has its id placements taken up to automorphisms that
// move ports (configs.Space.PortBlind): the configuration searched stands
// for others in which processes number their ports otherwise. That holds
// if renumbering a process's ports by any permutation π commutes with its
// steps: run on π of (state, event), a step gives π of what it gives, and
// every initial state is its own image. Then π maps the graph of one
// configuration onto the other's, state for state (by induction from the
// initial states, every transition of either is the image of one of the
// other's). So every distinct step is checked, at its first run, against
// every permutation of its process's ports, as the comparison-only check
// does with relabellings of the ids (comparison.go); the step memos key
// steps by the process's degree (System.degree), since a step checked for
// the permutations of k ports says nothing of another number.
//
// A step that chooses (spec.Outbox.Choose) picks among ports in their
// order, so an alternative of the renumbered step is another alternative
// of the step: the check asks that some alternative give the image.

// degree is process p's degree term in step keys: 1 plus its number of
// ports under the port-blindness check, 0 without it.
func (sy *System) degree(p int) uint8 {
	if !sy.portBlind {
		return 0
	}
	return uint8(1 + sy.Config.Topology.Ports[p])
}

// renumberings returns every permutation of k ports but the identity.
func renumberings(k int) [][]spec.Port {
	perm := make([]spec.Port, k)
	for i := range perm {
		perm[i] = spec.Port(i)
	}
	var out [][]spec.Port
	for configs.NextPermutation(perm) {
		out = append(out, slices.Clone(perm))
	}
	return out
}

// renumbered returns a with its event's port renumbered by perm: the
// delivery on the channel that arrives at port perm[q] of the same
// process, q being a's.
func (sy *System) renumbered(a Action, perm []spec.Port) Action {
	if a.Kind != spec.Deliver {
		return a
	}
	top := sy.Config.Topology
	to := perm[top.Edges[a.Edge].To.Port]
	for _, e := range sy.inEdges[a.Proc] {
		if top.Edges[e].To.Port == to {
			a.Edge = e
			break
		}
	}
	return a
}

// checkPorts checks that a's step from local, which gave next and sends,
// commutes with every renumbering of its process's ports. It reports a
// uniformity StepError that shows both results, or the renumbered step's
// own failure. It runs the step again, so sends must not be the outbox's.
func (sy *System) checkPorts(local []byte, a Action, next []byte, sends []spec.Send) (err *StepError) {
	k := sy.Config.Topology.Ports[a.Proc]
	if k < 2 || k > configs.MaxBlindPorts {
		return nil
	}
	defer func() {
		// spec.RenamePorts runs the state's Fields method, protocol code.
		if r := recover(); r != nil {
			err = &StepError{invariants.StepPanicked, fmt.Sprintf("%s: encoding its state with the ports renumbered panicked: %v", sy.describe(a), r)}
		}
	}()
	// The renumbered steps run on an outbox of their own: the caller may
	// read what its step chose from sy's.
	c := *sy
	c.out = spec.Outbox{}
	for _, perm := range renumberings(k) {
		rlocal, ok := spec.RenamePorts(sy.Machine, nil, local, perm)
		want, ok2 := spec.RenamePorts(sy.Machine, nil, next, perm)
		if !ok || !ok2 {
			return &StepError{invariants.Uniformity, fmt.Sprintf("%s: the protocol declares its steps blind to port numbering, but its state's ports cannot be renumbered (its Fields method writes through the Encoder)", sy.describe(a))}
		}
		wantSends := make([]spec.Send, len(sends))
		for i, s := range sends {
			s.Port = perm[s.Port]
			wantSends[i] = s
		}
		ra := sy.renumbered(a, perm)
		alts := []Action{ra}
		if sy.Info.Chooses {
			alts = c.branches(nil, rlocal, ra)
		}
		var got []byte
		var gotSends []spec.Send
		match := false
		for _, b := range alts {
			var err *StepError
			got, gotSends, err = c.run(nil, rlocal, b)
			if err != nil {
				err.Detail += fmt.Sprintf(" (with the process's ports renumbered %v)", perm)
				return err
			}
			if bytes.Equal(got, want) && samePortSends(gotSends, wantSends) {
				match = true
				break
			}
		}
		if !match {
			gotSends = slices.Clone(gotSends)
			return &StepError{invariants.Uniformity, fmt.Sprintf("%s does not commute with renumbering its process's ports as %v (port k becomes the k-th), though the protocol declares its steps blind to port numbering: run on the renumbered state and event it gives %s, but renumbering what it gave, %s, gives %s",
				sy.describe(a), perm, sy.result(got, gotSends), sy.result(next, sends), sy.result(want, wantSends))}
		}
	}
	return nil
}

// samePortSends reports whether a and b send the same messages on each
// port, in the same order: the order between ports is not observable,
// each port's channel being its own FIFO.
func samePortSends(a, b []spec.Send) bool {
	if len(a) != len(b) {
		return false
	}
	byPort := func(x, y spec.Send) int { return cmp.Compare(x.Port, y.Port) }
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortStableFunc(a, byPort)
	slices.SortStableFunc(b, byPort)
	return sameSends(a, b)
}

// checkInitPorts checks that each initial state of sy's configuration is
// its own image under every renumbering of its process's ports, as the
// steps must commute with them (checkPorts). It returns the first
// difference, described; "" if none. Environments in passed are skipped,
// and those that pass added.
func (sy *System) checkInitPorts(passed *envMemo[bool]) (detail string) {
	defer func() {
		if r := recover(); r != nil {
			if ip, ok := r.(initPanic); ok {
				detail = ip.detail
				return
			}
			detail = fmt.Sprintf("encoding an initial state with its ports renumbered panicked: %v", r)
		}
	}()
	top := sy.Config.Topology
	for i := range top.N {
		env := sy.env(i)
		if _, ok := passed.get(i, env); ok || env.Ports < 2 || env.Ports > configs.MaxBlindPorts {
			continue
		}
		local := sy.init(i, env)
		for _, perm := range renumberings(env.Ports) {
			img, ok := spec.RenamePorts(sy.Machine, nil, local, perm)
			if !ok {
				return fmt.Sprintf("the protocol declares its steps blind to port numbering, but the ports of p%d's initial state cannot be renumbered (its Fields method writes through the Encoder)", i)
			}
			if !bytes.Equal(img, local) {
				return fmt.Sprintf("Init of p%d is not blind to port numbering, as the protocol declares: it gives [%s], which renumbering its ports as %v changes to [%s]",
					i, sy.format(local), perm, sy.format(img))
			}
		}
		passed.put(i, env, true)
	}
	return ""
}
