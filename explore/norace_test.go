//go:build !race

package explore

// raceOn: see race_test.go.
const raceOn = false
