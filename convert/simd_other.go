//go:build !amd64 || purego || !gc

package convert

// simdBest: without assembly only the pure Go kernels exist.
func simdBest() simdTier { return tierGo }
