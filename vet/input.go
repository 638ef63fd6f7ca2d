package vet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"strings"
)

// This file checks that Step, and the local state's Decision, Encode and
// String, never write into memory the state they received shares with
// their caller. A state is a value, so assigning its plain fields changes a
// local copy; but its slices, maps and pointers still refer to the caller's
// memory, and writing through them (s.xs[i] = v, s.m[k] = v, delete(s.m, k),
// append(s.xs, v), slices.Sort(s.xs)) changes the state the explorer holds.
//
// The check follows the state through a function in source order:
// variables and field paths are marked as referring into shared memory when
// they are copied from the state, and unmarked when they are assigned
// anything else (a call's result, a literal, make, nil). A function's
// results count as fresh memory, so `s.xs = slices.Clone(s.xs)` makes later
// writes to s.xs fine. Branches are followed separately and joined: after
// an if, a switch or a loop, a path is shared if it is on any branch that
// falls through. Passing shared memory to a function of the package carries
// the marks into it. Nothing cleverer: no false positives on plain code
// matter more than catching every aliasing trick.

// kind says what a value refers to.
type kind uint8

const (
	// fresh: nothing shared with the received state.
	fresh kind = iota
	// shared: refers into the received state's memory (a copy of the state
	// or of one of its slices, maps or pointers; a pointer into it).
	shared
	// localPtr: a pointer to (or a slice of) local memory whose contents
	// are shared: &s where s is a copy of the received state. Writing
	// through it changes the local copy only.
	localPtr
)

// pathKey names a variable or a field path from one: s, s.a, s.a.b.
type pathKey struct {
	root   types.Object
	fields string // ".a.b", empty for the variable itself
}

// inputContext is a function to check with the kinds of its parameters
// (receiver first), as the first root reaching it that way passes them.
type inputContext struct {
	f      *fn
	kinds  []kind
	where  where
	origin string // what holds the memory: "the state P.Step received"
}

func (ic inputContext) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s@%d:", ic.f.name, ic.f.pos)
	for _, k := range ic.kinds {
		b.WriteByte('0' + byte(k))
	}
	return b.String()
}

// checkInputs checks every root with a received state, and every function
// of the package that state (or memory it refers to) is passed to.
func (c *checker) checkInputs(roots []root) {
	var queue []inputContext
	for _, r := range roots {
		if r.tainted == nil {
			continue
		}
		origin := "the state " + r.name + " received"
		if r.tainted == r.params[0] {
			origin = "the receiver of " + r.name
		}
		ic := inputContext{f: r.fn, kinds: make([]kind, len(r.params)), where: where{root: r.name}, origin: origin}
		for i, p := range r.params {
			if p == r.tainted {
				ic.kinds[i] = shared
			}
		}
		queue = append(queue, ic)
	}
	seen := make(map[string]bool)
	for len(queue) > 0 {
		ic := queue[0]
		queue = queue[1:]
		if seen[ic.key()] {
			continue
		}
		seen[ic.key()] = true
		w := &inputWalker{c: c, ctx: ic, paths: make(map[pathKey]kind)}
		for i, p := range ic.f.params {
			if ic.kinds[i] != fresh {
				w.paths[pathKey{root: p}] = ic.kinds[i]
			}
		}
		w.walk(ic.f.body)
		queue = append(queue, w.calls...)
	}
}

// inputWalker follows the received state through one function.
type inputWalker struct {
	c     *checker
	ctx   inputContext
	paths map[pathKey]kind
	calls []inputContext // calls passing shared memory on
}

// walk visits n in source order, handling the nodes that move or write
// shared memory and descending into the rest.
func (w *inputWalker) walk(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			w.assign(n)
			return false
		case *ast.IncDecStmt:
			w.walk(n.X)
			w.write(n.X)
			return false
		case *ast.RangeStmt:
			w.rangeStmt(n)
			return false
		case *ast.IfStmt:
			w.ifStmt(n)
			return false
		case *ast.SwitchStmt:
			w.switchStmt(n.Init, n.Tag, n.Body, true)
			return false
		case *ast.TypeSwitchStmt:
			w.switchStmt(n.Init, n.Assign, n.Body, true)
			return false
		case *ast.SelectStmt:
			w.switchStmt(nil, nil, n.Body, false)
			return false
		case *ast.ForStmt:
			w.walk(n.Init)
			w.walk(n.Cond)
			entry := w.paths
			body, _ := w.branch(n.Body, n.Post)
			w.paths = join(entry, body) // the body may run or not
			return false
		case *ast.FuncLit:
			entry := w.paths
			body, _ := w.branch(n.Body)
			w.paths = join(entry, body) // it may run, or not
			return false
		case *ast.ValueSpec:
			w.valueSpec(n)
			return false
		case *ast.CallExpr:
			w.call(n)
			return false
		}
		return true
	})
}

