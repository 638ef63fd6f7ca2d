# elcheck's build. `make test` is what CI runs (.ci/run); `make verify`
# is the README's main job.

GO ?= go
ALGO ?= dkr
N ?= 5

.PHONY: all build verify test vet static purity race bench pgo golden bounds-doc mermaid-check chromium web web-screenshots clean

all: build test

build:
	$(GO) build -o bin/elcheck ./cmd/elcheck

## verify: the headline command: prove $(ALGO) on every ring of $(N).
verify:
	$(GO) run ./cmd/elcheck verify -algo=$(ALGO) -n=$(N)

## test: vet, the static checks and the purity check, then every test;
## the worked example module (its own go.mod, outside ./...); the explorer
## again under the race detector.
test: vet static purity chromium
	$(GO) test ./...
	cd examples/crvariant && $(GO) vet ./... && $(GO) mod tidy -diff && $(GO) test ./...
	$(GO) test -race -short ./explore/

## chromium: under CI=true, install Debian's Chromium if it is missing:
## the web page's browser tests (cli/serve_test.go) must run in CI, and
## skip elsewhere when there is no Chromium.
chromium:
	@if [ "$$CI" = true ]; then command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium); fi

## vet: gofmt and go vet; explore has assembly for amd64
## (prefetch_amd64.s) and a system call for Linux (populate_linux.go), with
## Go for the other architectures and systems, which is vetted for arm64
## and macOS too so that it builds; cli asks each system in its own way
## whether stderr is a terminal, and is vetted for Windows too.
vet:
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./explore/
	GOOS=darwin $(GO) vet ./explore/
	GOOS=windows $(GO) vet ./cli/

## static: staticcheck, at the version go.mod pins (its tool directive),
## and go.mod/go.sum as `go mod tidy` would leave them.
static:
	$(GO) tool staticcheck ./...
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }

