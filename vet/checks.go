package vet

import (
	"go/ast"
	"go/token"
	"go/types"
)

// collectPackageWrites finds every place the package writes a package-level
// variable: assignment, op-assignment, ++ and --, writes through it (v[k] =
// x, v.f = x), delete, clear and copy into it, sorting it in place, calling
// a pointer method on it, and taking its address (which lets anything write
// it). Such a variable is hidden state: reading it makes a step depend on
// what ran before. Writes in init functions do not count, since they run
// once before any step.
func (c *checker) collectPackageWrites() {
	for _, file := range c.pass.Files {
		for _, decl := range file.Decls {
			where := "a package-level declaration"
			if d, ok := decl.(*ast.FuncDecl); ok {
				if d.Recv == nil && d.Name.Name == "init" {
					continue
				}
				where = d.Name.Name
				if obj, ok := c.info.Defs[d.Name].(*types.Func); ok {
					where = funcName(obj)
				}
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if n.Tok != token.DEFINE {
						for _, lhs := range n.Lhs {
							c.packageWrite(lhs, where)
						}
					}
				case *ast.IncDecStmt:
					c.packageWrite(n.X, where)
				case *ast.RangeStmt:
					if n.Tok == token.ASSIGN {
						c.packageWrite(n.Key, where)
						c.packageWrite(n.Value, where)
					}
				case *ast.UnaryExpr:
					if n.Op == token.AND {
						c.packageWrite(n.X, where)
					}
				case *ast.CallExpr:
					if _, ok := c.inPlace(n); ok {
						c.packageWrite(n.Args[0], where)
					}
				case *ast.SelectorExpr:
					if c.pointerMethodOnValue(n) {
						c.packageWrite(n.X, where)
					}
				}
				return true
			})
		}
	}
}

// packageWrite records a write to the storage of e if e is a package-level
// variable or is reached from one through fields, indexing or pointers.
func (c *checker) packageWrite(e ast.Expr, where string) {
	id := rootIdent(e)
	if id == nil {
		return
	}
	if v := c.packageVar(id); v != nil {
		c.writes[id] = true
		if _, ok := c.mutable[v]; !ok {
			c.mutable[v] = where
		}
	}
}

// rootIdent returns the variable an lvalue-like expression starts from:
// v for v, v.f, v[i], *v, v.f[i].g; nil for anything else (a call, a
// qualified identifier).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// pointerMethodOnValue reports whether sel selects a pointer-receiver
// method on an addressable value, which takes the value's address.
func (c *checker) pointerMethodOnValue(sel *ast.SelectorExpr) bool {
	s := c.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || s.Indirect() {
		return false
	}
	recv := s.Obj().Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	_, ptrRecv := recv.Type().(*types.Pointer)
	_, ptrOperand := c.info.TypeOf(sel.X).Underlying().(*types.Pointer)
	return ptrRecv && !ptrOperand
}

// inPlace recognises calls that write into their first argument: the
// builtins delete, clear and copy, and the standard library's in-place
// sorts and edits. It returns the call's name.
func (c *checker) inPlace(call *ast.CallExpr) (string, bool) {
	if len(call.Args) == 0 {
		return "", false
	}
	switch f := c.callee(call).(type) {
	case *types.Builtin:
		switch f.Name() {
		case "delete", "clear", "copy":
			return f.Name(), true
		}
	case *types.Func:
		if f.Pkg() == nil || f.Type().(*types.Signature).Recv() != nil {
			return "", false
		}
		name := f.Pkg().Path() + "." + f.Name()
		if inPlaceFuncs[name] {
			return name, true
		}
	}
	return "", false
}

// inPlaceFuncs are standard functions that modify the slice or map passed
// first: sorting a state's slice in place mutates the state.
var inPlaceFuncs = map[string]bool{
	"sort.Ints": true, "sort.Strings": true, "sort.Float64s": true,
	"sort.Slice": true, "sort.SliceStable": true, "sort.Sort": true, "sort.Stable": true,
	"slices.Sort": true, "slices.SortFunc": true, "slices.SortStableFunc": true,
	"slices.Reverse": true, "slices.Delete": true, "slices.DeleteFunc": true,
	"slices.Compact": true, "slices.CompactFunc": true, "slices.Replace": true,
	"slices.Insert": true,
	"maps.Copy":     true, "maps.DeleteFunc": true,
}

// callee returns the object a call calls, for direct calls of named
// functions, methods and builtins (instantiated generics included).
func (c *checker) callee(call *ast.CallExpr) types.Object {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	switch obj := c.info.Uses[id].(type) {
	case *types.Func:
		return obj.Origin()
	case *types.Builtin:
		return obj
	}
	return nil
}

