//go:build !unix

package verify

import (
	"os"
	"syscall"
)

func workerSysProcAttr() *syscall.SysProcAttr { return nil }

func closeOnExec(*os.File) {}
