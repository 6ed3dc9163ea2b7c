//go:build !gc || !(amd64 || arm64 || riscv64 || s390x || ppc64le || loong64 || wasm)

package convert

// hwInt64ToFloat32 reports whether Go's float32(x) for an int64 x is one
// correctly rounded hardware instruction: not on this port
// (int64float_hw.go lists those where it is).
const hwInt64ToFloat32 = false