func (w *inputWalker) assign(a *ast.AssignStmt) {
	for _, e := range a.Rhs {
		w.walk(e)
	}
	for _, e := range a.Lhs {
		w.walk(e)
		if a.Tok != token.DEFINE {
			w.write(e)
		}
	}
	if a.Tok != token.ASSIGN && a.Tok != token.DEFINE {
		return // op-assignment: numbers and strings, nothing to track
	}
	// Kinds first, then the updates, as in a, b = b, a.
	ks := make([]kind, len(a.Lhs))
	switch {
	case len(a.Rhs) == len(a.Lhs):
		for i, e := range a.Rhs {
			ks[i] = w.kindOf(e)
		}
	case len(a.Rhs) == 1:
		// v, ok := m[k] / x.(T) / <-ch: v is the element.
		switch ast.Unparen(a.Rhs[0]).(type) {
		case *ast.IndexExpr, *ast.TypeAssertExpr:
			ks[0] = w.kindOf(a.Rhs[0])
		}
	}
	for i, e := range a.Lhs {
		w.set(e, ks[i])
	}
}

func (w *inputWalker) valueSpec(vs *ast.ValueSpec) {
	for _, e := range vs.Values {
		w.walk(e)
	}
	for i, name := range vs.Names {
		k := fresh
		if len(vs.Values) == len(vs.Names) {
			k = w.kindOf(vs.Values[i])
		}
		w.set(name, k)
	}
}

func (w *inputWalker) rangeStmt(r *ast.RangeStmt) {
	w.walk(r.X)
	k := fresh
	switch w.under(r.X).(type) {
	case *types.Slice, *types.Array, *types.Pointer, *types.Map:
		if w.kindOf(r.X) != fresh {
			k = shared // elements (and map keys) hold the shared references
		}
	}
	entry := w.paths
	w.paths = maps.Clone(entry)
	for _, e := range []ast.Expr{r.Key, r.Value} {
		if e == nil {
			continue
		}
		if r.Tok == token.ASSIGN {
			w.walk(e)
			w.write(e)
		}
		w.set(e, k)
	}
	w.walk(r.Body)
	w.paths = join(entry, w.paths) // the body may run or not
}

func (w *inputWalker) ifStmt(n *ast.IfStmt) {
	w.walk(n.Init)
	w.walk(n.Cond)
	var outs []map[pathKey]kind
	for _, b := range []ast.Stmt{n.Body, n.Else} {
		if b == nil {
			outs = append(outs, w.paths)
			continue
		}
		if out, ends := w.branch(b); !ends {
			outs = append(outs, out)
		}
	}
	w.paths = join(outs...)
}

// switchStmt handles switch, type switch (with the default case implied
// if absent) and select (one clause always runs).
func (w *inputWalker) switchStmt(init ast.Stmt, tag ast.Node, body *ast.BlockStmt, implicitDefault bool) {
	w.walk(init)
	w.walk(tag)
	var outs []map[pathKey]kind
	hasDefault := false
	for _, clause := range body.List {
		var stmts []ast.Stmt
		switch cl := clause.(type) {
		case *ast.CaseClause:
			for _, e := range cl.List {
				w.walk(e)
			}
			hasDefault = hasDefault || cl.List == nil
			stmts = cl.Body
		case *ast.CommClause:
			stmts = append([]ast.Stmt{cl.Comm}, cl.Body...)
		}
		// A plain break leaves the switch: its state follows it.
		out, ends := w.branch(stmts...)
		if br, ok := last(stmts).(*ast.BranchStmt); !ends || ok && br.Tok == token.BREAK && br.Label == nil {
			outs = append(outs, out)
		}
	}
	if implicitDefault && !hasDefault {
		outs = append(outs, w.paths)
	}
	w.paths = join(outs...)
}

// branch walks stmts from a copy of the current state and returns the
// state at their end, and whether they end in a return, break, continue,
// goto or panic, so that their state does not reach what follows.
func (w *inputWalker) branch(stmts ...ast.Stmt) (map[pathKey]kind, bool) {
	entry := w.paths
	w.paths = maps.Clone(entry)
	for _, st := range stmts {
		if st != nil {
			w.walk(st)
		}
	}
	out := w.paths
	w.paths = entry
	return out, terminates(last(stmts))
}

func last(stmts []ast.Stmt) ast.Stmt {
	if len(stmts) == 0 {
		return nil
	}
	return stmts[len(stmts)-1]
}

