//go:build race

package spec

// raceOn: the tests run under the race detector, whose sync.Pool drops a
// quarter of what is put back, so that allocation counts are not the
// program's.
const raceOn = true
