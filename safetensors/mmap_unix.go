//go:build unix

package safetensors

import (
	"os"
	"syscall"
)

// mmapFile maps the size bytes of fh read-only and returns the mapping and
// the function that unmaps it.
func mmapFile(fh *os.File, size int64) ([]byte, func() error, error) {
	data, err := syscall.Mmap(int(fh.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