// checkBody reports every impurity in one reachable function except
// writes into the received state, which checkInputs follows separately.
func (c *checker) checkBody(f *fn, w where) {
	ast.Inspect(f.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			c.checkRange(n, w)
		case *ast.GoStmt:
			c.report(n.Pos(), "go", "go statement in %s: a goroutine's effects are invisible to the explorer and race with the step; a step must be sequential", w)
		case *ast.SelectStmt:
			c.report(n.Pos(), "select", "select statement in %s: which case runs is random; a process communicates only through the outbox", w)
		case *ast.SendStmt:
			c.report(n.Arrow, "send", "channel send in %s: a process communicates only through the outbox", w)
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				c.report(n.OpPos, "receive", "channel receive in %s: it can block and depends on other goroutines; a process receives only through events", w)
			}
		case *ast.CallExpr:
			if b, ok := c.callee(n).(*types.Builtin); ok && b.Name() == "make" && len(n.Args) > 0 {
				if _, ok := c.info.TypeOf(n.Args[0]).Underlying().(*types.Chan); ok {
					c.report(n.Pos(), "chan", "channel made in %s: a process communicates only through the outbox", w)
				}
			}
		case *ast.Ident:
			c.checkIdent(n, w)
		}
		return true
	})
}

// checkRange reports iteration in random order: over a map, or over
// maps.Keys, maps.Values or maps.All of one; and over a channel.
func (c *checker) checkRange(r *ast.RangeStmt, w where) {
	switch c.info.TypeOf(r.X).Underlying().(type) {
	case *types.Map:
		c.report(r.Pos(), "range", "range over a map in %s: iteration order is random; sort the keys first (slices.Sorted(maps.Keys(m)))", w)
		return
	case *types.Chan:
		c.report(r.Pos(), "range", "range over a channel in %s: a process receives only through events", w)
		return
	}
	if call, ok := ast.Unparen(r.X).(*ast.CallExpr); ok {
		if f, ok := c.callee(call).(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "maps" {
			switch f.Name() {
			case "Keys", "Values", "All":
				c.report(r.Pos(), "range", "range over maps.%s in %s: iteration order is random; sort the keys first (slices.Sorted(maps.Keys(m)))", f.Name(), w)
			}
		}
	}
}

// checkIdent reports uses of mutable package-level variables and of the
// clock, randomness and I/O.
func (c *checker) checkIdent(id *ast.Ident, w where) {
	if v := c.packageVar(id); v != nil {
		if where, ok := c.mutable[v]; ok {
			if c.writes[id] {
				c.report(id.Pos(), "global", "write to package-level variable %s in %s: hidden state that outlives the step; keep it in the local state", id.Name, w)
			} else {
				c.report(id.Pos(), "global", "package-level variable %s read in %s is written in %s: hidden state that outlives the step; keep it in the local state", id.Name, w, where)
			}
		}
		return
	}
	obj := c.info.Uses[id]
	if obj == nil || obj.Pkg() == nil {
		return
	}
	if _, ok := obj.(*types.TypeName); ok {
		return // naming a type does nothing
	}
	if _, ok := obj.(*types.Const); ok {
		return
	}
	path, name := obj.Pkg().Path(), obj.Name()
	qual := path + "." + name
	if f, ok := obj.(*types.Func); ok {
		if recv := f.Type().(*types.Signature).Recv(); recv != nil {
			// A method: time.Time's are pure arithmetic, a rand.Rand's are not.
			qual = path + "." + funcName(f)
			if path != "math/rand" && path != "math/rand/v2" {
				return
			}
		}
	}
	switch {
	case path == "time" && clockFuncs[name] && isFunc(obj):
		c.report(id.Pos(), "clock", "%s in %s: reads the clock; a step must depend only on its state and event", qual, w)
	case randomPkgs[path]:
		c.report(id.Pos(), "rand", "%s in %s: randomness; a step must depend only on its state and event (the explorer already tries every interleaving)", qual, w)
	case ioPkgs[path] || ioFuncs[qual]:
		c.report(id.Pos(), "io", "%s in %s: I/O or the environment; a step must depend only on its state and event", qual, w)
	}
}

func isFunc(obj types.Object) bool { _, ok := obj.(*types.Func); return ok }

// clockFuncs are the functions of package time that read the clock or
// wait for it.
var clockFuncs = map[string]bool{
	"Now": true, "Since": true, "Until": true, "After": true, "AfterFunc": true,
	"Sleep": true, "Tick": true, "NewTimer": true, "NewTicker": true,
}

// randomPkgs are the packages whose functions and variables are random.
var randomPkgs = map[string]bool{
	"math/rand": true, "math/rand/v2": true, "crypto/rand": true, "hash/maphash": true,
}

// ioPkgs are packages whose every function and variable touches the
// process's environment or the outside world.
var ioPkgs = map[string]bool{
	"os": true, "os/exec": true, "os/signal": true, "io/ioutil": true,
	"net": true, "net/http": true, "syscall": true, "log": true,
}

// ioFuncs are the I/O functions of otherwise pure packages.
var ioFuncs = map[string]bool{
	"fmt.Print": true, "fmt.Printf": true, "fmt.Println": true,
	"fmt.Scan": true, "fmt.Scanf": true, "fmt.Scanln": true,
}
