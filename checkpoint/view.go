package checkpoint

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// Tensor is one tensor of an input file as the planner sees it, whatever
// the container: its name, the type of its values, its shape and where its
// bytes are. safetensors files (FromSafetensors) and GGUF files
// (ggufconv.Input) both become a list of these, so that the planner, its
// kernels and its output checks are written once and a new container is a
// new producer of Tensors, not a fork of the conversion.
//
// The view is a struct of plain fields rather than an interface: the
// planner needs nothing from a container but these four facts and a way to
// decode blocks, and a million tensors are one slice, not a million boxed
// values.
type Tensor struct {
	Name string
	// DType is the type of the values: the stored dtype of a safetensors
	// tensor or of a GGUF tensor of a plain type (F32, F64, I8 to I64),
	// and F32 for an encoded tensor (Codec set), the type its decoder
	// writes. The planner treats an encoded tensor as the float32 tensor
	// it decodes to.
	DType safetensors.DType
	// Shape is row-major, outermost first (a GGUF tensor's ne reversed).
	Shape []int64
	// Data holds the stored bytes: DType's little-endian elements, or the
	// Codec's blocks.
	Data *io.SectionReader
	// Codec, when set, says that Data holds blocks that decode to float32
	// elements (a GGUF block type, or F16/BF16 decoded as ggml does).
	Codec *Codec
}

// Codec decodes a tensor stored as blocks to float32. A block holds
// BlockElems consecutive elements of the row-major order (a row is whole
// blocks, as ggml requires) in BlockBytes bytes.
type Codec struct {
	// Name is the stored type as reports show it ("q4_K").
	Name                   string
	BlockElems, BlockBytes int
	// Decode writes the float32 values of whole blocks src into dst
	// (len(dst) = blocks * BlockElems). Nil when no decoder exists here
	// (the planner then refuses the tensor, naming the type).
	Decode func(dst []float32, src []byte) error
}

// Input is one input file seen through the view: its tensors in order,
// the __metadata__ its output takes, its path (for messages and for the
// output checks; "" when none) and its size (progress, Report.BytesIn).
type Input struct {
	Path     string
	Tensors  []Tensor
	Metadata map[string]string
	Size     int64
}

// FromSafetensors returns the view of the safetensors file f, read from
// path ("" when not known).
func FromSafetensors(f *safetensors.File, path string) *Input {
	in := &Input{Path: path, Metadata: f.Metadata, Size: f.Size, Tensors: make([]Tensor, len(f.Tensors))}
	secs := make([]io.SectionReader, len(f.Tensors)) // one allocation, not one per tensor
	for i := range f.Tensors {
		t := &f.Tensors[i]
		secs[i] = *f.Section(t)
		in.Tensors[i] = Tensor{Name: t.Name, DType: t.DType, Shape: t.Shape, Data: &secs[i]}
	}
	return in
}

// inputsOf returns the views of files, each named by paths (nil: none).
func inputsOf(files []*safetensors.File, paths []string) []*Input {
	out := make([]*Input, len(files))
	for i, f := range files {
		p := ""
		if paths != nil {
			p = paths[i]
		}
		out[i] = FromSafetensors(f, p)
	}
	return out
}

