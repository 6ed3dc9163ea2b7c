package gguf

import "github.com/clconv/clconv/ggml"

// Type is a ggml tensor type id (enum ggml_type in ggml.h), as a tensor
// info stores it: package ggml's Type, whose one table gives each type's
// name, block size and bytes per block (ggml.c's type_traits, checked
// against libggml-base by TestTypeTable there and by scripts/gguf-oracle).
// Read refuses an id that is not Known.
type Type = ggml.Type
