// Package vet holds elcheck's static purity check for protocol code, an
// analysis.Analyzer that `go vet -vettool` and `elcheck vet` both run.
//
// A protocol's Step must be a pure function from (local state, event) to
// (new local state, sends), and Init, Decode and the local state's
// Decision, Fields, Encode and String likewise: the explorer re-runs them, runs them
// on several goroutines at once, and treats equal inputs as equal states.
// The analyzer starts from those methods, follows calls within the package,
// and reports what makes a result depend on more than the inputs: ranging
// over a map, package-level variables that change, clocks, randomness, I/O,
// goroutines and channels, and writes into memory the received state shares
// with its caller. docs/purity.md lists what it flags and what it cannot see.
package vet

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Analyzer reports impure code reachable from a protocol's Init, Step and
// Decode and from its local state's Decision, Fields, Encode and String.
var Analyzer = &analysis.Analyzer{
	Name: "elcheckpurity",
	Doc: `report impure code in elcheck protocols

A protocol's Init, Step and Decode, and its local state's Decision, Fields,
Encode and String, must be pure: their results may depend only on their arguments.
From those methods the analyzer follows calls to functions of the same
package and reports, in every function reached: range over a map; package-
level variables that are assigned or mutated anywhere (hidden state); the
clock (time.Now, timers, Sleep); math/rand, math/rand/v2, crypto/rand and
hash/maphash; the environment and other I/O (os, net, printing, log); go
statements, channels, sends, receives and select; and, in Step and in the
local state's methods, writes into slices, maps or pointees shared with the
state received (element assignment, append, delete, clear, copy, sorting in
place). It does not follow calls into other packages, interface dispatch,
reflection or unsafe.`,
	Run: run,
}

// fn is a function body the analysis can follow: a declared function or
// method, or a function literal that initialises a package-level variable.
type fn struct {
	name   string
	body   *ast.BlockStmt
	params []*types.Var // the receiver first, if any, then the parameters
	pos    token.Pos
}

// root is a function the protocol contract requires to be pure. tainted,
// when not nil, is the parameter holding the state whose memory the
// function must not write into (Step's state, the receiver of a state's
// method).
type root struct {
	*fn
	tainted *types.Var
}

// checker carries one package's analysis.
type checker struct {
	pass *analysis.Pass
	info *types.Info

	funcs   map[*types.Func]*fn
	varFunc map[*types.Var]*fn // package-level variables initialised with a function literal

	mutable map[*types.Var]string // package-level variables written somewhere, and where
	writes  map[*ast.Ident]bool   // identifiers at which a package-level variable is written

	reported map[string]bool // position and kind: one diagnostic per finding
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:     pass,
		info:     pass.TypesInfo,
		funcs:    make(map[*types.Func]*fn),
		varFunc:  make(map[*types.Var]*fn),
		mutable:  make(map[*types.Var]string),
		writes:   make(map[*ast.Ident]bool),
		reported: make(map[string]bool),
	}
	c.collectFuncs()
	c.collectPackageWrites()
	roots := c.roots()
	for _, r := range c.reach(roots) {
		c.checkBody(r.f, r.where)
	}
	c.checkInputs(roots)
	return nil, nil
}

// report emits one diagnostic per position and kind: a function reached
// from several roots, or analysed in several contexts, is reported once.
func (c *checker) report(pos token.Pos, kind, format string, args ...any) {
	key := c.pass.Fset.Position(pos).String() + "|" + kind
	if c.reported[key] {
		return
	}
	c.reported[key] = true
	c.pass.Reportf(pos, format, args...)
}

// collectFuncs indexes every function body of the package.
func (c *checker) collectFuncs() {
	for _, file := range c.pass.Files {
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				obj, _ := c.info.Defs[d.Name].(*types.Func)
				if obj == nil || d.Body == nil {
					continue
				}
				sig := obj.Type().(*types.Signature)
				f := &fn{name: funcName(obj), body: d.Body, pos: d.Pos()}
				if sig.Recv() != nil {
					f.params = append(f.params, sig.Recv())
				}
				for p := range sig.Params().Variables() {
					f.params = append(f.params, p)
				}
				c.funcs[obj] = f
			case *ast.GenDecl:
				// var hook = func(...) {...}: calling hook runs this body.
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || len(vs.Values) != len(vs.Names) {
						continue
					}
					for i, name := range vs.Names {
						lit, ok := ast.Unparen(vs.Values[i]).(*ast.FuncLit)
						v, _ := c.info.Defs[name].(*types.Var)
						if !ok || v == nil {
							continue
						}
						f := &fn{name: name.Name, body: lit.Body, pos: lit.Pos()}
						for p := range c.info.TypeOf(lit).(*types.Signature).Params().Variables() {
							f.params = append(f.params, p)
						}
						c.varFunc[v] = f
					}
				}
			}
		}
	}
}

