package mx

// PackFP4 packs the 4-bit codes of src (each in the low bits of a byte) two
// per byte into dst in the given order and returns the number of bytes
// written, len(src)/2. len(src) must be even (a sub-byte tensor ends on a
// byte boundary) and dst must hold len(src)/2 bytes; a code above 0xF is an
// error naming its index.
func PackFP4(dst, src []byte, order NibbleOrder) (int, error) {
	n := len(src) / 2
	switch {
	case len(src)%2 != 0:
		return 0, errorf("pack", nil, "FP4: %d codes do not fill whole bytes (want an even count)", len(src))
	case len(dst) < n:
		return 0, errorf("pack", nil, "FP4: destination has %d bytes, want %d", len(dst), n)
	case order > HighFirst:
		return 0, errorf("pack", nil, "FP4: unknown nibble order %d", order)
	}
	for i, c := range src {
		if c > 0xF {
			return 0, errorf("pack", nil, "FP4: code %#x at index %d does not fit 4 bits", c, i)
		}
	}
	packFP4(dst[:n], src, order)
	return n, nil
}

// UnpackFP4 unpacks the FP4 codes of src, two per byte in the given order,
// into dst, one per byte in the low bits, and returns their number,
// 2*len(src); dst must hold that many.
func UnpackFP4(dst, src []byte, order NibbleOrder) (int, error) {
	n := 2 * len(src)
	switch {
	case len(dst) < n:
		return 0, errorf("unpack", nil, "FP4: destination has %d bytes, want %d", len(dst), n)
	case order > HighFirst:
		return 0, errorf("unpack", nil, "FP4: unknown nibble order %d", order)
	}
	unpackFP4(dst[:n], src, order)
	return n, nil
}

// PackFP6 packs the 6-bit codes of src (each in the low bits of a byte)
// four per three bytes into dst in the given layout and returns the number
// of bytes written, 3*len(src)/4. len(src) must be a multiple of 4 (every
// MX block is) and dst must hold the packed bytes; a code above 0x3F is an
// error naming its index.
func PackFP6(dst, src []byte, order FP6Order) (int, error) {
	n := len(src) / 4 * 3
	switch {
	case len(src)%4 != 0:
		return 0, errorf("pack", nil, "FP6: %d codes are not a whole number of groups of 4", len(src))
	case len(dst) < n:
		return 0, errorf("pack", nil, "FP6: destination has %d bytes, want %d", len(dst), n)
	case order >= numFP6Orders:
		return 0, errorf("pack", nil, "FP6: unknown order %d", order)
	}
	for i, c := range src {
		if c > 0x3F {
			return 0, errorf("pack", nil, "FP6: code %#x at index %d does not fit 6 bits", c, i)
		}
	}
	packFP6(dst[:n], src, order)
	return n, nil
}

// UnpackFP6 unpacks the FP6 codes of src, four per three bytes in the given
// layout, into dst, one per byte in the low bits, and returns their number,
// 4*len(src)/3. len(src) must be a multiple of 3 and dst must hold the
// codes.
func UnpackFP6(dst, src []byte, order FP6Order) (int, error) {
	n := len(src) / 3 * 4
	switch {
	case len(src)%3 != 0:
		return 0, errorf("unpack", nil, "FP6: %d bytes are not a whole number of 3-byte groups", len(src))
	case len(dst) < n:
		return 0, errorf("unpack", nil, "FP6: destination has %d bytes, want %d", len(dst), n)
	case order >= numFP6Orders:
		return 0, errorf("unpack", nil, "FP6: unknown order %d", order)
	}
	unpackFP6(dst[:n], src, order)
	return n, nil
}

// packFP4 packs len(src) (even) codes into len(src)/2 bytes; bits above 4
// are dropped.
func packFP4(dst, src []byte, order NibbleOrder) {
	if order == HighFirst {
		for i := range len(src) / 2 {
			dst[i] = src[2*i]<<4 | src[2*i+1]&0xF
		}
		return
	}
	for i := range len(src) / 2 {
		dst[i] = src[2*i]&0xF | src[2*i+1]<<4
	}
}

func unpackFP4(dst, src []byte, order NibbleOrder) {
	if order == HighFirst {
		for i, b := range src[:len(dst)/2] {
			dst[2*i], dst[2*i+1] = b>>4, b&0xF
		}
		return
	}
	for i, b := range src[:len(dst)/2] {
		dst[2*i], dst[2*i+1] = b&0xF, b>>4
	}
}

// packFP6 packs len(src) (a multiple of 4) codes into 3*len(src)/4 bytes;
// bits above 6 are dropped.
func packFP6(dst, src []byte, order FP6Order) {
	for g := range len(src) / 4 {
		a, b, c, d := src[4*g]&0x3F, src[4*g+1]&0x3F, src[4*g+2]&0x3F, src[4*g+3]&0x3F
		o := dst[3*g : 3*g+3]
		switch order {
		case FP6BigEndian:
			o[0] = a<<2 | b>>4
			o[1] = b<<4 | c>>2
			o[2] = c<<6 | d
		case FP6TorchAOSplit:
			o[0] = a>>2<<4 | b>>2
			o[1] = d>>2<<4 | c>>2
			o[2] = a<<6 | b&3<<4 | d&3<<2 | c&3
		default:
			o[0] = a | b<<6
			o[1] = b>>2 | c<<4
			o[2] = c>>4 | d<<2
		}
	}
}

func unpackFP6(dst, src []byte, order FP6Order) {
	for g := range len(dst) / 4 {
		p0, p1, p2 := src[3*g], src[3*g+1], src[3*g+2]
		o := dst[4*g : 4*g+4]
		switch order {
		case FP6BigEndian:
			o[0] = p0 >> 2
			o[1] = p0&3<<4 | p1>>4
			o[2] = p1&0xF<<2 | p2>>6
			o[3] = p2 & 0x3F
		case FP6TorchAOSplit:
			o[0] = p0>>4<<2 | p2>>6
			o[1] = p0&0xF<<2 | p2>>4&3
			o[2] = p1&0xF<<2 | p2&3
			o[3] = p1>>4<<2 | p2>>2&3
		default:
			o[0] = p0 & 0x3F
			o[1] = p0>>6 | p1&0xF<<2
			o[2] = p1>>4 | p2&3<<4
			o[3] = p2 >> 2
		}
	}
}