func terminates(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok != token.FALLTHROUGH
	case *ast.BlockStmt:
		return terminates(last(st.List))
	case *ast.ExprStmt:
		if call, ok := st.X.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// join merges the states at the ends of alternative paths: a path may
// refer to shared memory after them if it does on any of them. With no
// path (every one returned), what follows is unreachable and gets an
// empty state.
func join(states ...map[pathKey]kind) map[pathKey]kind {
	out := make(map[pathKey]kind)
	if len(states) == 0 {
		return out
	}
	for _, st := range states {
		for key := range st {
			if _, done := out[key]; done {
				continue
			}
			k := lookupIn(states[0], key)
			for _, other := range states[1:] {
				k = joinKind(k, lookupIn(other, key))
			}
			out[key] = k
		}
	}
	return out
}

func joinKind(a, b kind) kind {
	switch {
	case a == b:
		return a
	case a == shared || b == shared:
		return shared
	default: // fresh and localPtr: writes through it stay local either way
		return localPtr
	}
}

// call checks the builtins and standard functions that write into their
// first argument, and carries shared arguments into the package's own
// functions.
func (w *inputWalker) call(call *ast.CallExpr) {
	w.walk(call.Fun)
	for _, e := range call.Args {
		w.walk(e)
	}
	if len(call.Args) > 0 {
		arg := call.Args[0]
		if b, ok := w.c.callee(call).(*types.Builtin); ok && b.Name() == "append" {
			// append with nothing to add writes nothing; s.xs[:n:n] has
			// no spare capacity, so append copies.
			adds := len(call.Args) > 1 || call.Ellipsis.IsValid()
			se, ok := ast.Unparen(arg).(*ast.SliceExpr)
			capped := ok && se.Slice3
			if adds && !capped && w.kindOf(arg) == shared {
				w.report(call.Pos(), "append to %s in %s: it can write into a backing array shared with %s; append to a copy (slices.Clone) instead",
					types.ExprString(arg), w.ctx.where, w.ctx.origin)
			}
		} else if name, ok := w.c.inPlace(call); ok && w.kindOf(arg) == shared {
			w.report(call.Pos(), "%s on %s in %s: it writes into memory shared with %s; work on a copy (slices.Clone, maps.Clone)",
				name, types.ExprString(arg), w.ctx.where, w.ctx.origin)
		}
	}
	w.carry(call)
}

// carry queues the package function call calls, if any argument (or the
// receiver) refers to shared memory.
func (w *inputWalker) carry(call *ast.CallExpr) {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var (
		g     *fn
		kinds []kind
		args  = call.Args
	)
	switch f := fun.(type) {
	case *ast.Ident:
		if obj, ok := w.c.info.Uses[f].(*types.Func); ok {
			g = w.c.funcs[obj.Origin()]
		}
	case *ast.SelectorExpr:
		sel := w.c.info.Selections[f]
		if sel == nil {
			return // a qualified identifier: another package
		}
		obj, ok := sel.Obj().(*types.Func)
		if !ok {
			return // a func-typed field
		}
		g = w.c.funcs[obj.Origin()]
		if g != nil && sel.Kind() == types.MethodVal {
			kinds = append(kinds, w.receiverKind(f, obj))
		}
	}
	if g == nil {
		return
	}
	for _, e := range args {
		kinds = append(kinds, w.kindOf(e))
	}
	ks := make([]kind, len(g.params))
	carries := false
	for i, k := range kinds {
		j := min(i, len(ks)-1) // variadic arguments share the last parameter
		if j < 0 {
			break
		}
		if k != fresh && ks[j] == fresh {
			ks[j] = k
			carries = true
		}
	}
	if !carries {
		return
	}
	wh := where{root: w.ctx.where.root, via: append(append([]string(nil), w.ctx.where.via...), g.name)}
	if g == w.ctx.f {
		wh = w.ctx.where // recursion
	}
	w.calls = append(w.calls, inputContext{f: g, kinds: ks, where: wh, origin: w.ctx.origin})
}

// receiverKind is what a method receives as its receiver when called on
// sel.X.
func (w *inputWalker) receiverKind(sel *ast.SelectorExpr, m *types.Func) kind {
	_, ptrRecv := m.Type().(*types.Signature).Recv().Type().(*types.Pointer)
	_, ptrX := w.under(sel.X).(*types.Pointer)
	k := w.kindOf(sel.X)
	switch {
	case ptrRecv && !ptrX: // the method gets &x
		if w.lvalueShared(sel.X) {
			return shared
		}
		if k != fresh {
			return localPtr
		}
		return fresh
	case ptrRecv && ptrX:
		return k
	default: // a copy of x, or of *x
		if k != fresh {
			return shared
		}
		return fresh
	}
}

// write reports an assignment to e if it lands in shared memory.
func (w *inputWalker) write(e ast.Expr) {
	if w.lvalueShared(e) {
		w.report(e.Pos(), "assignment to %s in %s: it writes into memory shared with %s; write into a copy (slices.Clone, maps.Clone, a new value) instead",
			types.ExprString(e), w.ctx.where, w.ctx.origin)
	}
}

func (w *inputWalker) report(pos token.Pos, format string, args ...any) {
	w.c.report(pos, "input", format, args...)
}

// set records that the variable or field path e now holds a value of kind
// k; the paths below it follow it.
func (w *inputWalker) set(e ast.Expr, k kind) {
	key, ok := w.pathOf(e)
	if !ok {
		return
	}
	for p := range w.paths {
		if p.root == key.root && strings.HasPrefix(p.fields, key.fields+".") {
			delete(w.paths, p)
		}
	}
	w.paths[key] = k
}

// pathOf returns the path e names, if e is a variable followed by fields.
func (w *inputWalker) pathOf(e ast.Expr) (pathKey, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := w.c.info.ObjectOf(e).(*types.Var); ok {
			return pathKey{root: v}, true
		}
	case *ast.SelectorExpr:
		if sel := w.c.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			if base, ok := w.pathOf(e.X); ok {
				base.fields += "." + e.Sel.Name
				return base, true
			}
		}
	}
	return pathKey{}, false
}

