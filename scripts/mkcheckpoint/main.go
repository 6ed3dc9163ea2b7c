// Command mkcheckpoint writes a synthetic safetensors checkpoint of
// realistic shapes (a Llama-style decoder: embeddings, attention and MLP
// weights, norms) for measuring conversion speed: scripts/safetensors-speed.sh.
//
//	go run ./scripts/mkcheckpoint -gib 4 -dtype F32 out.safetensors
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"math"
	"os"

	"github.com/clconv/clconv/safetensors"
)

func main() {
	gib := flag.Float64("gib", 4, "approximate size in GiB")
	dtype := flag.String("dtype", "F32", "F32 or BF16")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: mkcheckpoint [-gib N] [-dtype F32|BF16] OUT")
	}
	d, err := safetensors.ParseDType(*dtype)
	if err != nil || (d != safetensors.F32 && d != safetensors.BF16) {
		log.Fatalf("-dtype %s: want F32 or BF16", *dtype)
	}
	const hidden, inter, vocab = 4096, 11008, 32000
	es := int64(d.Bits() / 8)
	var ts []safetensors.TensorInfo
	add := func(name string, shape ...int64) {
		ts = append(ts, safetensors.TensorInfo{Name: name, DType: d, Shape: shape})
	}
	add("model.embed_tokens.weight", vocab, hidden)
	total := int64(vocab * hidden * es * 2)
	for l := 0; total < int64(*gib*(1<<30)); l++ {
		p := fmt.Sprintf("model.layers.%d.", l)
		for _, n := range []string{"q_proj", "k_proj", "v_proj", "o_proj"} {
			add(p+"self_attn."+n+".weight", hidden, hidden)
		}
		add(p+"mlp.gate_proj.weight", inter, hidden)
		add(p+"mlp.up_proj.weight", inter, hidden)
		add(p+"mlp.down_proj.weight", hidden, inter)
		add(p+"input_layernorm.weight", hidden)
		add(p+"post_attention_layernorm.weight", hidden)
		total += (4*hidden*hidden + 3*inter*hidden + 2*hidden) * es
	}
	add("model.norm.weight", hidden)
	add("lm_head.weight", vocab, hidden)
	f, err := os.Create(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w, err := safetensors.NewWriter(bw, ts, map[string]string{"format": "pt"})
	if err != nil {
		log.Fatal(err)
	}
	// Roughly normal values of varying scale from a xorshift generator: the
	// bits a real checkpoint has, not a pattern a predictor learns.
	x := uint64(0x9e3779b97f4a7c15)
	buf := make([]byte, 1<<20)
	for _, t := range w.Tensors() {
		for left := t.Bytes(); left > 0; {
			n := min(left, int64(len(buf)))
			for i := int64(0); i < n; i += es {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				v := (float32(int32(x)) + float32(int32(x>>32))) * 0x1p-37 * float32(1+x>>60)
				b := math.Float32bits(v)
				if es == 2 {
					binary.LittleEndian.PutUint16(buf[i:], uint16(b>>16))
				} else {
					binary.LittleEndian.PutUint32(buf[i:], b)
				}
			}
			if _, err := w.Write(buf[:n]); err != nil {
				log.Fatal(err)
			}
			left -= n
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
