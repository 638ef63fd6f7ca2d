package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/elcheck/elcheck/bounds"
	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/spec"
)

// The largest n GET /api/bounds measures: every configuration of every n
// up to it is explored while a person waits.
const (
	boundsCapUni = 5 // one-way rings
	boundsCapTwo = 4 // two-way rings and networks of two-way links
)

// BoundsRow is one n of GET /api/bounds: the messages of a complete
// execution over every configuration of n processes.
type BoundsRow struct {
	N int `json:"n"`
	// Configs is the number of configurations, Measured the number whose
	// executions were measured: fewer when some violate a property.
	Configs  int   `json:"configs"`
	Measured int   `json:"measured"`
	Min      int64 `json:"min"`
	Max      int64 `json:"max"`
	// Mean is the exact mean over the id placements with every process
	// initiating, as elcheck bounds prints it ("n/a" when there is none).
	Mean string `json:"mean"`
	// Bound is the declared bound at n and Status its check (within,
	// EXCEEDED, unknown); both absent when the protocol declares none.
	Bound  *int64 `json:"bound,omitempty"`
	Status string `json:"status,omitempty"`
	// Note is non-empty when the figures are not those of every
	// configuration.
	Note string `json:"note,omitempty"`
}

// Bounds is GET /api/bounds's answer.
type Bounds struct {
	// Complete is false when the search was cut short: Rows then hold
	// only the n measured in full, and Note says where it stopped.
	Complete bool        `json:"complete"`
	Note     string      `json:"note"`
	Formula  string      `json:"formula,omitempty"`
	Space    string      `json:"space"`
	Rows     []BoundsRow `json:"rows"`
	// SVG is elcheck bounds -plot's drawing of Rows; empty when there are
	// none.
	SVG string `json:"svg,omitempty"`
}

func (s *Server) boundsCap() int {
	if s.space.Topologies[0].Kind == spec.UniRing {
		return boundsCapUni
	}
	return boundsCapTwo
}

func (s *Server) boundsN() int { return min(s.space.N(), s.boundsCap()) }

// fullSpace is every configuration of n processes on the served network
// family, channels and port numberings: every id placement and every
// non-empty initiator set, whatever the served space fixes.
func (s *Server) fullSpace(n int) (configs.Space, error) {
	sp, err := configs.NewSpace(s.space.Topologies[0].Kind, n)
	if err != nil {
		return sp, err
	}
	sp.Channels, sp.PortBlind = s.space.Channels, s.space.PortBlind
	if s.space.AnyNumbering {
		if err := sp.AnyPorts(); err != nil {
			return sp, err
		}
	}
	return sp, nil
}

func (s *Server) handleBounds(r *http.Request) (any, error) {
	return s.cached(r.Context(), "bounds", func(ctx context.Context) (any, error) {
		var spaces []configs.Space
		for n := 1; n <= s.boundsN(); n++ {
			sp, err := s.fullSpace(n)
			if err != nil {
				return nil, fmt.Errorf("%s cannot run on %d processes: %v", s.info.Name, n, err)
			}
			spaces = append(spaces, sp)
		}
		t := bounds.Run(ctx, s.m, spaces, bounds.DefaultCheck())
		ans := &Bounds{Complete: true, Rows: []BoundsRow{}, Formula: s.info.Bound.Formula, Space: t.Space}
		if s.info.Bound.Max == nil {
			ans.Note = s.info.Name + " declares no message bound: the figures are shown alone. "
		}
		var done []*bounds.Row
		for _, row := range t.Rows {
			if row.Incomplete != "" {
				break
			}
			done = append(done, row)
			br := BoundsRow{N: row.N, Configs: row.Configs, Measured: row.Measured, Mean: row.Stats[0].MeanString()}
			if row.Measured > 0 {
				br.Min, br.Max = row.Stats[0].Min, row.Stats[0].Max
			}
			if b := row.Bound; b != nil {
				br.Bound, br.Status = &b.Bound, string(b.Status)
			}
			if len(row.Violated) > 0 {
				br.Note = fmt.Sprintf("only the %d of %d configurations that violate no property are measured (some violate %s): not the figures of every execution",
					row.Measured, row.Configs, strings.Join(row.Violated, ", "))
			}
			ans.Rows = append(ans.Rows, br)
		}
		if t.Incomplete != "" {
			ans.Complete = false
			stop := len(done) + 1
			why := t.Incomplete
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				why = fmt.Sprintf("the page's time limit of %v was reached", searchTime)
			}
			ans.Note += fmt.Sprintf("the search stopped during n=%d (%s): no figures are shown for n ≥ %d (elcheck bounds measures them without a limit)", stop, why, stop)
		} else {
			ans.Note += fmt.Sprintf("exact: every configuration of every n from 1 to %d explored", s.boundsN())
		}
		if len(done) > 0 {
			t.Rows, t.Incomplete = done, ""
			var svg bytes.Buffer
			t.WriteSVG(&svg)
			ans.SVG = svg.String()
		}
		return ans, nil
	})
}