// lookup returns the kind of a path: its own if it was set, else that of
// the longest prefix that was set, where anything below a shared value or
// a local pointer is shared (a copy of shared references).
func (w *inputWalker) lookup(key pathKey) kind { return lookupIn(w.paths, key) }

func lookupIn(paths map[pathKey]kind, key pathKey) kind {
	if k, ok := paths[key]; ok {
		return k
	}
	for f := key.fields; f != ""; {
		f = f[:strings.LastIndexByte(f, '.')]
		if k, ok := paths[pathKey{key.root, f}]; ok {
			if k != fresh {
				return shared
			}
			return fresh
		}
	}
	return fresh
}

func (w *inputWalker) under(e ast.Expr) types.Type {
	t := w.c.info.TypeOf(e)
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// kindOf says what the value of e refers to.
func (w *inputWalker) kindOf(e ast.Expr) kind {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if key, ok := w.pathOf(e); ok {
			return w.lookup(key)
		}
	case *ast.SelectorExpr:
		if key, ok := w.pathOf(e); ok {
			return w.lookup(key)
		}
		if sel := w.c.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal && w.kindOf(e.X) != fresh {
			return shared
		}
	case *ast.IndexExpr:
		switch w.under(e.X).(type) {
		case *types.Slice, *types.Map, *types.Array, *types.Pointer:
			if w.kindOf(e.X) != fresh {
				return shared
			}
		}
	case *ast.SliceExpr:
		switch w.under(e.X).(type) {
		case *types.Array: // slicing an array takes its address
			if w.lvalueShared(e.X) {
				return shared
			}
			if w.kindOf(e.X) != fresh {
				return localPtr
			}
		case *types.Slice, *types.Pointer:
			return w.kindOf(e.X)
		}
	case *ast.StarExpr:
		if w.kindOf(e.X) != fresh {
			return shared
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if w.lvalueShared(e.X) {
				return shared
			}
			if w.kindOf(e.X) != fresh {
				return localPtr
			}
		}
	case *ast.TypeAssertExpr:
		return w.kindOf(e.X)
	case *ast.CallExpr:
		// A conversion keeps what its operand refers to; a call's result
		// is taken to be fresh memory.
		if tv, ok := w.c.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return w.kindOf(e.Args[0])
		}
	case *ast.CompositeLit:
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			if w.kindOf(elt) != fresh {
				return shared
			}
		}
	}
	return fresh
}

// lvalueShared reports whether assigning to e writes into shared memory:
// through a slice, map or pointer that refers into the received state.
// Writing a field or array element of a local variable writes the local
// copy.
func (w *inputWalker) lvalueShared(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		sel := w.c.info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal {
			return false
		}
		if _, ok := w.under(e.X).(*types.Pointer); ok {
			return w.kindOf(e.X) == shared
		}
		if sel.Indirect() { // through an embedded pointer
			return w.kindOf(e.X) != fresh
		}
		return w.lvalueShared(e.X)
	case *ast.IndexExpr:
		switch w.under(e.X).(type) {
		case *types.Slice, *types.Map, *types.Pointer:
			return w.kindOf(e.X) == shared
		case *types.Array:
			return w.lvalueShared(e.X)
		}
	case *ast.StarExpr:
		return w.kindOf(e.X) == shared
	}
	return false
}
