//go:build race

package explore

// raceOn: the tests run under the race detector, which makes the search
// some ten times slower; agreement tests that run one worker, where it
// has nothing to find, skip or shrink.
const raceOn = true
