//go:build gc && (amd64 || arm64 || riscv64 || s390x || ppc64le || loong64 || wasm)

package convert

// hwInt64ToFloat32 reports whether Go's float32(x) for an int64 x is one
// hardware instruction, which rounds once to nearest as the Go
// specification says (amd64 CVTSI2SSQ, arm64 SCVTF, riscv64 FCVT.S.L, s390x
// CEGBR, ppc64le FCFIDS, loong64 FFINT.S.L, wasm f32.convert_i64_s). The
// 32-bit ports build it from pieces and round some values wrongly
// (docs/PORTS.md), so the kernels that use it (long -> float in rtp) take
// an exact float64 step there instead. Every port in this list runs the
// tests in CI (scripts/ports.sh).
const hwInt64ToFloat32 = true
