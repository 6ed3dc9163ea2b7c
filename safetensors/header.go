package safetensors

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxHeaderLen is the largest header length N that Read accepts and NewWriter
// writes: safetensors' MAX_HEADER_SIZE (tensor.rs).
const MaxHeaderLen = 100_000_000

// MaxDims is the largest number of dimensions a tensor's shape may have
// (NumPy's NPY_MAXDIMS; safetensors sets no limit, and no framework makes
// tensors of more).
const MaxDims = 64

// maxDepth is the deepest nesting of JSON arrays and objects Read accepts:
// serde_json's default recursion limit, which safetensors' reader has.
const maxDepth = 128

// entry is a tensor as parsed, with the file offsets of its parts for errors.
type entry struct {
	TensorInfo
	entryAt
}

// entryAt locates the parts of a tensor's entry in the header, for errors.
type entryAt struct {
	offsOff int64 // file offset of its data_offsets value
	keyPos  int   // position of its name in the header
}

// readFull reads len(buf) bytes at off, reporting a short read as truncation.
func readFull(r io.ReaderAt, buf []byte, off int64) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		return errf(off+int64(n), ErrTruncated, "the file ends at byte %d, before the size it was opened with", off+int64(n))
	}
	return wrapErr(off+int64(n), "", false, err)
}

// parse reads and validates the header of a file of size bytes.
func parse(r io.ReaderAt, size int64) (*File, error) {
	if size < 0 {
		return nil, errf(0, nil, "invalid file size %d", size)
	}
	if size < 8 {
		return nil, errf(size, ErrTruncated, "the file has %d bytes, too few for the 8-byte header length", size)
	}
	var nb [8]byte
	if err := readFull(r, nb[:], 0); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(nb[:])
	// Both limits before the header buffer is allocated: N is at most
	// MaxHeaderLen and at most what the file holds.
	if n > MaxHeaderLen {
		return nil, errf(0, nil, "header length %d exceeds the limit of %d bytes", n, MaxHeaderLen)
	}
	if int64(n) > size-8 {
		return nil, errf(size, ErrTruncated, "header length %d runs past the end of the file (%d bytes after the length field)", n, size-8)
	}
	var buf []byte
	if b, ok := r.(byteReader); ok {
		buf = b[8 : 8+n] // a file in memory (or mapped): no copy; names are copied out
	} else {
		buf = make([]byte, n)
		if err := readFull(r, buf, 8); err != nil {
			return nil, err
		}
	}
	// As safetensors does (str::from_utf8 of the whole header, padding
	// included) before parsing anything.
	if !utf8.Valid(buf) {
		i := 0
		for i < len(buf) {
			r, w := utf8.DecodeRune(buf[i:])
			if r == utf8.RuneError && w <= 1 {
				break
			}
			i += w
		}
		return nil, errf(8+int64(i), nil, "invalid UTF-8 in the header (byte 0x%02x)", buf[i])
	}
	infos, at, meta, names, err := parseEntries(buf, 8)
	if err != nil {
		return nil, err
	}
	f := &File{Metadata: meta, HeaderLen: int64(n), Size: size, r: r}
	if err := f.layout(infos, at, names); err != nil {
		return nil, err
	}
	return f, nil
}

