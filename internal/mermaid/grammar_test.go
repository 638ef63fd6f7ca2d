package mermaid

import (
	"fmt"
	"testing"
)

// TestMermaidGrammarRejects shows the recognizer can fail: texts real
// Mermaid refuses, or that it reads other than meant.
func TestMermaidGrammarRejects(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"no header", "participant a\n"},
		{"message without text", "sequenceDiagram\na->>b\n"},
		{"no arrow", "sequenceDiagram\na b: hi\n"},
		{"semicolon splits a message", "sequenceDiagram\na->>b: x; y z\n"},
		{"note without placement", "sequenceDiagram\nNote a: hi\n"},
		{"note without text", "sequenceDiagram\nNote over a\n"},
		{"loop left open", "sequenceDiagram\nloop forever\na->>b: hi\n"},
		{"end without block", "sequenceDiagram\na->>b: hi\nend\n"},
		{"end inside a message's actor", "sequenceDiagram\nloop x\nend->>b: hi\nend\n"},
		{"unknown arrow", "sequenceDiagram\na=>b: hi\n"},
		{"box is outside the recognizer", "sequenceDiagram\nbox Aqua x\nparticipant a\nend\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if st, err := Parse(c.src); err == nil && !Dropped(st) {
				t.Errorf("accepted %q: %+v", c.src, st)
			}
		})
	}
}

// TestMermaidGrammarReads pins what the recognizer reads in texts whose
// reading Mermaid's documentation and grammar settle.
func TestMermaidGrammarReads(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []Statement
	}{
		{"sequenceDiagram\n  participant A as Alice #1\n  A->>B: hi #59; there\n", []Statement{
			{Kind: "participant", Actors: []string{"A"}, Text: "Alice", Line: 2},
			{Kind: "message", Actors: []string{"A", "B"}, Arrow: "SOLID_ARROW", Text: "hi ; there", Line: 3},
		}},
		{"sequenceDiagram\nA-)B: a # comment\nnote right of B: wrap:x <br> y\n", []Statement{
			{Kind: "message", Actors: []string{"A", "B"}, Arrow: "SOLID_POINT", Text: "a", Line: 2},
			{Kind: "note", Actors: []string{"B"}, Arrow: "right_of", Text: "x \n y", Line: 3},
		}},
		{"sequenceDiagram\n%% a comment; with # signs\nloop every step\nA--xB:x:y\nend\n", []Statement{
			{Kind: "loop", Text: "every step", Line: 2},
			{Kind: "message", Actors: []string{"A", "B"}, Arrow: "DOTTED_CROSS", Text: "x:y", Line: 3},
			{Kind: "end", Line: 4},
		}},
		{"sequenceDiagram\nA->>B: style:#35;1\n", []Statement{
			// encodeEntities drops the ';' of a style line, and '#' then starts a comment.
			{Kind: "message", Actors: []string{"A", "B"}, Arrow: "SOLID_ARROW", Text: "style:", Line: 2},
		}},
	} {
		got, err := Parse(c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.src, got, c.want)
		}
	}
}
