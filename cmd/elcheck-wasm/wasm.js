// The WebAssembly build's loader: runs elcheck.wasm (the page's API,
// cmd/elcheck-wasm) in the page and hands app.js its requests
// (window.elcheckLocal) instead of a server's. The protocol and n come from
// the address: index.html?algo=cr-flip&n=4.
"use strict";

window.elcheckReady = (async () => {
  const params = new URLSearchParams(location.search);
  const algo = params.get("algo") || "cr-flip";
  const n = Number(params.get("n") || "4");
  const go = new Go();
  const bytes = await (await fetch("elcheck.wasm")).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
  go.run(instance); // returns when the program exits, which it does not
  window.elcheckLocal = (method, target, body) => window.elcheckAPI(algo, n, method, target, body || "");

  // A bar to choose the protocol and n: the page has no server to ask.
  const bar = document.createElement("form");
  bar.id = "wasm-bar";
  bar.method = "get";
  const select = document.createElement("select");
  select.name = "algo";
  for (const name of JSON.parse(window.elcheckProtocols())) {
    const o = document.createElement("option");
    o.value = o.textContent = name;
    o.selected = name === algo;
    select.append(o);
  }
  const size = document.createElement("input");
  size.name = "n";
  size.type = "number";
  size.min = "1";
  size.max = String(window.elcheckMaxN);
  size.value = String(n);
  const open = document.createElement("button");
  open.textContent = "open";
  bar.append("WebAssembly build: elcheck runs in this page, no server; small n only (1 to " + window.elcheckMaxN + "). Protocol ", select, " n ", size, " ", open);
  document.querySelector("header").append(bar);
})();
