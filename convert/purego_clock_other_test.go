//go:build !linux

package convert_test

import "time"

// threadTime is 0 where there is no per-thread clock: BenchmarkPureGoAll
// then measures wall time.
func threadTime() time.Duration { return 0 }