// layout checks every tensor against its dtype and shape and checks that the
// tensors tile the data exactly, then makes infos, in data order, f.Tensors.
// at locates each info's entry, and names maps each tensor's name to its
// index in infos; it becomes f.index.
func (f *File) layout(infos []TensorInfo, at []entryAt, names map[string]int) error {
	dataOff, dataSize := f.DataOffset(), f.dataSize()
	for i := range infos {
		e := &infos[i]
		if c := checkInfo(e, dataSize); c != nil {
			return tensorErrf(at[i].offsOff, e.Name, c.is, "%s", c.msg)
		}
	}
	// tensor.rs sorts by data_offsets; the stable sort keeps header order
	// among zero-sized tensors at the same offset. Writers list the tensors
	// in data order, which needs no sort and keeps names' indices.
	byData := func(a, b *TensorInfo) int {
		if c := cmp.Compare(a.Begin, b.Begin); c != 0 {
			return c
		}
		return cmp.Compare(a.End, b.End)
	}
	sorted := true
	for i := 1; i < len(infos) && sorted; i++ {
		sorted = byData(&infos[i-1], &infos[i]) <= 0
	}
	if !sorted {
		perm := make([]int, len(infos))
		for i := range perm {
			perm[i] = i
		}
		slices.SortStableFunc(perm, func(a, b int) int { return byData(&infos[a], &infos[b]) })
		infos2, at2 := make([]TensorInfo, len(infos)), make([]entryAt, len(at))
		for i, j := range perm {
			infos2[i], at2[i] = infos[j], at[j]
			names[infos[j].Name] = i
		}
		infos, at = infos2, at2
	}
	pos := int64(0)
	for i := range infos {
		e := &infos[i]
		switch {
		case e.Begin > pos:
			return tensorErrf(dataOff+pos, e.Name, nil, "data bytes [%d, %d) before its data_offsets [%d, %d) belong to no tensor (a hole)", pos, e.Begin, e.Begin, e.End)
		case e.Begin < pos:
			p := &infos[i-1]
			return tensorErrf(at[i].offsOff, e.Name, nil, "data_offsets [%d, %d) overlap those of tensor %q, [%d, %d)", e.Begin, e.End, p.Name, p.Begin, p.End)
		}
		pos = e.End
	}
	if pos != dataSize {
		if len(infos) == 0 {
			return errf(dataOff, nil, "the header holds no tensor but %d data bytes follow it", dataSize)
		}
		last := &infos[len(infos)-1]
		return tensorErrf(dataOff+pos, last.Name, nil, "%d data bytes after its data_offsets [%d, %d) belong to no tensor: the data must end where the last tensor ends", dataSize-pos, last.Begin, last.End)
	}
	f.Tensors, f.index = infos, names
	return nil
}

// sizeOf returns the number of elements and of bytes of a tensor of dtype d
// and the shape, computed as tensor.rs does: the product of the dimensions in
// order, checked for overflow (so [2^40, 2^40, 0] overflows before it reaches
// 0, as there), then times the bits per element, which must make whole bytes.
func sizeOf(d DType, shape []int64) (count, nbytes int64, c *cause) {
	if !d.valid() {
		return 0, 0, &cause{msg: "invalid dtype " + d.String()}
	}
	if len(shape) > MaxDims {
		return 0, 0, &cause{msg: "shape has " + strconv.Itoa(len(shape)) + " dimensions, more than " + strconv.Itoa(MaxDims)}
	}
	p := uint64(1)
	for _, dim := range shape {
		if dim < 0 {
			return 0, 0, &cause{msg: "shape " + shapeString(shape) + " has a negative dimension"}
		}
		hi, lo := bits.Mul64(p, uint64(dim))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, 0, &cause{msg: "shape " + shapeString(shape) + " has more than 2^63-1 elements"}
		}
		p = lo
	}
	hi, b := bits.Mul64(p, uint64(d.Bits()))
	if hi != 0 {
		return 0, 0, &cause{msg: "shape " + shapeString(shape) + " of " + d.String() + " has " + strconv.FormatUint(p, 10) + " elements, whose size in bits overflows 64 bits"}
	}
	if b%8 != 0 {
		return 0, 0, &cause{msg: "shape " + shapeString(shape) + " of " + d.String() + " has " + strconv.FormatUint(p, 10) + " elements of " + strconv.Itoa(d.Bits()) + " bits, not a whole number of bytes"}
	}
	return int64(p), int64(b / 8), nil
}

