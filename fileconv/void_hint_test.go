package fileconv

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
)

// npyVoid returns a .npy file of raw records with type string descr and
// one element of size bytes.
func npyVoid(descr string, size int) []byte {
	hdr := "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1,), }"
	for (10+len(hdr)+1)%64 != 0 {
		hdr += " "
	}
	hdr += "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(hdr)))
	b.WriteString(hdr)
	b.Write(make([]byte, size))
	return b.Bytes()
}

// The error for raw records without --from names only types of the
// record's size.
func TestVoidHintSizes(t *testing.T) {
	for _, tc := range []struct {
		descr     string
		size      int
		want, not []string
	}{
		{"<V2", 2, []string{"bfloat16", "half"}, []string{"e4m3", "e5m2", "e2m1", "e8m0", "uchar"}},
		{"|V1", 1, []string{"e4m3", "e5m2", "e2m1", "e2m3", "e3m2", "e8m0", "uchar"}, []string{"bfloat16", "half"}},
	} {
		data := npyVoid(tc.descr, tc.size)
		_, err := openInput(bytes.NewReader(data), FormatNPY, cltype.Invalid, int64(len(data)))
		if err == nil {
			t.Fatalf("%s: no error", tc.descr)
		}
		_, hint, _ := strings.Cut(err.Error(), "--from")
		for _, w := range tc.want {
			if !strings.Contains(hint, w) {
				t.Errorf("%s: %q does not name %s", tc.descr, err, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(hint, w) {
				t.Errorf("%s: %q names %s, which is not %d bytes", tc.descr, err, w, tc.size)
			}
		}
	}
}