## mermaid-check: the golden Mermaid charts parsed by Mermaid's own parser
## under Node (npm ci fetches Mermaid and jsdom at the versions
## tools/mermaid-check/package-lock.json pins). Not part of test, which
## checks the same texts against Mermaid's grammar without Node.
mermaid-check:
	cd tools/mermaid-check && npm ci --no-audit --no-fund --silent && node check.mjs ../../counterexamples/testdata/charts/*.mmd ../../docs/charts/*.md

## purity: the static purity check (docs/purity.md) on the built-in
## protocols and their tests, so that they stay clean; and on the worked
## example module, a module of its own, so from inside it (elcheck-vet
## builds there through its replace of this repository).
purity:
	$(GO) run ./cmd/elcheck-vet ./protocols/...
	cd examples/crvariant && $(GO) run github.com/elcheck/elcheck/cmd/elcheck-vet ./...

## bench: the explorer's benchmarks (figures go to docs/benchmarks.md).
bench:
	$(GO) test -run '^$$' -bench 'Visited|Fingerprint' -benchmem ./explore/
	$(GO) test -run '^$$' -bench 'Check' -benchmem -benchtime 3x ./explore/
	$(GO) test -run '^$$' -bench 'Config|VisitedSetGraph|Sweep' -benchtime 3x ./explore/
	$(GO) test -run '^$$' -bench 'PerCore' -benchtime 5x -count 3 ./explore/
	$(GO) test -run '^$$' -bench 'Protocols' -benchtime 3x ./explore/
	$(GO) test -run '^$$' -bench 'Measure' -benchtime 3x ./bounds/

## pgo: rewrite cmd/elcheck/default.pgo, the CPU profile that go build and
## go run optimize elcheck with (profile-guided optimization, go.dev/doc/pgo):
## the explorer's benchmarks of one large configuration on one and two
## workers, of whole sweeps, of a sweep with its checks, and of other
## protocols' sweeps. About a minute.
## Rerun it after changing the explorer's hot paths (docs/benchmarks.md).
pgo:
	@tmp=$$(mktemp -d) && \
	$(GO) test -run '^$$' -bench 'Config/dkr/n=12' -benchtime 10x -o $$tmp/explore.test -cpuprofile $$tmp/config.pprof ./explore/ && \
	$(GO) test -run '^$$' -bench 'Sweep' -benchtime 40x -o $$tmp/explore.test -cpuprofile $$tmp/sweep.pprof ./explore/ && \
	$(GO) test -run '^$$' -bench 'Check' -benchtime 20x -o $$tmp/explore.test -cpuprofile $$tmp/check.pprof ./explore/ && \
	$(GO) test -run '^$$' -bench 'Protocols' -benchtime 3x -o $$tmp/explore.test -cpuprofile $$tmp/protocols.pprof ./explore/ && \
	$(GO) tool pprof -proto $$tmp/config.pprof $$tmp/sweep.pprof $$tmp/check.pprof $$tmp/protocols.pprof > cmd/elcheck/default.pgo && \
	rm -r $$tmp

## bounds-doc: rewrite the tables of docs/bounds.md (below its marker line)
## and the plots in docs/bounds/: every correct protocol, n = $(BOUNDS_N)
## (two-way rings: $(BOUNDS_N_BIRING)).
## About four minutes on two cores. The protocols come from the registry
## (`elcheck list -correct`, by name), so a new protocol is measured without
## editing this file; BOUNDS_ALGOS="cr dkr" measures only those.
## Two-way rings grow much faster (Franklin's ring of 6 is 20 million
## states, of 7 out of reach), so they stop at BOUNDS_N_BIRING.
BOUNDS_ALGOS ?= $$(bin/elcheck list -correct)
BOUNDS_N ?= 3..7
## Two-way rings stop at 5: hs has 11 million states at n = 5 and hundreds
## of millions at 6.
BOUNDS_N_BIRING ?= 3..5
## Networks: every tree, connected graph or complete graph on n, each with
## its own placements: trees to 6 (n = 7 is 7 million configurations, an
## hour), graphs to 3 (echo on the six graphs of 4 is 47 million states),
## complete graphs to 4.
BOUNDS_N_TREE ?= 2..6
BOUNDS_N_GRAPH ?= 2..3
BOUNDS_N_COMPLETE ?= 2..4
## Per-protocol ranges, as name=range, over the family's: Franklin's ring of
## 6 (7,560 configurations, 20 million states) takes about four minutes.
BOUNDS_N_ALGO ?= franklin=3..6
BOUNDS_MARK = <!-- make bounds-doc writes everything below this line -->
bounds-doc: build
	@grep -qxF '$(BOUNDS_MARK)' docs/bounds.md || { echo "docs/bounds.md has lost its marker line"; exit 1; }
	@mkdir -p docs/bounds
	sed '\|^$(BOUNDS_MARK)$$|q' docs/bounds.md > docs/bounds.md.new
	set -e; algos="$(BOUNDS_ALGOS)"; test -n "$$algos"; for a in $$algos; do \
		echo >> docs/bounds.md.new; \
		n=$(BOUNDS_N); family=$$(bin/elcheck list | sed -n "s/^$$a  *\([a-z]*\).*/\1/p"); \
		case $$family in bidirectional) n=$(BOUNDS_N_BIRING);; tree) n=$(BOUNDS_N_TREE);; connected) n=$(BOUNDS_N_GRAPH);; complete) n=$(BOUNDS_N_COMPLETE);; esac; \
		for o in $(BOUNDS_N_ALGO); do case $$o in "$$a="*) n=$${o#*=};; esac; done; \
		bin/elcheck bounds -algo=$$a -n=$$n -format=markdown -plot=docs/bounds/$$a.svg >> docs/bounds.md.new; \
		printf '\n![%s: messages per execution against the declared bound](bounds/%s.svg)\n' $$a $$a >> docs/bounds.md.new; \
	done
	mv docs/bounds.md.new docs/bounds.md

## web: the explorer page as a static site in $(WEB_OUT), the checker
## compiled to WebAssembly: serve the folder with any static file server
## (docs/web.md). Small n only.
WEB_OUT ?= webdist
web:
	GO=$(GO) ./cmd/elcheck-wasm/build.sh $(WEB_OUT)

## web-screenshots: rewrite the web page's screenshots in docs/web/ (in
## headless Chromium; docs/web.md).
web-screenshots:
	ELCHECK_SCREENSHOTS=$(CURDIR)/docs/web $(GO) test -count=1 -run '^TestScreenshots$$' ./cli/

## golden: rewrite the golden counterexamples after a reviewed change.
golden:
	ELCHECK_REWRITE=1 $(GO) test ./... -run Golden

clean:
	rm -rf bin webdist
