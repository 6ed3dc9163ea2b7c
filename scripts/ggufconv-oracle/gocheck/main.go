// Command gocheck helps scripts/ggufconv-oracle/run.sh: it lists the file
// types (name=llama_ftype), summarizes a file's tensor types, and compares
// two GGUF files tensor by tensor.
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clconv/clconv/gguf"
	"github.com/clconv/clconv/ggufconv"
)

func main() {
	switch os.Args[1] {
	case "convert": // convert IN OUT FTYPE WORKERS: ConvertGGUF with LlamaLayout, seconds on stderr
		ft, err := ggufconv.ParseFileType(os.Args[4])
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		workers, _ := strconv.Atoi(os.Args[5])
		start := time.Now()
		_, err = ggufconv.ConvertGGUF(context.Background(), os.Args[3], os.Args[2], ggufconv.Options{FileType: ft, LlamaLayout: true, Workers: workers, Replace: true})
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "seconds %.3f\n", time.Since(start).Seconds())
	case "filetypes":
		for _, ft := range ggufconv.FileTypes() {
			fmt.Printf("%s=%d\n", ft, ft.ID())
		}
	case "types":
		r := open(os.Args[2])
		count := map[string]int{}
		for _, t := range r.Tensors {
			count[t.Type.String()]++
		}
		var parts []string
		for k, v := range count {
			parts = append(parts, fmt.Sprintf("%s:%d", k, v))
		}
		sort.Strings(parts)
		fmt.Println(strings.Join(parts, " "))
	case "diff":
		a, b := open(os.Args[2]), open(os.Args[3])
		if len(a.KV) != len(b.KV) {
			fmt.Printf("keys: go %d, llama %d\n", len(a.KV), len(b.KV))
		}
		for i := 0; i < len(a.KV) && i < len(b.KV); i++ {
			if a.KV[i].Key != b.KV[i].Key || !a.KV[i].Value.Equal(b.KV[i].Value) {
				fmt.Printf("key %d: go %s=%v, llama %s=%v\n", i, a.KV[i].Key, a.KV[i].Value, b.KV[i].Key, b.KV[i].Value)
			}
		}
		if len(a.Tensors) != len(b.Tensors) {
			fmt.Printf("tensors: go %d, llama %d\n", len(a.Tensors), len(b.Tensors))
		}
		for i := 0; i < len(a.Tensors) && i < len(b.Tensors); i++ {
			ta, tb := a.Tensors[i], b.Tensors[i]
			if ta.Name != tb.Name || ta.Type != tb.Type || fmt.Sprint(ta.Dims) != fmt.Sprint(tb.Dims) {
				fmt.Printf("tensor %d: go %s %v %v, llama %s %v %v\n", i, ta.Name, ta.Type, ta.Dims, tb.Name, tb.Type, tb.Dims)
				continue
			}
			da, _ := a.ReadTensor(ta.Name)
			db, _ := b.ReadTensor(tb.Name)
			if !bytes.Equal(da, db) {
				fmt.Printf("tensor %s (%v): data differs\n", ta.Name, ta.Type)
			}
		}
	}
}

func open(p string) *gguf.Reader {
	r, err := gguf.Open(p)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	return r
}
