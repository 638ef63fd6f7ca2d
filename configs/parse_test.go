package configs

import (
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

func TestParseInitiators(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want spec.Set
		err  string
	}{
		{"all", spec.All(3), ""},
		{" ALL ", spec.All(3), ""},
		{"0, 2", spec.Set(0).With(0).With(2), ""},
		{"", 0, "-initiators= is empty: give positions, e.g. -initiators=0,2, or all: a configuration has at least one initiator"},
		{" ", 0, "-initiators=  is empty"},
		{"3", 0, "-initiators=3: 3 is not a position; positions are 0 to 2"},
		{"-1", 0, "-initiators=-1: -1 is not a position; positions are 0 to 2"},
		{"1,1", 0, "-initiators=1,1: position 1 is given twice"},
		{"0,", 0, `-initiators=0,: "" is not a number; write a comma-separated list like 3,1,2`},
		{"99999999999999999999", 0, "-initiators=99999999999999999999: 99999999999999999999 is not a position; positions are 0 to 2"},
	} {
		got, err := ParseInitiators("-initiators", tc.s, 3)
		if msg := errText(err); got != tc.want || !prefix(msg, tc.err) {
			t.Errorf("ParseInitiators(%q) = %v, %q; want %v, %q", tc.s, got, msg, tc.want, tc.err)
		}
	}
}

func TestParseIDs(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []spec.ID
		err  string
	}{
		{"3, 1,2", []spec.ID{3, 1, 2}, ""},
		{"2147483647", []spec.ID{spec.MaxID}, ""},
		{"", nil, "ids= is empty: give one id per position, e.g. ids=3,1,2"},
		{"1,1,2", nil, "ids=1,1,2: id 1 is repeated: ids must be distinct"},
		{"0", nil, "ids=0: id 0 is out of range: ids are 1 to 2147483647"},
		{"4294967296", nil, "ids=4294967296: id 4294967296 is out of range"},
		{"99999999999999999999", nil, "ids=99999999999999999999: id 99999999999999999999 is out of range"},
		{"1,x", nil, `ids=1,x: "x" is not a number`},
	} {
		got, err := ParseIDs("ids", tc.s)
		if msg := errText(err); !slices.Equal(got, tc.want) || !prefix(msg, tc.err) {
			t.Errorf("ParseIDs(%q) = %v, %q; want %v, %q", tc.s, got, msg, tc.want, tc.err)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// prefix reports whether msg starts with want, and is empty if want is.
func prefix(msg, want string) bool {
	return strings.HasPrefix(msg, want) && (want != "" || msg == "")
}
