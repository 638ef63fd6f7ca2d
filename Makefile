# elcheck's build. `make test` is what CI runs (.ci/run); `make verify`
# is the README's main job.

GO ?= go
ALGO ?= dkr
N ?= 5

.PHONY: all build verify test vet race bench golden clean

all: build test

build:
	$(GO) build -o bin/elcheck ./cmd/elcheck

## verify: the headline command: prove $(ALGO) on every ring of $(N).
verify:
	$(GO) run ./cmd/elcheck verify -algo=$(ALGO) -n=$(N)

## test: vet, then every test; the explorer again under the race detector.
test: vet
	$(GO) test ./...
	$(GO) test -race -short ./explore/

vet:
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }
	$(GO) vet ./...

## bench: the explorer's benchmarks (figures go to docs/benchmarks.md).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./explore/

## golden: rewrite the golden counterexamples after a reviewed change.
golden:
	ELCHECK_REWRITE=1 $(GO) test ./... -run Golden

clean:
	rm -rf bin
