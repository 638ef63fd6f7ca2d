#!/bin/sh
# build.sh OUT: the explorer page as a static site in OUT, the checker
# compiled to WebAssembly (make web). Run from the repository's root.
set -eu
out=${1:?usage: cmd/elcheck-wasm/build.sh OUT}
go=${GO:-go}
mkdir -p "$out"
GOOS=js GOARCH=wasm "$go" build -o "$out/elcheck.wasm" ./cmd/elcheck-wasm
cp "$("$go" env GOROOT)/lib/wasm/wasm_exec.js" "$out/"
cp web/static/app.js web/static/style.css cmd/elcheck-wasm/wasm.js "$out/"
# The server's page, with the loader before the page's script.
sed 's|<script src="app.js"></script>|<script src="wasm_exec.js"></script><script src="wasm.js"></script><script src="app.js"></script>|' \
	web/static/index.html > "$out/index.html"
grep -q 'src="wasm.js"' "$out/index.html" || { echo "build.sh: index.html no longer loads app.js as expected" >&2; exit 1; }
