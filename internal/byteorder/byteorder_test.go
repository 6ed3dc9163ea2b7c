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
