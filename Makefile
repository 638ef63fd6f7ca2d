# elcheck's build. `make test` is what CI runs (.ci/run); `make verify`
# is the README's main job.

GO ?= go
ALGO ?= dkr
N ?= 5

.PHONY: all build verify test vet static purity race bench golden bounds-doc clean

all: build test

build:
	$(GO) build -o bin/elcheck ./cmd/elcheck

## verify: the headline command: prove $(ALGO) on every ring of $(N).
verify:
	$(GO) run ./cmd/elcheck verify -algo=$(ALGO) -n=$(N)

## test: vet, the static checks and the purity check, then every test;
## the worked example module (its own go.mod, outside ./...); the explorer
## again under the race detector.
test: vet static purity
	$(GO) test ./...
	cd examples/crvariant && $(GO) vet ./... && $(GO) mod tidy -diff && $(GO) test ./...
	$(GO) test -race -short ./explore/

vet:
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }
	$(GO) vet ./...

## static: staticcheck, at the version go.mod pins (its tool directive),
## and go.mod/go.sum as `go mod tidy` would leave them.
static:
	$(GO) tool staticcheck ./...
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }

## purity: the static purity check (docs/purity.md) on the built-in
## protocols and their tests, so that they stay clean.
purity:
	$(GO) run ./cmd/elcheck-vet ./protocols/...

## bench: the explorer's benchmarks (figures go to docs/benchmarks.md).
bench:
	$(GO) test -run '^$$' -bench 'Visited|Fingerprint' -benchmem ./explore/
	$(GO) test -run '^$$' -bench 'Check' -benchmem -benchtime 3x ./explore/
	$(GO) test -run '^$$' -bench 'Config|VisitedSetGraph|Sweep' -benchtime 3x ./explore/
	$(GO) test -run '^$$' -bench 'PerCore' -benchtime 5x -count 3 ./explore/

## bounds-doc: rewrite the tables of docs/bounds.md (below its marker line)
## and the plots in docs/bounds/: every correct protocol, n = $(BOUNDS_N).
## About three minutes on two cores. The protocols come from the registry
## (`elcheck list -correct`, by name), so a new protocol is measured without
## editing this file; BOUNDS_ALGOS="cr dkr" measures only those.
## Two-way rings grow much faster (Franklin's ring of 6 is 20 million
## states, of 7 out of reach), so they stop at BOUNDS_N_BIRING.
BOUNDS_ALGOS ?= $$(bin/elcheck list -correct)
BOUNDS_N ?= 3..7
BOUNDS_N_BIRING ?= 3..6
BOUNDS_MARK = <!-- make bounds-doc writes everything below this line -->
bounds-doc: build
	@grep -qxF '$(BOUNDS_MARK)' docs/bounds.md || { echo "docs/bounds.md has lost its marker line"; exit 1; }
	@mkdir -p docs/bounds
	sed '\|^$(BOUNDS_MARK)$$|q' docs/bounds.md > docs/bounds.md.new
	set -e; algos="$(BOUNDS_ALGOS)"; test -n "$$algos"; for a in $$algos; do \
		echo >> docs/bounds.md.new; \
		n=$(BOUNDS_N); if bin/elcheck list | grep -q "^$$a  *bidirectional ring"; then n=$(BOUNDS_N_BIRING); fi; \
		bin/elcheck bounds -algo=$$a -n=$$n -format=markdown -plot=docs/bounds/$$a.svg >> docs/bounds.md.new; \
		printf '\n![%s: messages per execution against the declared bound](bounds/%s.svg)\n' $$a $$a >> docs/bounds.md.new; \
	done
	mv docs/bounds.md.new docs/bounds.md

## golden: rewrite the golden counterexamples after a reviewed change.
golden:
	ELCHECK_REWRITE=1 $(GO) test ./... -run Golden

clean:
	rm -rf bin
