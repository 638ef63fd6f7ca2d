package configs

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/elcheck/elcheck/spec"
)

// ParseIDs reads an id placement written as a comma-separated list, as
// the CLI's -ids and the explorer page's ids= give it: every id within
// spec's range and distinct. name is the parameter's name as the person
// wrote it, which starts every error ("-ids=1,1,2: id 1 is repeated: ids
// must be distinct"), so that the CLI and the page refuse a placement
// with the same words. How many ids there must be is the caller's.
func ParseIDs(name, s string) ([]spec.ID, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("%s=%s is empty: give one id per position, e.g. %s=3,1,2", name, s, name)
	}
	fields, vals, err := parseList(name, s)
	if err != nil {
		return nil, err
	}
	for k, id := range vals {
		if id < int64(spec.MinID) || id > int64(spec.MaxID) {
			// As typed: a value past int64 was parsed as its limit,
			// which spec.CheckIDs would name instead.
			return nil, fmt.Errorf("%s=%s: id %s is out of range: ids are %d to %d", name, s, fields[k], spec.MinID, spec.MaxID)
		}
	}
	if err := spec.CheckIDs(vals); err != nil {
		return nil, fmt.Errorf("%s=%s: %v", name, s, err)
	}
	ids := make([]spec.ID, len(vals))
	for k, id := range vals {
		ids[k] = spec.ID(id)
	}
	return ids, nil
}

// ParseInitiators reads the initiators of n processes, as the CLI's
// -initiators and the explorer page's init= give them: "all", or
// positions 0 to n-1 written as a comma-separated list, each once, at
// least one (a configuration without an initiator is outside the model:
// nothing ever happens in it). name starts every error, as in ParseIDs.
func ParseInitiators(name, s string, n int) (spec.Set, error) {
	switch t := strings.TrimSpace(s); {
	case strings.EqualFold(t, "all"):
		return spec.All(n), nil
	case t == "":
		return 0, fmt.Errorf("%s=%s is empty: give positions, e.g. %s=0,2, or all: a configuration has at least one initiator", name, s, name)
	}
	fields, ps, err := parseList(name, s)
	if err != nil {
		return 0, err
	}
	var init spec.Set
	for k, p := range ps {
		if p < 0 || p >= int64(n) {
			return 0, fmt.Errorf("%s=%s: %s is not a position; positions are 0 to %d", name, s, fields[k], n-1)
		}
		if init.Has(int(p)) {
			// A slip for another position, most likely: do not guess which.
			return 0, fmt.Errorf("%s=%s: position %d is given twice", name, s, p)
		}
		init = init.With(int(p))
	}
	return init, nil
}

// parseList reads a comma-separated list of integers: the fields as
// written, for messages, and their values. A number too large for an int64
// is clamped to the int64 range, so that the caller's range check refuses
// it by its own bounds ("out of range") rather than as "not a number".
func parseList(name, s string) (fields []string, vals []int64, err error) {
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, nil, fmt.Errorf("%s=%s: %q is not a number; write a comma-separated list like 3,1,2", name, s, f)
		}
		fields, vals = append(fields, f), append(vals, v)
	}
	return fields, vals, nil
}
