//go:build opencl

package difftest

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestTmpBuild(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("SRC"))
	if err != nil {
		t.Skip()
	}
	c, err := startChild(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	hdr, resp, err := c.do(context.Background(), &request{Source: string(src), Kernels: []kernelRun{{Name: "k", OutSize: 64, In: []byte{0x85, 1, 2, 3, 4, 5, 6, 7}}}}, time.Minute, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("log: %s\nsetup: %s\nout: %x", hdr.BuildLog, hdr.Setup, resp)
}