// Count is the number of elements (the product of Shape).
func (t *Tensor) Count() int64 {
	n := int64(1)
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Bytes is the size of the values as DType: the stored bytes, or for an
// encoded tensor the float32 bytes it decodes to.
func (t *Tensor) Bytes() int64 {
	if t.Codec != nil {
		return 4 * t.Count()
	}
	if t.Data == nil {
		return 0
	}
	return t.Data.Size()
}

// stored is the size of the stored bytes.
func (t *Tensor) stored() int64 {
	if t.Data == nil {
		return 0
	}
	return t.Data.Size()
}

// typeName is the stored type as reports name it.
func (t *Tensor) typeName() string {
	if t.Codec != nil {
		return t.Codec.Name
	}
	return t.DType.String()
}

// values returns the tensor's values as DType's little-endian bytes: Data,
// or a reader that decodes it.
func (t *Tensor) values() *io.SectionReader {
	if t.Codec == nil {
		return t.Data
	}
	return io.NewSectionReader(decoded{t}, 0, t.Bytes())
}

// decoded is an encoded tensor's float32 bytes, decoded on reading.
type decoded struct{ t *Tensor }

// ReadAt decodes the blocks that hold bytes [off, off+len(p)) of the
// float32 values and copies those bytes into p.
func (d decoded) ReadAt(p []byte, off int64) (int, error) {
	t, c := d.t, d.t.Codec
	size := t.Bytes()
	if off < 0 || off > size {
		return 0, io.EOF
	}
	n := len(p)
	if int64(n) > size-off {
		n = int(size - off)
	}
	if n == 0 {
		if len(p) > 0 {
			return 0, io.EOF
		}
		return 0, nil
	}
	if c.Decode == nil || c.BlockElems <= 0 || c.BlockBytes <= 0 {
		return 0, fmt.Errorf("%s has no decoder here", c.Name)
	}
	be, bb := int64(c.BlockElems), int64(c.BlockBytes)
	e0, e1 := off/4, (off+int64(n)+3)/4
	b0, b1 := e0/be, ceilDiv(e1, be)
	raw := make([]byte, (b1-b0)*bb)
	if _, err := t.Data.ReadAt(raw, b0*bb); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, err
	}
	f := make([]float32, (b1-b0)*be)
	if err := c.Decode(f, raw); err != nil {
		return 0, err
	}
	// The bytes of element e0 start at skip within the decoded blocks.
	first := e0 - b0*be
	skip := int(off - e0*4)
	var le [4]byte
	w := 0
	for e := first; w < n; e++ {
		binary.LittleEndian.PutUint32(le[:], math.Float32bits(f[e]))
		w += copy(p[w:n], le[skip:])
		skip = 0
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// ConvertInput converts in, an input file seen through the view, into the
// new file dst with ConvertFile's guarantees: dst appears only when every
// tensor is written and the file reads back as meant, an error or a
// cancellation leaves no partial file and no temporary one, and an
// existing dst is replaced only when replace is set and it is a regular
// file that is not in.Path (CheckOutput). A dst ending in ".npy" receives
// the one output tensor as a .npy file (an error when the conversion
// writes more than one). No config.json is read (the view carries what the
// planner needs); Options.MaxShardSize is for ConvertCheckpoint.
func ConvertInput(ctx context.Context, dst string, in *Input, replace bool, opt Options) (*Report, error) {
	if opt.MaxShardSize > 0 {
		return nil, fmt.Errorf("checkpoint: MaxShardSize cuts a checkpoint directory's output into shards (ConvertCheckpoint); %s is one file", in.Path)
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	var inputs []string
	if in.Path != "" {
		inputs = []string{in.Path}
	}
	if err := CheckOutput(dst, inputs, false, replace); err != nil {
		return nil, err
	}
	opt.npy = strings.HasSuffix(strings.ToLower(dst), ".npy")
	return writeAtomic(ctx, dst, in, replace, opt)
}

// verifyNPY re-reads the .npy file at path and checks that it holds the
// one output tensor of rep, its dtype, shape and size.
func verifyNPY(path string, rep *Report) error {
	var want *TensorReport
	for i := range rep.Tensors {
		if rep.Tensors[i].Action != ActDropScale.String() {
			want = &rep.Tensors[i]
		}
	}
	if want == nil {
		return fmt.Errorf("checkpoint: no tensor to check the .npy output against")
	}
	d, err := safetensors.ParseDType(want.To)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h, err := fileconv.ReadHeader(f)
	if err != nil {
		return fmt.Errorf("checkpoint: the output written fails to read back (%v): it was not kept", err)
	}
	if h.Kind != d.Kind() || fileconv.ShapeString(h.Shape) != fileconv.ShapeString(want.Shape) {
		return fmt.Errorf("checkpoint: the output reads back as %v %v, not %v %v: it was not kept", h.Kind, h.Shape, d.Kind(), want.Shape)
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() != h.DataOffset+h.DataLen() {
		return fmt.Errorf("checkpoint: the output has %d bytes, not %d: it was not kept", st.Size(), h.DataOffset+h.DataLen())
	}
	return nil
}
