// Command elcheck-vet runs elcheck's static purity check for protocols
// (package vet) on its own or under go vet:
//
//	go run ./cmd/elcheck-vet ./protocols/...
//	go install ./cmd/elcheck-vet && go vet -vettool=$(go env GOPATH)/bin/elcheck-vet ./...
//
// It exits non-zero if it reports anything; docs/purity.md lists what it
// flags.
package main

import (
	"github.com/elcheck/elcheck/vet"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(vet.Analyzer) }