// checkInfo checks a tensor's dtype, shape and data_offsets against each
// other and against a data section of dataSize bytes.
func checkInfo(t *TensorInfo, dataSize int64) *cause {
	_, n, c := sizeOf(t.DType, t.Shape)
	if c != nil {
		return c
	}
	off := "data_offsets [" + strconv.FormatInt(t.Begin, 10) + ", " + strconv.FormatInt(t.End, 10) + ")"
	switch {
	case t.Begin < 0 || t.End < 0:
		return &cause{msg: off + " are negative"}
	case t.Begin > t.End:
		return &cause{msg: off + ": begin is after end"}
	case t.End-t.Begin != n:
		return &cause{msg: off + " but shape " + shapeString(t.Shape) + " of " + t.DType.String() + " needs " + strconv.FormatInt(n, 10) + " bytes"}
	case t.End > dataSize:
		return &cause{msg: off + " run past the end of the data (" + strconv.FormatInt(dataSize, 10) + " bytes)", is: ErrTruncated}
	}
	return nil
}

// parser scans the JSON header. It is strict where serde_json (safetensors'
// parser) is, and stricter where the format's README is: the header begins
// with '{', only spaces follow the object, and no object repeats a key.
type parser struct {
	s        []byte
	pos      int
	base     int64  // file offset of s[0]
	name     string // the tensor whose entry is being parsed
	inTensor bool
	ints     [MaxDims]int64 // intArray's scratch
}

func (p *parser) errAt(pos int, sentinel error, format string, args ...any) *FormatError {
	e := errf(p.base+int64(pos), sentinel, format, args...)
	if p.inTensor {
		e.Tensor, e.HasTensor = p.name, true
	}
	return e
}

func (p *parser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *parser) eat(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// ws skips JSON white space.
func (p *parser) ws() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// found describes what is at p.pos, for errors.
func (p *parser) found() string {
	if p.pos >= len(p.s) {
		return "the end of the header"
	}
	rest := p.s[p.pos:]
	switch c := rest[0]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	case hasWord(rest, "true"), hasWord(rest, "false"):
		return "a boolean"
	case hasWord(rest, "null"):
		return "null"
	}
	r, _ := utf8.DecodeRune(rest)
	return strconv.QuoteRune(r)
}

func hasWord(s []byte, w string) bool { return len(s) >= len(w) && string(s[:len(w)]) == w }

// parseHeader parses the header buf, which starts at byte base of the file,
// into its tensors (in header order) and its metadata.
func parseHeader(buf []byte, base int64) ([]entry, map[string]string, error) {
	infos, at, meta, _, err := parseEntries(buf, base)
	if err != nil {
		return nil, nil, err
	}
	entries := make([]entry, len(infos))
	for i := range infos {
		entries[i] = entry{infos[i], at[i]}
	}
	return entries, meta, nil
}

// parseEntries is parseHeader with the tensors' infos and the places of
// their entries in two slices (the infos become File.Tensors as they are),
// and a map of each tensor's name to its index in them (File.index, when
// they are in data order).
func parseEntries(buf []byte, base int64) ([]TensorInfo, []entryAt, map[string]string, map[string]int, error) {
	p := &parser{s: buf, base: base}
	if len(buf) == 0 {
		return nil, nil, nil, nil, p.errAt(0, nil, "the header is empty: it must be a JSON object")
	}
	if buf[0] != '{' {
		return nil, nil, nil, nil, p.errAt(0, nil, "the header must begin with '{', found %s", p.found())
	}
	p.pos = 1
	// Room for about as many tensors as the header names data_offsets (an
	// entry takes 50 bytes of JSON at the least, which bounds the guess),
	// so that a header of a million tensors does not grow its slices and
	// map twenty times over.
	guess := min(bytes.Count(buf, []byte(`"data_offsets"`)), len(buf)/48)
	var (
		infos    = make([]TensorInfo, 0, guess)
		at       = make([]entryAt, 0, guess)
		meta     map[string]string
		metaSeen = -1
		names    = make(map[string]int, guess)
	)
	err := p.members("the header", func(key string, keyPos int) error {
		if key == "__metadata__" {
			if metaSeen >= 0 {
				return p.errAt(keyPos, nil, "duplicate key \"__metadata__\" (first at offset %d)", p.base+int64(metaSeen))
			}
			metaSeen = keyPos
			var err error
			meta, err = p.metadata()
			return err
		}
		p.name, p.inTensor = key, true
		defer func() { p.inTensor = false }()
		// One map operation per name: the map holds one name per tensor,
		// so it did not grow when key was already in it.
		i := len(infos)
		if names[key] = i; len(names) == i {
			first := 0
			for j := range infos {
				if infos[j].Name == key {
					first = at[j].keyPos
					break
				}
			}
			return p.errAt(keyPos, nil, "duplicate tensor name (first at offset %d)", p.base+int64(first))
		}
		e, err := p.tensor(key)
		if err != nil {
			return err
		}
		e.keyPos = keyPos
		infos = append(infos, e.TensorInfo)
		at = append(at, e.entryAt)
		return nil
	})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for i := p.pos; i < len(buf); i++ {
		if buf[i] != ' ' {
			p.pos = i
			return nil, nil, nil, nil, p.errAt(i, nil, "unexpected %s after the header's closing '}': only spaces (0x20) may pad the header", p.found())
		}
	}
	return infos, at, meta, names, nil
}

