//go:build race

package testvals

const raceEnabled = true
