// Command gentransition rewrites explore/ztransition.go from
// explore/transition.go (go generate, run in explore).
package main

import (
	"log"
	"os"

	"github.com/elcheck/elcheck/explore/internal/gentransition"
)

func main() {
	src, err := os.ReadFile("transition.go")
	if err != nil {
		log.Fatal(err)
	}
	out, err := gentransition.Generate(src)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("ztransition.go", out, 0o644); err != nil {
		log.Fatal(err)
	}
}
