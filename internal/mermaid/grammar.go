// Package mermaid is a recognizer of Mermaid's sequenceDiagram language,
// for tests: elcheck's Mermaid charts are checked with it (Parse). It is
// translated by hand from Mermaid's own grammar:
//
//	github.com/mermaid-js/mermaid
//	packages/mermaid/src/diagrams/sequence/parser/sequenceDiagram.jison
//	at commit df032c942c32f805a7f4cd1cf30a565e610bc4f1 (2026-04-28)
//
// with what Mermaid does to the text before and after the parser:
// cleanupComments (diagram-api/comments.ts), encodeEntities and
// decodeEntities (utils.ts, called from Diagram.fromText) and
// parseMessage/extractWrap (sequenceDb.ts). The npm registry, and so
// Mermaid's parser run under Node, is not reachable where these tests run.
//
// The lexer keeps jison's rules in jison's order and semantics: the first
// rule that matches at the position wins (jison without the flex option),
// keywords end at a word boundary (jison appends \b to a rule ending in a
// word character), every rule is case-insensitive (%options
// case-insensitive), and the start conditions ID, ALIAS, LINE and CONFIG
// are exclusive (%x). Go's regexp has no lookahead, so the rules with one
// are matched by hand. The parser is recursive descent over the
// productions of the statements a sequence diagram can hold; the ones
// elcheck never emits (box, links, properties, details, accessibility
// titles, participant configs) are refused rather than guessed at, which
// errs on the side of failing.
package mermaid

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"unicode/utf8"
)

// jsSpace is JavaScript's \s (Go's \s is ASCII only).
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

var jsSpaceRe = regexp.MustCompile(`^[` + jsSpace + `]`)

func isJSSpace(r rune) bool { return jsSpaceRe.MatchString(string(r)) }

// jsTrim is JavaScript's String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// Lexer start conditions.
const (
	mmInitial = 1 << iota
	mmID
	mmAlias
	mmLine
	mmConfig
)

type mmToken struct {
	Kind, Text string
	Line       int
}

type mmLexer struct {
	in    string
	pos   int
	stack []int // start conditions, the current one last
	toks  []mmToken
	done  bool
}

func (lx *mmLexer) state() int       { return lx.stack[len(lx.stack)-1] }
func (lx *mmLexer) begin(s int)      { lx.stack = append(lx.stack, s) }
func (lx *mmLexer) popState()        { lx.stack = lx.stack[:max(1, len(lx.stack)-1)] }
func (lx *mmLexer) popTwo()          { lx.popState(); lx.popState() }
func (lx *mmLexer) rest() string     { return lx.in[lx.pos:] }
func (lx *mmLexer) Line() int        { return strings.Count(lx.in[:lx.pos], "\n") + 1 }
func (lx *mmLexer) emit(k, t string) { lx.toks = append(lx.toks, mmToken{k, t, lx.Line()}) }

// mmRule is one lexer rule: the start conditions it is active in, how
// many bytes it matches at the start of its input (-1: none), and its
// action, which returns the token ("" to skip).
type mmRule struct {
	states int
	match  func(in string) int
	act    func(lx *mmLexer, text string) (kind, out string)
}

