// Package ggml quantizes float32 rows into ggml's tensor block types (those of
// GGUF files) and dequantizes them back, bit for bit as llama.cpp's ggml does.
//
// # Types
//
//	type   id  block  bytes  layout (ggml-common.h)
//	f32     0      1      4  float32
//	f16     1      1      2  binary16
//	q4_0    2     32     18  fp16 d, 16 bytes: element j low nibble, j+16 high; x = (q-8)*d
//	q4_1    3     32     20  fp16 d, fp16 m, nibbles as q4_0; x = q*d + m
//	q5_0    6     32     22  fp16 d, u32 qh (5th bits), nibbles; x = (q-16)*d
//	q5_1    7     32     24  fp16 d, fp16 m, u32 qh, nibbles; x = q*d + m
//	q8_0    8     32     34  fp16 d, 32 int8; x = q*d
//	q2_K   10    256     84  16 scale|min nibbles, 64 bytes of 2-bit codes, fp16 d, dmin
//	q3_K   11    256    110  32 bytes high bits, 64 bytes 2-bit codes, 12 bytes of 16 6-bit scales, fp16 d
//	q4_K   12    256    144  fp16 d, dmin, 12 bytes of 8 6-bit scales and mins, 128 bytes of nibbles
//	q5_K   13    256    176  as q4_K plus 32 bytes of fifth bits
//	q6_K   14    256    210  128 bytes low nibbles, 64 bytes high 2 bits, 16 int8 scales, fp16 d
//	q8_K   15    256    292  float32 d, 256 int8, 16 int16 sums (the K-quant dot-product operand)
//	bf16   30      1      2  bfloat16
//	mxfp4  39     32     17  E8M0 byte, 16 bytes of E2M1 codes (j low, j+16 high)
//	nvfp4  40     64     36  four UE4M3 bytes (one per 16 elements), 32 bytes of E2M1 codes
//
// The table in types.go has one row per type; [Quantize] and [Dequantize]
// check lengths and dispatch through it. Multi-byte fields are little-endian
// on every host.
//
// # What "exact" means here
//
// [Quantize] writes the bytes of ggml_quantize_chunk with no importance
// matrix, that is of the quantize_row_*_ref functions in ggml-quants.c (and
// of ggml_fp32_to_fp16_row and ggml_fp32_to_bf16_row_ref for F16 and BF16).
// They are not the exact roundings of their formats, and every GGUF user has
// their bytes:
//
//   - Q8_0: d = amax/127 in float32, q = roundf(x*(1/d)) (ties away from
//     zero) with the float32 inverse, not the stored fp16 d.
//   - Q4_0, Q5_0: d = max/-8 (-16), max the signed element of largest
//     magnitude (the first of equals); q = MIN(15, (int8_t)(x*id + 8.5f)).
//     Q4_1, Q5_1: d = (max-min)/15 (31), q = (x-min)*id + 0.5 truncated.
//   - The K-quants search every sub-block's scale (make_qkx2_quants,
//     make_qx_quants, make_q3_quants), quantize the scales against the fp16
//     super-block scale, and requantize; nearest_int (x + 1.5*2^23, read the
//     low mantissa bits) rounds half to even.
//   - MXFP4: the scale byte is (uint8_t)(floorf(log2f(amax)) - 2 + 127). glibc's
//     log2f rounds values a few ulps below a power of two up to the integer,
//     so the exponent comes from log2f_table.go, made from glibc's log2f and
//     checked on all 2^31 positive floats; an amax below 2^-125 wraps the
//     byte (to 232..255) and an infinite one gives 0. Elements go to the
//     nearest of d*{0, 1, 2, 3, 4, 6, 8, 12} (d half the E8M0 scale) with ties
//     toward zero, the first index of least error. Package mx implements the
//     OCP rule instead: the same exponent from the exact floor(log2(amax)),
//     no wrap, and ties to even (2.5 -> 2, 5 -> 4 in E2M1 units). So the two
//     packages give different bytes for the same block.
//   - NVFP4 (ggml's, not NVIDIA's two-level one): 64-element blocks of four
//     16-element sub-blocks, each with a UE4M3 scale from amax/6 rounded half
//     up on the first dropped bit (not to nearest even), clamped at 448
//     (0x7e), and no tensor scale. Elements as MXFP4.
//   - F16: round to nearest even, every NaN to sign|0x7e00. BF16: nearest
//     even, a NaN keeps its payload with the quiet bit forced.
//
// [Dequantize] gives the float32 bits of dequantize_row_* on x86-64, NaNs
// included: a NaN scale propagates quieted, 0*inf gives x86's default NaN
// 0xffc00000, and fp16 NaNs get the quiet bit.
//
// The reference is compiled without FMA contraction and computes in float32:
// every product here is rounded on its own (float32(...) around each, which
// keeps Go from fusing on arm64, ppc64le, s390x and riscv64). Float-to-integer
// casts are x86's cvttss2si (0x80000000 for NaN and out of range, then the
// low byte), roundf, fabsf and the comparisons of the C code are reproduced
// literally, and where a NaN's payload reaches the output (through
// nearest_int's bit trick or a dequantized float) the x86 NaN rules are
// applied in software. The results are the same on every Go port; the tests
// run on amd64, 386, arm, arm64, ppc64le, s390x, riscv64, loong64, mips,
// mipsle and wasm.
//
// No bits of a NaN made by a plain float32 operation are read, since they
// depend on the hardware (x86 0xffc00000, arm64 and riscv64 0x7fc00000, MIPS
// with its legacy encoding 0x7fbfffff, which it also makes from an operand
// 0x7fc00000, a signaling NaN there). The software operations (mulx and the
// like) compute x86's NaN from the operands' bits and never read a hardware
// result that is NaN. In the Q2_K..Q6_K quantizers every NaN x86 can meet has
// no payload (the block's NaNs are canonicalized, below), so nearest_int of
// it is 0 whatever its sign: nearestIntK and kfast's ni return 0 for every
// NaN without reading it. Only Q8_K's nearestInt reads a NaN's payload, and
// its argument comes from mulx on the data. No computed NaN reaches a stored
// fp16 or float32 scale (the scale maxima are chosen by comparisons, which
// never pick a NaN).
//
// One exception: for a K-quant super-block that holds a NaN, ggml's bytes
// depend on which operand gcc put first in each loop (the same NaN is coded
// differently in the first and second sub-block of the x86-64 build), so
// such blocks are computed with every NaN replaced by 0x7fc00000. The output
// is the same on every port but may differ from ggml's (2 of the 4 such
// super-blocks in the goldens do, both also holding infinities); the goldens
// check these rows against this package's own output. Blocks with
// infinities and no NaN match ggml.
//
// # How it is checked
//
// testdata/*.json.gz hold what llama.cpp's libggml-base.so (the x86-64
// build shipped in @node-llama-cpp/linux-x64 3.22.1) made of the inputs in
// rows_test.go: adversarial rows (zero blocks, one huge element, ties at half
// steps for every scale rule, scales at fp16 overflow and underflow, float32
// subnormals, max-magnitude floats, NaN and infinities, the log2f and UE4M3
// rounding points) stored in full, seeded random rows of seven distributions
// and random block bytes stored as SHA-256 sums, and for dequantization every
// fp16 scale with every code (Q8_0, Q4_0, Q4_1, Q5_0, Q5_1), every E8M0
// byte (MXFP4) and every UE4M3 byte in each slot (NVFP4).
//
// With CLCONV_SAMPLE=1 (testvals.Sampled: emulated ports, the race detector)
// the heaviest -short tests check a deterministic sample: TestDiffRef 1/16 of
// its rows and blocks (all 16 generators still run), TestDiffAdversarial
// every adversarial row but every 16th row of edge patterns and every 8th
// sweep block, TestConverters a stride of 2039 instead of 251, and
// TestGoldens skips the SHA-pinned scale-sweep sets (sampled by
// TestDiffAdversarial against the reference copy instead).
// scripts/ggml-oracle has the C program that drives the library and the
// script that rebuilds the goldens.
//
// # Speed
//
// The pure-Go kernels (what -tags purego and the other ports run): medians
// of 5 runs of the benchmarks in bench_test.go and diff_test.go
// (BenchmarkRef runs the pre-optimization code kept in ref_test.go), in ns
// per element, on 2^20 weights in rows of 4096, one core of a 2-core AMD
// EPYC VM (AVX-512) shared with other jobs, so the numbers are noisy (the
// unchanged types moved by up to 1.5x between the old and new runs); copying
// the same 4 MiB took 0.12 ns/element. C is ggml's reference code as
// measured earlier by scripts/ggml-oracle on the same machine.
//
//	quantize  old     new     C
//	q8_0      4.2     2.7     3.2
//	q4_0      5.8     5.1     1.85
//	q4_1      8.0     6.1     0.95
//	q5_0      6.2     5.4     2.59
//	q5_1     14.9     6.5     1.61
//	mxfp4     6.3     4.1     4.45
//	nvfp4    11.9     7.8    24.6
//	q2_K      321      70    55
//	q3_K       43      19    11.2
//	q4_K      231      81    63
//	q5_K      189      68    53
//	q6_K      138      47    28
//	f16       6.0     3.4     1.84
//	bf16      2.0     1.4     0.33
//
//	dequantize  old   new   C
//	f16         1.44  0.33  1.01
//	bf16        1.13  0.28  0.07
//	q8_0        1.19  0.39  0.14
//	q4_0        0.81  0.69
//	q4_1        0.74  0.75
//	q5_0        1.10  1.13
//	q5_1        1.18  1.30  (noise: see below)
//	q2_K        1.06  0.79
//	q3_K        1.47  0.97
//	q4_K        1.38  0.68  0.23
//	q5_K        2.27  1.18  0.27
//	q6_K        1.62  0.93
//	mxfp4       0.84  0.79
//	nvfp4       1.28  1.18
//
// For dequantize, "old" here is the code before the unrolled kernels of
// dqfast.go and "new" is with them, both medians of 5 runs on the same
// shared, noisy machine, where copying the 4 MiB took 0.077 ns/element in
// the "new" run; the legacy 4- and 5-bit types moved within the noise.
//
// The K-quant searches run a fast path for sub-blocks without NaN or
// infinity (kfast.go: plain float32 operations where only nearest_int sees
// the result, candidates whose codes repeat the previous ones skipped,
// partial sums reused up to the first changed code, error sums stopped once
// they reach the best error; each step is argued exact there).
//
// On amd64 with AVX-512 (package kernels' AVX512 tier, not with -tags
// purego), generated kernels (_asm/ggml, zsimd_amd64.s) dequantize every
// type; quantize Q8_0, Q4_0 and MXFP4 16 blocks a batch; and run the
// K-quant scale searches with one sub-block in each of 16 lanes, the scalar
// sequence of float32 operations of kfast.go in every lane (no fused
// multiply-add, sums in element order, branches as masks), for super-blocks
// whose elements are finite (ksimd_amd64.go; the others go to the Go
// searches, which define them); Q3_K's iterated passes run in two kernels,
// the sub-blocks a first pass changed queued 32 at a time for the next.
// Against ggml's reference quantizers timed in the same run
// (testdata/speed-c.txt, TestSpeed with scripts/ggml-oracle, three runs, one
// core), the K-quants are C/Go = 7.6-11.0x (q2_K), 4.0-4.35x (q3_K),
// 8.0-12.7x (q4_K), 5.3-6.5x (q5_K), 5.3-6.8x (q6_K). From memory, the
// dequantizers run at 0.84-1.42x a copy of the same float32 bytes (F16 and
// BF16 with non-temporal stores for large outputs) and the
// Q8_0, Q4_0 and MXFP4 quantizers at the ratios of
// testdata/speed-memory.txt (docs/GGUF.md).
package ggml
