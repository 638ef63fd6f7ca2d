//go:build js && wasm

// Command elcheck-wasm is the explorer page's API compiled to WebAssembly
// (GOOS=js GOARCH=wasm): `make web` builds it into a folder with the page
// (cmd/elcheck-wasm/build.sh), which then runs in a browser with no server,
// on the built-in protocols and small n (web.LocalMaxN). It answers the
// page's requests with web.Local, the same handlers elcheck serve uses.
package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/web"
)

func main() {
	local := &web.Local{Lookup: protocols.Lookup}
	// elcheckAPI(algo, n, method, target, body) returns a promise of
	// {status, body}: the search of a jump runs on a goroutine, so that
	// the page can draw "busy" meanwhile.
	js.Global().Set("elcheckAPI", js.FuncOf(func(_ js.Value, args []js.Value) any {
		algo, n, method, target, body := args[0].String(), args[1].Int(), args[2].String(), args[3].String(), args[4].String()
		var executor js.Func
		executor = js.FuncOf(func(_ js.Value, p []js.Value) any {
			resolve := p[0]
			go func() {
				defer executor.Release()
				status, answer := local.Do(algo, n, method, target, body)
				res := js.Global().Get("Object").New()
				res.Set("status", status)
				res.Set("body", answer)
				resolve.Invoke(res)
			}()
			return nil
		})
		return js.Global().Get("Promise").New(executor)
	}))
	// elcheckProtocols() returns the protocols' names, as JSON.
	js.Global().Set("elcheckProtocols", js.FuncOf(func(js.Value, []js.Value) any {
		var names []string
		for _, m := range protocols.All() {
			names = append(names, m.Info().Name)
		}
		b, _ := json.Marshal(names)
		return string(b)
	}))
	js.Global().Set("elcheckMaxN", web.LocalMaxN)
	select {} // serve the page's calls for as long as it is open
}