// re matches a lookahead-free jison regexp (case-insensitive, anchored).
func re(p string) func(string) int {
	r := regexp.MustCompile(`^(?i:` + p + `)`)
	return func(in string) int {
		if loc := r.FindStringIndex(in); loc != nil {
			return loc[1]
		}
		return -1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// kw matches a literal; one ending in a word character must end at a
// word boundary, as jison makes it.
func kw(word string) func(string) int {
	return func(in string) int {
		if len(in) < len(word) || !strings.EqualFold(in[:len(word)], word) {
			return -1
		}
		if isWordByte(word[len(word)-1]) && len(in) > len(word) && isWordByte(in[len(word)]) {
			return -1
		}
		return len(word)
	}
}

// run is the length of the longest prefix of in made of runes not in
// excluded (with JavaScript's \s when space is set).
func run(in, excluded string, space bool) int {
	for i, r := range in {
		if strings.ContainsRune(excluded, r) || space && isJSSpace(r) {
			return i
		}
	}
	return len(in)
}

func tok(kind string) func(*mmLexer, string) (string, string) {
	return func(_ *mmLexer, t string) (string, string) { return kind, t }
}

func skip(*mmLexer, string) (string, string) { return "", "" }

func beginTok(s int, kind string) func(*mmLexer, string) (string, string) {
	return func(lx *mmLexer, t string) (string, string) { lx.begin(s); return kind, t }
}

// mmActorNot is the negative lookahead inside the INITIAL ACTOR rule: the
// arrows (and "()") a hyphen in an actor's name must not start.
var mmActorNot = []string{`-x`, `--x`, `-)`, `--)`, `-|\`, `-\\`, `-/`, `-//`, `-|/`, `/|-`, `\|-`, `//-`, `\\-`, `/|-`, `--|\`, `--`, `()`}

// mmRules are the lexer rules, in the jison file's order.
var mmRules = []mmRule{
	{mmInitial, re(`[\n]+`), tok("NEWLINE")},
	{mmInitial, re(`[` + jsSpace + `]+`), skip},
	{mmID | mmAlias | mmLine, func(in string) int {
		for i, r := range in {
			if r == '\n' || !isJSSpace(r) {
				return nz(i)
			}
		}
		return nz(len(in))
	}, skip},
	{mmInitial | mmID | mmAlias | mmLine, re(`#[^\n]*`), skip},
	{mmInitial, func(in string) int { // \%%(?!\{)[^\n]*
		if !strings.HasPrefix(in, "%%") || strings.HasPrefix(in[2:], "{") {
			return -1
		}
		return 2 + run(in[2:], "\n", false)
	}, skip},
	{mmInitial, re(`[^}]%%[^\n]*`), skip},
	{mmInitial, func(in string) int { // ([0-9]+(\.[0-9]{1,2})?|\.[0-9]{1,2})(?=[ \n]+)
		num := regexp.MustCompile(`^([0-9]+(\.[0-9]{1,2})?|\.[0-9]{1,2})$`)
		for l := min(len(in), 64); l > 0; l-- {
			if num.MatchString(in[:l]) && l < len(in) && (in[l] == ' ' || in[l] == '\n') {
				return l
			}
		}
		return -1
	}, tok("NUM")},
	{mmID, re(`@\{`), beginTok(mmConfig, "CONFIG_START")},
	{mmConfig, re(`[^}]+`), tok("CONFIG_CONTENT")},
	{mmConfig, func(in string) int { // \}(?=\s+as\s)
		if strings.HasPrefix(in, "}") && aliasAhead(in[1:]) {
			return 1
		}
		return -1
	}, func(lx *mmLexer, t string) (string, string) { lx.popState(); lx.begin(mmAlias); return "CONFIG_END", t }},
	{mmConfig, re(`\}`), func(lx *mmLexer, t string) (string, string) { lx.popTwo(); return "CONFIG_END", t }},
	{mmID, func(in string) int { // [^\<->\->:\n,;@\s]+(?=\@\{)
		l := run(in, "<=>-:\n,;@", true)
		if l > 0 && strings.HasPrefix(in[l:], "@{") {
			return l
		}
		return -1
	}, func(_ *mmLexer, t string) (string, string) { return "ACTOR", jsTrim(t) }},
	{mmID, func(in string) int { // [^<>:\n,;@\s]+(?=\s+as\s)
		l := run(in, "<>:\n,;@", true)
		if l > 0 && aliasAhead(in[l:]) {
			return l
		}
		return -1
	}, func(lx *mmLexer, t string) (string, string) { lx.begin(mmAlias); return "ACTOR", jsTrim(t) }},
	{mmID, func(in string) int { // [^<>:\n,;@]+(?=\s*[\n;#]|$)
		end := regexp.MustCompile(`^[` + jsSpace + `]*[\n;#]`)
		for l := run(in, "<>:\n,;@", false); l > 0; l-- {
			if l == len(in) || end.MatchString(in[l:]) {
				return l
			}
		}
		return -1
	}, func(lx *mmLexer, t string) (string, string) { lx.popState(); return "ACTOR", jsTrim(t) }},
	{mmID, re(`[^<>:\n,;@]*<[^\n]*`), func(lx *mmLexer, t string) (string, string) { lx.popState(); return "INVALID", t }},
	{mmID, re(`[^\n]+`), func(lx *mmLexer, t string) (string, string) { lx.popState(); return "INVALID", jsTrim(t) }},
	{mmInitial, kw("box"), beginTok(mmLine, "box")},
	{mmInitial, kw("participant"), beginTok(mmID, "participant")},
	{mmInitial, kw("actor"), beginTok(mmID, "participant_actor")},
	{mmInitial, kw("create"), tok("create")},
	{mmInitial, kw("destroy"), beginTok(mmID, "destroy")},
	{mmAlias, kw("as"), func(lx *mmLexer, t string) (string, string) { lx.popTwo(); lx.begin(mmLine); return "AS", t }},
	{mmAlias, func(string) int { return 0 }, func(lx *mmLexer, t string) (string, string) { lx.popTwo(); return "NEWLINE", t }},
	{mmInitial, kw("loop"), beginTok(mmLine, "loop")},
	{mmInitial, kw("rect"), beginTok(mmLine, "rect")},
	{mmInitial, kw("opt"), beginTok(mmLine, "opt")},
	{mmInitial, kw("alt"), beginTok(mmLine, "alt")},
	{mmInitial, kw("else"), beginTok(mmLine, "else")},
	{mmInitial, kw("par"), beginTok(mmLine, "par")},
	{mmInitial, kw("par_over"), beginTok(mmLine, "par_over")},
	{mmInitial, kw("and"), beginTok(mmLine, "and")},
	{mmInitial, kw("critical"), beginTok(mmLine, "critical")},
	{mmInitial, kw("option"), beginTok(mmLine, "option")},
	{mmInitial, kw("break"), beginTok(mmLine, "break")},
	{mmLine, re(`(?:[:]?(?:no)?wrap:)?[^#\n;]*`), func(lx *mmLexer, t string) (string, string) { lx.popState(); return "restOfLine", t }},
	{mmInitial, kw("end"), tok("end")},
	{mmInitial, kw("left of"), tok("left_of")},
	{mmInitial, kw("right of"), tok("right_of")},
	{mmInitial, kw("links"), tok("links")},
	{mmInitial, kw("link"), tok("link")},
	{mmInitial, kw("properties"), tok("properties")},
	{mmInitial, kw("details"), tok("details")},
	{mmInitial, kw("over"), tok("over")},
	{mmInitial, kw("note"), tok("note")},
	{mmInitial, kw("activate"), beginTok(mmID, "activate")},
	{mmInitial, kw("deactivate"), beginTok(mmID, "deactivate")},
	{mmInitial, re(`title[` + jsSpace + `][^#\n;]+`), tok("title")},
	{mmInitial, re(`title:[` + jsSpace + `][^#\n;]+`), tok("legacy_title")},
	// The accessibility rules enter states of their own; elcheck emits none
	// of them, and the parser below refuses their tokens.
	{mmInitial, re(`accTitle[` + jsSpace + `]*:`), tok("acc_title")},
	{mmInitial, re(`accDescr[` + jsSpace + `]*:`), tok("acc_descr")},
	{mmInitial, re(`accDescr[` + jsSpace + `]*\{`), tok("acc_descr_multiline")},
	{mmInitial, kw("sequenceDiagram"), tok("SD")},
	{mmInitial, kw("autonumber"), tok("autonumber")},
	{mmInitial, kw("off"), tok("off")},
	{mmInitial, kw(","), tok(",")},
	{mmInitial, kw(";"), tok("NEWLINE")},
	{mmInitial, mmActor, func(_ *mmLexer, t string) (string, string) { return "ACTOR", jsTrim(t) }},
	{mmInitial, kw("->>"), tok("SOLID_ARROW")},
	{mmInitial, kw("<<->>"), tok("BIDIRECTIONAL_SOLID_ARROW")},
	{mmInitial, kw("-->>"), tok("DOTTED_ARROW")},
	{mmInitial, kw("<<-->>"), tok("BIDIRECTIONAL_DOTTED_ARROW")},
	{mmInitial, kw("->"), tok("SOLID_OPEN_ARROW")},
	{mmInitial, kw("-->"), tok("DOTTED_OPEN_ARROW")},
	{mmInitial, re(`-[x]`), tok("SOLID_CROSS")},
	{mmInitial, re(`--[x]`), tok("DOTTED_CROSS")},
	{mmInitial, re(`-[)]`), tok("SOLID_POINT")},
	{mmInitial, re(`--[)]`), tok("DOTTED_POINT")},
	{mmInitial, kw(`--|\`), tok("SOLID_ARROW_TOP_DOTTED")},
	{mmInitial, kw(`--|/`), tok("SOLID_ARROW_BOTTOM_DOTTED")},
	{mmInitial, kw(`--\\`), tok("STICK_ARROW_TOP_DOTTED")},
	{mmInitial, kw(`--//`), tok("STICK_ARROW_BOTTOM_DOTTED")},
	{mmInitial, kw(`/|--`), tok("SOLID_ARROW_TOP_REVERSE_DOTTED")},
	{mmInitial, kw(`\|--`), tok("SOLID_ARROW_BOTTOM_REVERSE_DOTTED")},
	{mmInitial, kw(`//--`), tok("STICK_ARROW_TOP_REVERSE_DOTTED")},
	{mmInitial, kw(`\\--`), tok("STICK_ARROW_BOTTOM_REVERSE_DOTTED")},
	{mmInitial, kw(`-|\`), tok("SOLID_ARROW_TOP")},
	{mmInitial, kw(`-|/`), tok("SOLID_ARROW_BOTTOM")},
	{mmInitial, kw(`-\\`), tok("STICK_ARROW_TOP")},
	{mmInitial, kw(`-//`), tok("STICK_ARROW_BOTTOM")},
	{mmInitial, kw(`/|-`), tok("SOLID_ARROW_TOP_REVERSE")},
	{mmInitial, kw(`\|-`), tok("SOLID_ARROW_BOTTOM_REVERSE")},
	{mmInitial, kw(`//-`), tok("STICK_ARROW_TOP_REVERSE")},
	{mmInitial, kw(`\\-`), tok("STICK_ARROW_BOTTOM_REVERSE")},
	// ":"(?:(?:no)?wrap:)?[^#\n;]* and ":": the optional part is in the class.
	{mmInitial, re(`:[^#\n;]*`), tok("TXT")},
	{mmInitial, kw("+"), tok("+")},
	{mmInitial, kw("-"), tok("-")},
	{mmInitial, kw("()"), tok("()")},
	{mmInitial, func(in string) int { // <<EOF>>, which jison makes $
		if in == "" {
			return 0
		}
		return -1
	}, tok("NEWLINE")},
	{mmInitial, func(in string) int { // . (a line break is matched above)
		_, n := utf8.DecodeRuneInString(in)
		return nz(n)
	}, tok("INVALID")},
}

// nz is n, or -1 (no match) when n is 0: for rules that cannot match empty.
func nz(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// aliasAhead is the lookahead (?=\s+as\s).
func aliasAhead(in string) bool {
	return regexp.MustCompile(`^(?i)[` + jsSpace + `]+as[` + jsSpace + `]`).MatchString(in)
}

// mmActor is the INITIAL ACTOR rule:
// [^\/\\\+\()\+<\->\->:\n,;]+((?!(ARROWS))[\-]*[^\+<\->\->:\n,;]+)*
func mmActor(in string) int {
	i := run(in, "/\\+()<->:\n,;", false)
	if i == 0 {
		return -1
	}
	for {
		r := in[i:]
		for _, a := range mmActorNot {
			if len(r) >= len(a) && strings.EqualFold(r[:len(a)], a) {
				return i
			}
		}
		j := i + len(r) - len(strings.TrimLeft(r, "-"))
		k := run(in[j:], "+<->:\n,;", false)
		if k == 0 {
			return i
		}
		i = j + k
	}
}

// mmLex is the lexer: the tokens of in, ending with EOF, or the error
// jison's lexer reports when no rule matches.
func mmLex(in string) ([]mmToken, error) {
	lx := &mmLexer{in: in, stack: []int{mmInitial}}
	for !lx.done {
		if lx.rest() == "" && lx.state() != mmInitial && lx.state() != mmAlias && lx.state() != mmLine {
			return nil, fmt.Errorf("line %d: unexpected end of input in a participant's name", lx.Line())
		}
		matched := false
		for _, r := range mmRules {
			if r.states&lx.state() == 0 {
				continue
			}
			n := r.match(lx.rest())
			if n < 0 {
				continue
			}
			text := lx.rest()[:n]
			eof := lx.rest() == ""
			kind, out := r.act(lx, text)
			lx.pos += n
			if kind != "" {
				lx.emit(kind, out)
			}
			if eof && kind == "NEWLINE" && lx.state() == mmInitial {
				lx.done = true
			}
			matched = true
			break
		}
		if !matched {
			return nil, fmt.Errorf("line %d: lexical error at %.20q", lx.Line(), lx.rest())
		}
	}
	lx.emit("EOF", "")
	return lx.toks, nil
}

// Statement is what the parser keeps of a statement: its kind
// (participant, message, note, loop, rect, opt, alt, else, par, and,
// critical, option, break, end, autonumber, activate, deactivate, title,
// invalid), the actors it names, its arrow, and its text as a person sees
// it once rendered (mmShown).
type Statement struct {
	Kind   string
	Actors []string
	Arrow  string
	Text   string
	Line   int
}

type mmParser struct {
	toks []mmToken
	i    int
	out  []Statement
}

func (p *mmParser) peek() mmToken { return p.toks[p.i] }
func (p *mmParser) next() mmToken { t := p.toks[p.i]; p.i++; return t }

func (p *mmParser) expect(kind string) (mmToken, error) {
	t := p.next()
	if t.Kind != kind {
		return t, fmt.Errorf("line %d: parse error: expecting %s, got %s %q", t.Line, kind, t.Kind, t.Text)
	}
	return t, nil
}

// Parse parses a sequence diagram as Mermaid would: the text goes
// through cleanupComments and encodeEntities first, as in
// mermaidAPI.render and Diagram.fromText.
func Parse(src string) ([]Statement, error) {
	src = regexp.MustCompile(`(?m)^[`+jsSpace+`]*%%[^{\n][^\n]*\n?`).ReplaceAllString(src, "") // cleanupComments
	src = strings.TrimLeftFunc(src, isJSSpace)
	toks, err := mmLex(mmEncodeEntities(src) + "\n")
	if err != nil {
		return nil, err
	}
	p := &mmParser{toks: toks}
	for p.peek().Kind == "NEWLINE" {
		p.next()
	}
	if _, err := p.expect("SD"); err != nil {
		return nil, err
	}
	if err := p.document(); err != nil {
		return nil, err
	}
	if _, err := p.expect("EOF"); err != nil {
		return nil, err
	}
	return p.out, nil
}

// document is `document: line*`, up to a token no line starts with.
func (p *mmParser) document() error {
	for {
		t := p.peek()
		switch t.Kind {
		case "EOF", "end", "else", "and", "option":
			return nil
		case "NEWLINE":
			p.next()
		case "INVALID":
			p.next()
			p.out = append(p.out, Statement{Kind: "invalid", Text: t.Text, Line: t.Line})
		default:
			if err := p.statement(); err != nil {
				return err
			}
		}
	}
}

// sections is a block's `restOfLine document (sep restOfLine document)* end`.
func (p *mmParser) block(kind, sep string) error {
	t := p.next()
	rest, err := p.expect("restOfLine")
	if err != nil {
		return err
	}
	p.out = append(p.out, Statement{Kind: kind, Text: mmParseMessage(rest.Text), Line: t.Line})
	for {
		if err := p.document(); err != nil {
			return err
		}
		if sep == "" || p.peek().Kind != sep {
			break
		}
		s := p.next()
		rest, err := p.expect("restOfLine")
		if err != nil {
			return err
		}
		p.out = append(p.out, Statement{Kind: sep, Text: mmParseMessage(rest.Text), Line: s.Line})
	}
	e, err := p.expect("end")
	p.out = append(p.out, Statement{Kind: "end", Line: e.Line})
	return err
}

func (p *mmParser) statement() error {
	t := p.peek()
	switch t.Kind {
	case "participant", "participant_actor":
		return p.participant()
	case "create":
		p.next()
		if k := p.peek().Kind; k != "participant" && k != "participant_actor" {
			return fmt.Errorf("line %d: parse error: create without a participant", t.Line)
		}
		return p.participant()
	case "destroy", "activate", "deactivate":
		p.next()
		a, err := p.expect("ACTOR")
		if err != nil {
			return err
		}
		p.out = append(p.out, Statement{Kind: t.Kind, Actors: []string{a.Text}, Line: t.Line})
		_, err = p.expect("NEWLINE")
		return err
	case "autonumber":
		p.next()
		switch p.peek().Kind {
		case "NUM":
			p.next()
			if p.peek().Kind == "NUM" {
				p.next()
			}
		case "off":
			p.next()
		}
		p.out = append(p.out, Statement{Kind: "autonumber", Line: t.Line})
		_, err := p.expect("NEWLINE")
		return err
	case "note":
		return p.note()
	case "title", "legacy_title":
		p.next()
		p.out = append(p.out, Statement{Kind: "title", Text: t.Text, Line: t.Line})
		return nil
	case "loop", "rect", "opt", "break":
		return p.block(t.Kind, "")
	case "alt":
		return p.block(t.Kind, "else")
	case "par", "par_over":
		return p.block(t.Kind, "and")
	case "critical":
		return p.block(t.Kind, "option")
	case "ACTOR":
		return p.signal()
	}
	return fmt.Errorf("line %d: parse error: unexpected %s %q", t.Line, t.Kind, t.Text)
}

func (p *mmParser) participant() error {
	t := p.next()
	a, err := p.expect("ACTOR")
	if err != nil {
		return err
	}
	if p.peek().Kind == "CONFIG_START" {
		return fmt.Errorf("line %d: participant configs are outside this recognizer", t.Line)
	}
	s := Statement{Kind: "participant", Actors: []string{a.Text}, Text: a.Text, Line: t.Line}
	if p.peek().Kind == "AS" {
		p.next()
		rest, err := p.expect("restOfLine")
		if err != nil {
			return err
		}
		s.Text = mmParseMessage(rest.Text)
	}
	p.out = append(p.out, s)
	_, err = p.expect("NEWLINE")
	return err
}

func (p *mmParser) note() error {
	t := p.next()
	s := Statement{Kind: "note", Line: t.Line}
	switch k := p.next(); k.Kind {
	case "left_of", "right_of":
		a, err := p.expect("ACTOR")
		if err != nil {
			return err
		}
		s.Arrow, s.Actors = k.Kind, []string{a.Text}
	case "over":
		a, err := p.expect("ACTOR")
		if err != nil {
			return err
		}
		s.Arrow, s.Actors = k.Kind, []string{a.Text}
		if p.peek().Kind == "," {
			p.next()
			b, err := p.expect("ACTOR")
			if err != nil {
				return err
			}
			s.Actors = append(s.Actors, b.Text)
		}
	default:
		return fmt.Errorf("line %d: parse error: note needs over, left of or right of, got %s %q", k.Line, k.Kind, k.Text)
	}
	txt, err := p.expect("TXT")
	if err != nil {
		return err
	}
	s.Text = mmText2(txt.Text)
	p.out = append(p.out, s)
	_, err = p.expect("NEWLINE")
	return err
}

// mmArrows are the signaltype tokens.
var mmArrows = map[string]bool{}

func init() {
	for _, k := range []string{"SOLID_OPEN_ARROW", "DOTTED_OPEN_ARROW", "SOLID_ARROW", "BIDIRECTIONAL_SOLID_ARROW", "DOTTED_ARROW", "BIDIRECTIONAL_DOTTED_ARROW", "SOLID_CROSS", "DOTTED_CROSS", "SOLID_POINT", "DOTTED_POINT"} {
		mmArrows[k] = true
	}
	for _, k := range []string{"SOLID", "STICK"} {
		for _, d := range []string{"TOP", "BOTTOM"} {
			for _, s := range []string{"", "_DOTTED", "_REVERSE", "_REVERSE_DOTTED"} {
				mmArrows[k+"_ARROW_"+d+s] = true
			}
		}
	}
}

// signal is `actor ['()'] signaltype ['+'|'-'|'()'] actor text2 NEWLINE`.
func (p *mmParser) signal() error {
	from := p.next()
	s := Statement{Kind: "message", Line: from.Line}
	if p.peek().Kind == "()" {
		p.next()
	}
	arrow := p.next()
	if !mmArrows[arrow.Kind] {
		return fmt.Errorf("line %d: parse error: expecting an arrow after %q, got %s %q", arrow.Line, from.Text, arrow.Kind, arrow.Text)
	}
	switch p.peek().Kind {
	case "+", "-", "()":
		p.next()
	}
	to, err := p.expect("ACTOR")
	if err != nil {
		return err
	}
	txt, err := p.expect("TXT")
	if err != nil {
		return err
	}
	s.Actors, s.Arrow, s.Text = []string{from.Text, to.Text}, arrow.Kind, mmText2(txt.Text)
	p.out = append(p.out, s)
	_, err = p.expect("NEWLINE")
	return err
}

// mmText2 is text2's action: $1.trim().substring(1), then parseMessage.
func mmText2(txt string) string { return mmParseMessage(jsTrim(txt)[1:]) }

// mmParseMessage is sequenceDb.parseMessage (trim, then extractWrap drops a
// leading wrap: or nowrap:), and what the renderer shows of the result.
func mmParseMessage(s string) string {
	s = jsTrim(s)
	s = jsTrim(regexp.MustCompile(`^:?(?:no)?wrap:`).ReplaceAllString(s, ""))
	return mmShown(s)
}

// mmEncodeEntities is utils.ts's encodeEntities, applied to the whole text
// before it is parsed: entity codes (#59;) become placeholders that the
// lexer passes through.
func mmEncodeEntities(s string) string {
	drop := func(m string) string { return m[:len(m)-1] }
	s = regexp.MustCompile(`style.*:\S*#.*;`).ReplaceAllStringFunc(s, drop)
	s = regexp.MustCompile(`classDef.*:\S*#.*;`).ReplaceAllStringFunc(s, drop)
	return regexp.MustCompile(`#\w+;`).ReplaceAllStringFunc(s, func(m string) string {
		inner := m[1 : len(m)-1]
		if regexp.MustCompile(`^\+?\d+$`).MatchString(inner) {
			return "ﬂ°°" + inner + "¶ß"
		}
		return "ﬂ°" + inner + "¶ß"
	})
}

// mmShown is the text as rendered: decodeEntities turns the placeholders
// into HTML entities, <br> breaks the line, other markup is taken as HTML
// (and so not shown as written), and entities are shown as characters.
func mmShown(s string) string {
	s = strings.NewReplacer("ﬂ°°", "&#", "ﬂ°", "&", "¶ß", ";").Replace(s)
	s = regexp.MustCompile(`(?i)<br\s*/?>`).ReplaceAllString(s, "\n")
	s = regexp.MustCompile(`</?[A-Za-z][^>]*>`).ReplaceAllString(s, "")
	return html.UnescapeString(s)
}

// Dropped says whether the parse dropped an INVALID token: Mermaid
// accepts the text but shows less than it says.
func Dropped(st []Statement) bool {
	for _, s := range st {
		if s.Kind == "invalid" {
			return true
		}
	}
	return false
}
