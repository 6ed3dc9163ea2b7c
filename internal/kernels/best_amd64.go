//go:build gc && !purego

package kernels

import "golang.org/x/sys/cpu"

// detect picks the best tier from CPUID (x/sys/cpu also checks that the OS
// saves the wider registers). The build constraint is that of convert's
// assembly kernels.
func detect() Tier {
	x := cpu.X86
	switch {
	case x.HasAVX512F && x.HasAVX512BW && x.HasAVX512DQ && x.HasAVX512VL:
		return AVX512
	case x.HasAVX2 && x.HasF16C && x.HasFMA:
		return AVX2
	}
	return Go
}
