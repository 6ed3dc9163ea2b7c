// Package gguf reads and writes GGUF files, the model files of ggml and
// llama.cpp, exactly as ggml's gguf.cpp defines them: Read accepts what
// gguf_init_from_file accepts (with three deliberate differences, below)
// and the Writer writes the bytes gguf_write_to_file writes.
//
// Read (or Open, which keeps the file open for TensorData and ReadTensor)
// parses and validates the header and returns a File: the metadata (KV, in
// file order, each Value keeping its wire type) and the tensor infos (Name,
// Type, Dims, Offset). It reads no tensor data. NewWriter, Write and
// WriteFile (atomic, read back before it is put in place) write a File and
// its tensors' data, streaming, placing the data themselves. Type is the
// table of ggml's tensor types: block size and bytes per block.
//
// # The format
//
// The sources are ggml's src/gguf.cpp (gguf_init_from_reader,
// gguf_write_out), include/gguf.h, src/ggml.c (type_traits) and
// src/ggml-common.h (the block structs), and docs/gguf.md. All numbers are
// little endian (the package reads and writes them so on every platform):
//
//   - "GGUF", version (u32), tensor count (u64), metadata count (u64);
//   - each metadata pair: key (a string: u64 length, bytes), value type
//     (u32), value. Types: uint8 0, int8 1, uint16 2, int16 3, uint32 4,
//     int32 5, float32 6, bool 7 (one byte), string 8, array 9 (element type
//     u32, count u64, elements), uint64 10, int64 11, float64 12;
//   - each tensor info: name (string), n_dims (u32), ne (u64 each,
//     innermost first), type (u32, a ggml type id), offset (u64, from the
//     start of the data);
//   - zeros up to general.alignment (a u32 power of two; 32 without it);
//   - the data: each tensor where the previous one ends, padded with zeros
//     to the alignment (the last one too).
//
// # What Read refuses
//
// Every refusal is a *FormatError with the byte offset of the offending
// field (the magic, the version, the count, the string's length, the value
// type, the key, the tensor's name, its dimension count, the dimension, its
// type, its offset), the key or tensor involved, and a sentinel cause for
// errors.Is. These are gguf.cpp's checks, each seen to be ggml's by the
// oracle (testdata/oracle.txt):
//
//   - ErrMagic: a magic other than "GGUF";
//   - ErrVersion: version 0, 1 (GGUFv1 had 32-bit counts; ggml dropped
//     it), above 3, or with its low 16 bits 0 (a file of the other byte
//     order). Versions 2 and 3 are the same format and both are read;
//   - ErrTruncated: the file ends inside a field; a string, array, or count
//     of pairs or tensors that needs more bytes than are left (checked
//     before anything is allocated, so memory stays bounded by the file's
//     size: an array of 2^60 elements in a 100-byte file is an error at its
//     count); the data section starting past the end; a tensor's data
//     ending past it;
//   - ErrBadValue: a tensor or pair count of 2^63 or more (negative for
//     ggml); a string longer than 2^30 bytes or an array of more than 2^30
//     elements (GGUF_MAX_STRING_LENGTH, GGUF_MAX_ARRAY_ELEMENTS); an unknown
//     value type; an empty or repeated key; general.alignment not a u32, 0
//     or not a power of two; a tensor name of 64 bytes or more
//     (GGML_MAX_NAME) or repeated (compared, as ggml compares them, up to
//     the first NUL); more than 4 dimensions; a dimension of 2^63 or more;
//     dimensions whose product reaches 2^63 (ggml's test, on the exact
//     product); rows (ne[0]) not a whole number of blocks; a size in bytes
//     of 2^63 or more;
//   - ErrType: a type id ggml does not define, or has removed (4, 5, 31-33,
//     36-38);
//   - ErrLayout: a tensor offset other than the previous tensor's end
//     padded to the alignment (the message says whether it is unaligned,
//     overlaps or leaves a gap: ggml accepts only that one layout).
//
// ggml accepts, and so does Read: zero dimensions (a scalar) and
// dimensions of 0; an empty tensor name; a bool byte other than 0 and 1
// (true; written back as 1, as ggml writes it); any padding bytes; a file
// that ends right after the last tensor's data, unpadded.
//
// Read differs from gguf_init_from_file in three cases, on purpose:
//
//   - it reads arrays of arrays (element type 9), which docs/gguf.md allows
//     and gguf-py reads, to MaxNesting levels; ggml refuses them, so a File
//     with NewArrayOfArrays values is not for llama.cpp;
//   - it refuses tensor data past the end of the file, which ggml's reader
//     does not check (llama.cpp's loader does);
//   - it refuses dimensions whose int64 product wraps around (2^32 x 2^32),
//     which ggml's check misses.
//
// # Writing
//
// The Writer writes what gguf_write_to_file writes for the same metadata
// and tensors: header, pairs in order, tensor infos, zeros to the alignment
// (also when there are no tensors), then each tensor's data and zeros to
// the alignment. Two differences in what a caller gives ggml: ggml writes a
// tensor's dimensions without trailing 1s (ggml_n_dims; CanonicalDims gives
// them) while the Writer writes Dims as given, so that files from other
// writers round-trip byte for byte; and ggml pads to 32 in a context made
// by gguf_init_empty even when general.alignment says otherwise (a ggml bug:
// testdata/ggml-written-align64.gguf, which ggml cannot read back), while
// the Writer pads to general.alignment. The Writer refuses any File that
// Read would refuse (it reads back the header it built), so what it writes
// always reads.
//
// # How it was checked against ggml
//
// scripts/gguf-oracle/run.sh loads llama.cpp's libggml-base.so (from the
// npm package @node-llama-cpp/linux-x64 3.22.1) and compares, file by file,
// what gguf_init_from_file reads with what Open reads: every key, type and
// value (as bytes), every tensor's name, type, ne, offset and size, and the
// data offset; the files are those TestOracleFiles writes (every value type,
// alignments 1, 32 and 64, version 2, all 35 tensor types) and every
// TestHostile case. It also checks the type table against ggml_type_name,
// ggml_blck_size and ggml_type_size, and checks that a file written by
// ggml's gguf_write_to_file is read and rewritten byte-identically
// (testdata/ggml-written.gguf, checked by TestGGMLWritten without the
// library). testdata/oracle.txt is its output.
package gguf