// funcName is "name" for a function, "Type.name" for a method.
func funcName(f *types.Func) string {
	recv := f.Type().(*types.Signature).Recv()
	if recv == nil {
		return f.Name()
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name() + "." + f.Name()
	}
	return f.Name()
}

// roots returns the methods the protocol contract requires to be pure, in
// source order: Init, Step and (if it has one) Decode of every type whose
// method set has Info, Init and Step, and Decision, String and Encode or
// Fields of every type that has Decision, String and one of the two (a
// spec.Local with its encoding).
func (c *checker) roots() []root {
	seen := make(map[*fn]bool)
	var roots []root
	add := func(ms *types.MethodSet, name string, tainted func(*fn) *types.Var) {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			return
		}
		f := c.funcs[sel.Obj().(*types.Func).Origin()]
		if f == nil || seen[f] { // declared in another package
			return
		}
		seen[f] = true
		roots = append(roots, root{fn: f, tainted: tainted(f)})
	}
	has := func(ms *types.MethodSet, names ...string) bool {
		for _, n := range names {
			if ms.Lookup(nil, n) == nil {
				return false
			}
		}
		return true
	}
	none := func(*fn) *types.Var { return nil }
	// The state Step received is its first parameter after the receiver.
	stepState := func(f *fn) *types.Var {
		if len(f.params) < 2 {
			return nil
		}
		return f.params[1]
	}
	receiver := func(f *fn) *types.Var { return f.params[0] }

	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		// The pointer's method set holds the value's methods too.
		ms := types.NewMethodSet(types.NewPointer(tn.Type()))
		if has(ms, "Info", "Init", "Step") {
			add(ms, "Init", none)
			add(ms, "Step", stepState)
			add(ms, "Decode", none) // the older encoding (spec.Local)
		}
		if has(ms, "Decision", "String") && (has(ms, "Encode") || has(ms, "Fields")) {
			add(ms, "Decision", receiver)
			add(ms, "Encode", receiver)
			add(ms, "String", receiver)
			// Fields writes its receiver when it decodes, by design: only
			// the other checks apply to it.
			add(ms, "Fields", none)
		}
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].pos < roots[j].pos })
	return roots
}

// where says how a function is reached: the root and the calls from it.
type where struct {
	root string
	via  []string
}

func (w where) String() string {
	if len(w.via) == 0 {
		return w.root
	}
	return w.root + " (via " + strings.Join(w.via, " → ") + ")"
}

// reached is a function reachable from a root, with the first way found.
type reached struct {
	f     *fn
	where where
}

// reach returns every function reachable from the roots, each once, with
// the shortest call path from the first root (in source order) reaching it.
func (c *checker) reach(roots []root) []reached {
	done := make(map[*fn]bool)
	var out []reached
	for _, r := range roots {
		parent := map[*fn]*fn{r.fn: nil}
		queue := []*fn{r.fn}
		for len(queue) > 0 {
			f := queue[0]
			queue = queue[1:]
			if !done[f] {
				done[f] = true
				var via []string
				for p := f; p != r.fn; p = parent[p] {
					via = append([]string{p.name}, via...)
				}
				out = append(out, reached{f, where{r.name, via}})
			}
			for _, g := range c.callees(f) {
				if _, ok := parent[g]; !ok {
					parent[g] = f
					queue = append(queue, g)
				}
			}
		}
	}
	return out
}

// callees returns the package's functions that f refers to, in source
// order: calls, method values and function values alike, since a function
// named in a body can be called from it. Interface methods and functions of
// other packages have no body here and are left out.
func (c *checker) callees(f *fn) []*fn {
	var out []*fn
	seen := make(map[*fn]bool)
	ast.Inspect(f.body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		var g *fn
		switch obj := c.info.Uses[id].(type) {
		case *types.Func:
			g = c.funcs[obj.Origin()]
		case *types.Var:
			g = c.varFunc[obj]
		}
		if g != nil && !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
		return true
	})
	return out
}

// packageVar returns the package-level variable of this package an
// identifier refers to, or nil.
func (c *checker) packageVar(id *ast.Ident) *types.Var {
	v, ok := c.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != c.pass.Pkg || v.Parent() != c.pass.Pkg.Scope() {
		return nil
	}
	return v
}