// members parses the members of an object whose '{' has been consumed,
// calling fn with p at each value, which fn must consume.
func (p *parser) members(what string, fn func(key string, keyPos int) error) error {
	p.ws()
	if p.eat('}') {
		return nil
	}
	for {
		p.ws()
		keyPos := p.pos
		if p.peek() != '"' {
			return p.errAt(p.pos, nil, "expected a string key in %s, found %s", what, p.found())
		}
		key, err := p.str()
		if err != nil {
			return err
		}
		p.ws()
		if !p.eat(':') {
			return p.errAt(p.pos, nil, "expected ':' after key %s in %s, found %s", quoteShort(key), what, p.found())
		}
		p.ws()
		if err := fn(key, keyPos); err != nil {
			return err
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if p.eat('}') {
			return nil
		}
		return p.errAt(p.pos, nil, "expected ',' or '}' after the value of %s in %s, found %s", quoteShort(key), what, p.found())
	}
}

// metadata parses the value of __metadata__: an object of strings, or null,
// which serde reads as no metadata.
func (p *parser) metadata() (map[string]string, error) {
	if hasWord(p.s[p.pos:], "null") {
		p.pos += 4
		return nil, nil
	}
	if !p.eat('{') {
		return nil, p.errAt(p.pos, nil, "__metadata__ must be an object of strings, found %s", p.found())
	}
	m := map[string]string{}
	err := p.members("__metadata__", func(key string, keyPos int) error {
		if _, dup := m[key]; dup {
			return p.errAt(keyPos, nil, "duplicate key %s in __metadata__", quoteShort(key))
		}
		if p.peek() != '"' {
			return p.errAt(p.pos, nil, "__metadata__ value of %s must be a string, found %s", quoteShort(key), p.found())
		}
		v, err := p.str()
		m[key] = v
		return err
	})
	return m, err
}

// tensor parses a tensor's entry. Like safetensors (whose TensorInfo has no
// deny_unknown_fields), it ignores members other than dtype, shape and
// data_offsets, once they are checked to be valid JSON.
func (p *parser) tensor(name string) (entry, error) {
	e := entry{TensorInfo: TensorInfo{Name: name}}
	entryPos := p.pos
	if !p.eat('{') {
		return e, p.errAt(p.pos, nil, "the entry must be an object of dtype, shape and data_offsets, found %s", p.found())
	}
	var seenDType, seenShape, seenOffs bool
	var others map[string]bool
	err := p.members("the tensor's entry", func(key string, keyPos int) error {
		dup := func(seen *bool) error {
			if *seen {
				return p.errAt(keyPos, nil, "duplicate key %s in the entry", quoteShort(key))
			}
			*seen = true
			return nil
		}
		switch key {
		case "dtype":
			if err := dup(&seenDType); err != nil {
				return err
			}
			vpos := p.pos
			if p.peek() != '"' {
				return p.errAt(p.pos, nil, "dtype must be a string, found %s", p.found())
			}
			s, err := p.str()
			if err != nil {
				return err
			}
			if e.DType, err = ParseDType(s); err != nil {
				fe := p.errAt(vpos, nil, "")
				fe.Err = err
				return fe
			}
		case "shape":
			if err := dup(&seenShape); err != nil {
				return err
			}
			shape, err := p.intArray("shape", MaxDims)
			if err != nil {
				return err
			}
			e.Shape = append(make([]int64, 0, len(shape)), shape...)
		case "data_offsets":
			if err := dup(&seenOffs); err != nil {
				return err
			}
			vpos := p.pos
			e.offsOff = p.base + int64(vpos)
			offs, err := p.intArray("data_offsets", 2)
			if err != nil {
				return err
			}
			if len(offs) != 2 {
				return p.errAt(vpos, nil, "data_offsets must be [begin, end], found %d numbers", len(offs))
			}
			e.Begin, e.End = offs[0], offs[1]
		default:
			if others == nil {
				others = map[string]bool{}
			}
			if others[key] {
				return p.errAt(keyPos, nil, "duplicate key %s in the entry", quoteShort(key))
			}
			others[key] = true
			return p.skip(3)
		}
		return nil
	})
	if err != nil {
		return e, err
	}
	var missing []string
	for _, m := range []struct {
		seen bool
		name string
	}{{seenDType, `"dtype"`}, {seenShape, `"shape"`}, {seenOffs, `"data_offsets"`}} {
		if !m.seen {
			missing = append(missing, m.name)
		}
	}
	if missing != nil {
		return e, p.errAt(entryPos, nil, "the entry has no %s", strings.Join(missing, ", "))
	}
	return e, nil
}

// intArray parses an array of at most limit (at most MaxDims) non-negative
// integers, into scratch of p that the next call reuses.
func (p *parser) intArray(what string, limit int) ([]int64, error) {
	if !p.eat('[') {
		return nil, p.errAt(p.pos, nil, "%s must be an array of integers, found %s", what, p.found())
	}
	out := p.ints[:0:min(limit, MaxDims)]
	p.ws()
	if p.eat(']') {
		return out, nil
	}
	for {
		p.ws()
		if len(out) == limit {
			return nil, p.errAt(p.pos, nil, "%s has more than %d entries", what, limit)
		}
		v, err := p.int(what)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.ws()
		if p.eat(',') {
			continue
		}
		if p.eat(']') {
			return out, nil
		}
		return nil, p.errAt(p.pos, nil, "expected ',' or ']' in %s, found %s", what, p.found())
	}
}

// int parses a non-negative integer that fits in an int64. serde_json gives
// safetensors' usize fields the same grammar: no sign, fraction or exponent.
func (p *parser) int(what string) (int64, error) {
	start := p.pos
	end, isInt, err := p.number()
	if err != nil {
		return 0, err
	}
	text := func() string { return shortText(string(p.s[start:end])) }
	switch {
	case p.s[start] == '-':
		return 0, p.errAt(start, nil, "%s: %s is negative", what, text())
	case !isInt:
		return 0, p.errAt(start, nil, "%s: %s is not an integer", what, text())
	}
	// Digits only (number checked the grammar), accumulated without a
	// string per number: headers hold millions of them.
	var v int64
	for _, c := range p.s[start:end] {
		d := int64(c - '0')
		if v > (math.MaxInt64-d)/10 {
			return 0, p.errAt(start, nil, "%s: %s is too large (the limit is 2^63-1)", what, text())
		}
		v = v*10 + d
	}
	p.pos = end
	return v, nil
}

// number scans a JSON number at p.pos without consuming it and returns its
// end and whether it is an integer (no fraction or exponent).
func (p *parser) number() (end int, isInt bool, err error) {
	s, i := p.s, p.pos
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	first := i
	if digits() == 0 {
		return 0, false, p.errAt(p.pos, nil, "expected a number, found %s", p.found())
	}
	if s[first] == '0' && i-first > 1 {
		return 0, false, p.errAt(first, nil, "invalid number: leading zero in %s", shortText(string(s[p.pos:i])))
	}
	isInt = true
	if i < len(s) && s[i] == '.' {
		i++
		isInt = false
		if digits() == 0 {
			return 0, false, p.errAt(i, nil, "invalid number: no digit after '.'")
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		isInt = false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false, p.errAt(i, nil, "invalid number: no digit in the exponent")
		}
	}
	return i, isInt, nil
}

// skip checks and skips any JSON value, nested at most maxDepth deep in
// all; depth is the nesting of the value itself.
func (p *parser) skip(depth int) error {
	if depth > maxDepth {
		return p.errAt(p.pos, nil, "JSON nested more than %d levels deep", maxDepth)
	}
	switch c := p.peek(); {
	case c == '{':
		p.pos++
		var keys map[string]bool
		return p.members("an object", func(key string, keyPos int) error {
			if keys == nil {
				keys = map[string]bool{}
			}
			if keys[key] {
				return p.errAt(keyPos, nil, "duplicate key %s in an object", quoteShort(key))
			}
			keys[key] = true
			return p.skip(depth + 1)
		})
	case c == '[':
		p.pos++
		p.ws()
		if p.eat(']') {
			return nil
		}
		for {
			p.ws()
			if err := p.skip(depth + 1); err != nil {
				return err
			}
			p.ws()
			if p.eat(',') {
				continue
			}
			if p.eat(']') {
				return nil
			}
			return p.errAt(p.pos, nil, "expected ',' or ']' in an array, found %s", p.found())
		}
	case c == '"':
		_, err := p.str()
		return err
	case c == '-' || c >= '0' && c <= '9':
		end, _, err := p.number()
		p.pos = end
		return err
	}
	for _, w := range []string{"true", "false", "null"} {
		if hasWord(p.s[p.pos:], w) {
			p.pos += len(w)
			return nil
		}
	}
	return p.errAt(p.pos, nil, "expected a JSON value, found %s", p.found())
}

// str parses a JSON string at p.pos. The header is valid UTF-8 already;
// escapes must be JSON's, and a \u escape of half a surrogate pair is an
// error, as in serde_json.
func (p *parser) str() (string, error) {
	start := p.pos
	s := p.s
	i := start + 1
	for i < len(s) && s[i] != '"' && s[i] != '\\' && s[i] >= 0x20 {
		i++
	}
	if i < len(s) && s[i] == '"' {
		p.pos = i + 1
		return string(s[start+1 : i]), nil
	}
	buf := append([]byte(nil), s[start+1:i]...)
	for {
		if i >= len(s) {
			return "", p.errAt(start, nil, "unterminated string")
		}
		c := s[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return string(buf), nil
		case c < 0x20:
			return "", p.errAt(i, nil, "control character 0x%02x in a string (JSON needs it escaped)", c)
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", p.errAt(start, nil, "unterminated string")
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := hex4(s[i+2:])
			if !ok {
				return "", p.errAt(i, nil, "invalid \\u escape in a string")
			}
			switch {
			case r >= 0xdc00 && r < 0xe000:
				return "", p.errAt(i, nil, "lone surrogate \\u%04x in a string", r)
			case r >= 0xd800 && r < 0xdc00:
				lo, ok := rune(0), false
				if len(s) >= i+12 && s[i+6] == '\\' && s[i+7] == 'u' {
					lo, ok = hex4(s[i+8:])
				}
				if !ok || lo < 0xdc00 || lo >= 0xe000 {
					return "", p.errAt(i, nil, "lone surrogate \\u%04x in a string", r)
				}
				r = utf16.DecodeRune(r, lo)
				i += 6
			}
			buf = utf8.AppendRune(buf, r)
			i += 6
			continue
		default:
			r, _ := utf8.DecodeRune(s[i+1:])
			return "", p.errAt(i, nil, "invalid escape \\%s in a string", strings.Trim(strconv.QuoteRune(r), "'"))
		}
		i += 2
	}
}

// hex4 decodes the four hex digits of a \u escape.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// shortText shortens s for an error message.
func shortText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// quoteShort quotes a key for an error message, shortened.
func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:60]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		return strconv.Quote(s) + "..."
	}
	return strconv.Quote(s)
}
