//go:build !race

package testvals

// raceEnabled is whether the race detector is on (race.go).
const raceEnabled = false
