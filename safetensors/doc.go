// Package safetensors reads and writes huggingface's safetensors files
// exactly, and converts their tensors to any clconv type with convert's
// bit-exact conversions.
//
// Read (or ReadBytes, or Open, which maps the file where the system can)
// parses and validates the header and returns a File: the tensors in data
// order, the metadata, the sizes. ReadInto and ReadTensor convert a tensor's
// elements to a Go type (convert.Number: int8 .. float64, half.Half,
// bfloat16.BFloat16, fp8.E4M3, fp8.E5M2) in a rounding mode, with or without
// _sat, or checked; Section gives its raw bytes. NewWriter writes a header
// and Writer takes the data; Encode turns an in-memory slice into a tensor.
//
// # The format
//
// The sources are huggingface/safetensors' README ("Format") and its reader,
// safetensors/src/tensor.rs (SafeTensors::read_metadata, Metadata::validate,
// HashMetadata, TensorInfo, Dtype). A file is:
//
//   - 8 bytes: N, a little-endian uint64;
//   - N bytes: the header, a JSON object in UTF-8;
//   - the data: every tensor's elements, little-endian, row-major.
//
// Read enforces, and every violation is a *FormatError giving the file
// offset, the tensor when one is involved, and the cause:
//
//   - N is at most MaxHeaderLen (100,000,000, tensor.rs's MAX_HEADER_SIZE)
//     and 8 + N at most the file's size; both are checked before the header
//     is read, so Read allocates no more than the header's bytes;
//   - the header is valid UTF-8 (all of it, padding included, as tensor.rs
//     checks) and valid JSON; it begins with '{' and only spaces (0x20) follow
//     the object, as the README says (MUST begin with '{', MAY be padded with
//     0x20). safetensors' own reader is laxer here: serde_json skips any
//     JSON white space before and after the object (tab, LF, CR too; commit
//     96305fc, "support reading padded/trailing whitespace header", made that
//     intended). This package keeps to the README, and no writer of
//     safetensors' (which pads with spaces) is affected;
//   - no object repeats a key: not the tensor names, not "__metadata__", not
//     the members of an entry (the README: "Duplicate keys are disallowed";
//     serde would keep the last of two same-named tensors, and the first one's
//     bytes would then be a hole);
//   - "__metadata__" is an object whose values are all strings (null reads
//     as no metadata, as serde reads an Option);
//   - every other key is a tensor: an object with "dtype" (a string),
//     "shape" (an array of at most MaxDims non-negative integers) and
//     "data_offsets" (an array of two non-negative integers [begin, end)).
//     The numbers are JSON integers below 2^63: no sign, fraction or
//     exponent ("1.0" and "1e3" are refused, as serde_json refuses them for
//     usize). Other members are checked as JSON and ignored, as safetensors
//     ignores them (its TensorInfo has no deny_unknown_fields); nesting is
//     limited to 128 levels, serde_json's recursion limit;
//   - the dtype is one of the DType constants (F8_E4M3FNUZ and F8_E5M2FNUZ
//     included). C64, which safetensors also defines, is ErrUnsupported;
//     any other string is ErrUnknownDType;
//   - end - begin is the tensor's size: the product of the shape (1 for [],
//     a scalar; 0 with any 0 dimension), taken in order and checked for
//     overflow as tensor.rs does, times the dtype's bits, which must make a
//     whole number of bytes (tensor.rs's MisalignedSlice: an odd count of F4
//     elements, a count of F6 elements not a multiple of 4);
//   - sorted by (begin, end), the tensors cover the data exactly: the first
//     begins at 0, each begins where the previous ends (no hole, no overlap)
//     and the last ends at the end of the file.
//
// # Sub-byte dtypes
//
// safetensors stores F4 and F6 tensors packed and gives their shapes in
// elements, not bytes: the Python binding doubles the last dimension of a
// torch float4_e2m1fn_x2 tensor when it writes the header
// (bindings/python/src/lib.rs, TensorSpec::new) and halves it when it loads
// one. The bit order within a byte is the frameworks', since safetensors
// only copies bytes:
//
//   - F4 (OCP MX FP4 E2M1): two elements per byte, element 2i in the low
//     nibble and 2i+1 in the high nibble. This is PyTorch's
//     torch.float4_e2m1fn_x2 (torch/headeronly/util/Float4_e2m1fn_x2.h:
//     "val1 : val0" in bits "7654 : 3210"), the type safetensors' Python
//     binding maps F4 to, and NVIDIA's __nv_fp4x2_e2m1. (torch has no
//     conversion of that type to check the nibble order against; TestInterop
//     checks the doubled shapes and the bytes of save_file's F4 tensors.)
//   - F6_E2M3 and F6_E3M2 (OCP MX FP6): four elements in three bytes,
//     element i in bits [6i, 6i+6) of the bytes read as one little-endian bit
//     string (element 0 in the low six bits of byte 0, element 1 in the top
//     two bits of byte 0 and the low four of byte 1, ...). No framework that
//     saves safetensors has a packed FP6 type (PyTorch has none; ml_dtypes'
//     float6_e2m3fn and float6_e3m2fn are one element per byte; safetensors'
//     tests only check sizes), so the format leaves this open. This package
//     chooses the little-endian bit string, the order of the F4 convention
//     extended to 6 bits and the one AMD's MX FP6 tooling uses (ROCm/rocRoller,
//     getFp6/setFp6 of its DataTypes).
//
// UnpackF4, PackF4, UnpackF6 and PackF6 convert between these layouts and one
// code per byte.
//
// # Conversions
//
// A tensor of a dtype with a cltype kind (DType.Kind) converts to T exactly
// as convert.Slice, SliceSat or SliceChecked converts a slice of the Go type
// of that kind. BOOL reads as uchar (0 or 1). F8_E8M0, F4, F6_E2M3 and
// F6_E3M2, which cltype has no kinds for, decode exactly to float64 (their
// rows of internal/minifloat) and convert from double, which gives the same
// result as a direct conversion since every value is a double exactly.
// torch's own float32 to float16, bfloat16, float8_e4m3fn and float8_e5m2
// conversions agree with clconv's rte on the values of
// testdata/make_fixtures.py (TestInterop).
//
// # The writer
//
// NewWriter writes what tensor.rs's serialize writes for the same tensors in
// the same order: serde_json's compact JSON (no spaces; strings escaped as
// serde_json escapes them: '"', '\\' and control characters only), the
// metadata first, then the tensors in data order, the whole padded with
// spaces to a multiple of 8 bytes so that the data starts 8-byte aligned.
// safetensors orders the tensors by decreasing alignment, then name;
// SortTensors does the same, after which the output is byte for byte
// safetensors' (TestWriterMatchesSafetensors holds tensor.rs's own expected
// bytes; TestInterop rewrites a save_file output identically). Metadata keys
// are sorted here; a Rust HashMap's order is arbitrary.
//
// # Why a hand-written JSON parser
//
// The header is parsed by a small strict scanner written for it, as
// fileconv's .npy header is, rather than encoding/json or
// github.com/go-json-experiment/json. encoding/json's Decoder.Token would
// need the same checks written around it and cannot do some: it replaces
// an escaped lone surrogate ("\ud800", which serde_json refuses) with U+FFFD
// silently, reports offsets only between tokens, and boxes every token.
// go-json-experiment/json rejects duplicate names and invalid UTF-8 by
// default, but is an experimental API that the module would have to require
// directly (it is only an indirect dependency of chromedp now), and its
// errors would still need translating into offsets of the file. The
// scanner gives every error the exact byte offset of the value at fault and
// the tensor it belongs to, allocates in proportion to the header, and is
// fuzzed (FuzzRead).
package safetensors
