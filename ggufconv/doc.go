// Package ggufconv converts GGUF files: to another tensor type (quantizing
// with package ggml, bit for bit as ggml's reference quantizer), to
// llama-quantize's file types with its per-tensor choice of types, and to
// safetensors or .npy with every tensor dequantized exactly.
//
// # What it does
//
// ConvertGGUF reads a GGUF file and writes a new one. With Options.To, every
// tensor of two or more dimensions (ggml_n_dims: trailing 1s do not count)
// of type F32, F16 or BF16 whose rows (ne[0]) are whole blocks of To becomes
// To: dequantized to float32 exactly, then quantized by ggml.Quantize one
// chunk of whole rows at a time. With Options.FileType, each tensor gets the
// type llama-quantize gives it for that file type (PlanTypes, TensorType:
// output.weight and tied embeddings to Q6_K, attn_v and ffn_down with more
// bits in the layers use_more_bits picks, the GQA and 8-expert rules, the
// 70B attn_v rule, MXFP4 for 3-D expert tensors, the fallbacks when ne[0] is
// not whole blocks), or with Options.Pure the file type's default type. A
// tensor already of a block type is requantized only with
// Options.Requantize; every other tensor is copied byte for byte, and the
// Report says what happened to each and why. The metadata is kept, except
// general.quantization_version (2) and general.file_type (the llama_ftype),
// which are removed and appended, as llama-quantize's gguf_set_val_u32 does.
// Options.LlamaLayout also takes llama-quantize's tensor order (its loader's
// map: tensors outside blk.N first, then by layer, by name within each) and
// drops trailing dimensions of 1.
//
// To safetensors, a GGUF file is a second codec of package checkpoint's
// planner, not a converter of its own: Input gives its tensors as
// checkpoint.Tensor values (name, dtype, row-major shape, bytes; the block
// types and F16/BF16 as a checkpoint.Codec whose decoder is ggml's exact
// dequantization), and ConvertToSafetensors hands them to
// checkpoint.ConvertInput, which converts them as it converts a
// safetensors file: to a floating type in any rounding mode, FP8 block
// quantization with its recipes, the MX and NVFP4 block formats, Rest,
// Stats, its output checks. ToSafetensors is its simple form: every
// selected tensor as float32 bit-equal to ggml's dequantize_row_*, then
// rounded once to the kind asked (float, half, bfloat16, double ...);
// integers keep their dtype; the shape is ne reversed; the metadata goes
// into __metadata__ as text. A single tensor goes to .npy when the
// output's name ends in .npy.
//
// ConvertGGUF streams: a tensor is read, converted and written in chunks
// of about 2^20 elements of whole rows, by Options.Workers goroutines with
// at most twice that many chunks in flight, and written in order, so
// memory stays bounded by the chunks (not the tensor or the file) and the
// output does not depend on the number of workers; the planner works in
// bounded pieces as well. The output is written to a temporary file beside
// dst (fileconv.CreateAtomic), read back (gguf.Open, safetensors.Open) and
// checked before it takes dst's name; an error or a cancelled context
// leaves neither. checkpoint.CheckOutput refuses an existing dst without
// Options.Replace, and dst == src always.
//
// # How it is checked
//
// scripts/ggufconv-oracle/run.sh quantizes synthetic llama-architecture
// models with llama.cpp's own llama_model_quantize (libllama from the npm
// package @node-llama-cpp/linux-x64 3.22.1, ggml 0.25.1) and with
// ConvertGGUF(FileType, LlamaLayout), for every file type of FileTypes,
// with and without Pure, and compares the files byte for byte. The models
// (oracle_test.go) cover GQA 4 and 8 and plain multi-head attention, F16,
// F32 and BF16 weights, tied embeddings, 8- and 4-expert models with 3-D
// expert tensors, an 80-layer model (the 70B rule), tensors in
// convert_hf_to_gguf's order, a one-column weight, positional embeddings, a
// 1-D rope_freqs and a tensor whose rows are not whole K-blocks (the
// fallbacks), a falcon and a qwen2 model, and llama-quantize's overrides
// (PlanOptions). testdata/oracle.txt is its output: 385 files identical, 0
// different; Q2_K_S, which needs an importance matrix, refused by both.
// testdata/llama-sha256.txt holds the SHA-256 of each of llama's files,
// which TestLlamaHashes checks without the library, and testdata holds one
// tiny model with llama's Q4_K_M and Q8_0 files of it, checked byte for byte
// by TestLlamaGolden in -short mode.
//
// # Limits
//
//   - No importance matrix (ggml.ErrImatrix): the IQ file types, Q2_K_S, and
//     llama-quantize's --imatrix, --tensor-type, --output-tensor-type,
//     --token-embedding-type, --leave-output-tensor, --prune-layers and
//     --keep-split are not here. FileTypes lists what is.
//   - llama-quantize refuses a file with a quantized tensor it would change
//     unless --allow-requantize; ConvertGGUF copies that tensor and reports
//     it instead.
//   - position_embd.weight and token_types.weight are never quantized here;
//     llama.cpp compares them with its per-architecture tensor names, so in
//     an architecture without them it may quantize a tensor so named.
//   - With LlamaLayout the data is padded to general.alignment, as ggml
//     reads it; llama-quantize pads to 32 whatever general.alignment says
//     (the ggml bug package gguf documents), so inputs with another alignment
//     differ from llama's files there.
//   - ToSafetensors and ConvertToSafetensors cannot dequantize the IQ, TQ,
//     Q1_0 and Q2_0 types (package ggml has no dequantizer for them); Skip
//     leaves them out.
//   - A row is converted whole: rows of more than 2^26 elements are an
//     error.
package ggufconv
