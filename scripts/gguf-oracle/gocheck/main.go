// Command gocheck is the Go side of the GGUF oracle (see ../run.sh): it
// prints what package gguf reads from a file in the format of oracle.c's
// dump, rewrites a file with gguf.Write, and prints the type table.
//
//	gocheck dump FILE
//	gocheck rewrite IN OUT
//	gocheck types
package main

import (
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gocheck dump FILE | rewrite IN OUT | types")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "dump":
		err = dump(os.Args[2])
	case "rewrite":
		err = rewrite(os.Args[2], os.Args[3])
	case "types":
		for _, t := range ggml.KnownTypes() {
			fmt.Printf("type %d %s %d %d\n", t, t, t.BlockSize(), t.TypeSize())
		}
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gocheck:", err)
		os.Exit(1)
	}
}

func hexOr(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return hex.EncodeToString(b)
}

// ggml's accessors hand out C strings: what it prints stops at a NUL.
func cstr(s string) string {
	s, _, _ = strings.Cut(s, "\x00")
	return s
}

func dump(path string) error {
	r, err := gguf.Open(path)
	if err != nil {
		fmt.Printf("REJECT %v\n", err)
		return nil
	}
	defer r.Close()
	fmt.Printf("version %d\nalignment %d\ndata_offset %d\nkv %d\n", r.Version, r.Alignment, r.DataOffset, len(r.KV))
	for _, kv := range r.KV {
		v := kv.Value
		fmt.Printf("kv %q %s ", cstr(kv.Key), v.Type())
		switch v.Type() {
		case gguf.ValueArray:
			et, _ := v.Elem()
			fmt.Printf("%s %d ", et, v.Len())
			var parts []string
			var raw []byte
			for i := 0; i < v.Len(); i++ {
				e := v.Index(i)
				switch et {
				case gguf.ValueString:
					s, _ := e.Str()
					parts = append(parts, hexOr([]byte(cstr(s))))
				case gguf.ValueArray:
					parts = append(parts, e.String())
				default:
					raw = append(raw, fixedBytes(e)...)
				}
			}
			if et == gguf.ValueString || et == gguf.ValueArray {
				if len(parts) == 0 {
					fmt.Print("-")
				}
				fmt.Print(strings.Join(parts, ","))
			} else {
				fmt.Print(hexOr(raw))
			}
		case gguf.ValueString:
			s, _ := v.Str()
			fmt.Print(hexOr([]byte(cstr(s))))
		default:
			fmt.Print(hexOr(fixedBytes(v)))
		}
		fmt.Println()
	}
	fmt.Printf("tensors %d\n", len(r.Tensors))
	for _, t := range r.Tensors {
		ne := [4]uint64{1, 1, 1, 1}
		copy(ne[:], t.Dims)
		fmt.Printf("tensor %q %s ne %d %d %d %d offset %d size %d\n", cstr(t.Name), t.Type, ne[0], ne[1], ne[2], ne[3], t.Offset, t.Bytes())
	}
	return nil
}

// fixedBytes returns a number's or bool's bytes as the file holds them.
func fixedBytes(v gguf.Value) []byte {
	u, _ := v.Bits()
	return le(u, v.Type().Size())
}

func le(u uint64, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	return b
}

func rewrite(in, out string) error {
	r, err := gguf.Open(in)
	if err != nil {
		return err
	}
	defer r.Close()
	return gguf.WriteFile(out, r.File, func(i int) (io.Reader, error) { return r.TensorData(i), nil }, true)
}
