package spec

import "testing"

// TestOutboxNotes checks that notes are kept only while noting is on, that
// a step's notes are joined, and that Reset forgets them.
func TestOutboxNotes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		noting bool
		notes  []string
		want   string
	}{
		{"off", false, []string{"discard probe(4): 5 > 4"}, ""},
		{"on", true, []string{"discard probe(4): 5 > 4"}, "discard probe(4): 5 > 4"},
		{"two notes", true, []string{"a", "b"}, "a; b"},
		{"none", true, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o Outbox
			o.SetNoting(tc.noting)
			for _, n := range tc.notes {
				o.Note("%s", n)
			}
			if got := o.Noted(); got != tc.want {
				t.Errorf("Noted() = %q, want %q", got, tc.want)
			}
			o.Reset()
			if got := o.Noted(); got != "" {
				t.Errorf("after Reset, Noted() = %q", got)
			}
		})
	}
}

// TestGuardedNoteAllocatesNothing pins why protocols guard notes with
// Noting: with notes off (the search), a guarded note costs no
// allocation, whatever its arguments.
func TestGuardedNoteAllocatesNothing(t *testing.T) {
	var o Outbox
	k, i := ID(1000), ID(2000)
	allocs := testing.AllocsPerRun(100, func() {
		o.Reset()
		if o.Noting() {
			o.Note("discard probe(%d): %d > %d", k, i, k)
		}
		o.Send(0, Message{ID: k})
	})
	if allocs != 0 {
		t.Errorf("a guarded note with notes off allocates %v times per step", allocs)
	}
}
