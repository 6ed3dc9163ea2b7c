//go:build !unix

package safetensors

import (
	"errors"
	"os"
)

// mmapFile reports that this system has no mmap: Open reads through the
// os.File instead.
func mmapFile(*os.File, int64) ([]byte, func() error, error) {
	return nil, nil, errors.ErrUnsupported
}
