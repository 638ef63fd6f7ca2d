//go:build !race

package spec

// raceOn: see race_test.go.
const raceOn = false
