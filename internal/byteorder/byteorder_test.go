package byteorder

import (
	"encoding/binary"
	"testing"
	"unsafe"
)

func TestBigEndian(t *testing.T) {
	x := uint32(0x01020304)
	first := *(*byte)(unsafe.Pointer(&x))
	if BigEndian != (first == 0x01) {
		t.Fatalf("BigEndian = %v, but the first byte of 0x01020304 is %#x", BigEndian, first)
	}
}

// Every size, aligned and unaligned, in place and into another buffer, with
// a partial element at the end left alone.
func TestSwap(t *testing.T) {
	for _, size := range []int{1, 2, 4, 8} {
		for _, off := range []int{0, 1, 3} {
			for _, n := range []int{0, 1, 5, 33} {
				store := make([]uint64, (n*size+off+16)/8+1)
				b := unsafe.Slice((*byte)(unsafe.Pointer(&store[0])), len(store)*8)[off : off+n*size+1]
				for i := range b {
					b[i] = byte(i*7 + 1)
				}
				want := make([]byte, len(b))
				for e := 0; e < n; e++ {
					for j := 0; j < size; j++ {
						want[e*size+j] = b[e*size+size-1-j]
					}
				}
				want[len(b)-1] = b[len(b)-1]
				other := make([]byte, len(b))
				other[len(b)-1] = b[len(b)-1]
				SwapCopy(other, b, size)
				Swap(b, size)
				if string(b) != string(want) || string(other) != string(want) {
					t.Fatalf("size %d off %d n %d: Swap %x, SwapCopy %x, want %x", size, off, n, b, other, want)
				}
			}
		}
	}
	b := binary.LittleEndian.AppendUint32(nil, 0x11223344)
	Swap(b, 4)
	if binary.BigEndian.Uint32(b) != 0x11223344 {
		t.Fatalf("Swap(%x) is not the big-endian encoding", b)
	}
}

func TestSwapBadSize(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for size 3")
		}
	}()
	Swap(make([]byte, 6), 3)
}

// Load and Store move elements in the host's byte order: what Store writes,
// Load and a typed read give back, for every size.
func TestLoadStore(t *testing.T) {
	var buf [4]uint64
	p := unsafe.Pointer(&buf)
	for _, size := range []int{1, 2, 4, 8} {
		buf = [4]uint64{}
		v := uint64(0x8877665544332211)
		Store(p, size, 2, v)
		want := v & (1<<(8*size) - 1)
		if size == 8 {
			want = v
		}
		if got := Load(p, size, 2); got != want {
			t.Errorf("size %d: Load = %#x, want %#x", size, got, want)
		}
		if Load(p, size, 1) != 0 || Load(p, size, 3) != 0 {
			t.Errorf("size %d: Store wrote outside element 2", size)
		}
		var typed uint64
		switch size {
		case 1:
			typed = uint64((*[4]uint8)(p)[2])
		case 2:
			typed = uint64((*[4]uint16)(p)[2])
		case 4:
			typed = uint64((*[4]uint32)(p)[2])
		default:
			typed = buf[2]
		}
		if typed != want {
			t.Errorf("size %d: typed read %#x, want %#x", size, typed, want)
		}
	}
}
