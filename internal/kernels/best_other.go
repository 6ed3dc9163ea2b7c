//go:build !amd64 || purego || !gc

package kernels

// detect: without convert's assembly kernels only the pure Go ones exist.
func detect() Tier { return Go }
