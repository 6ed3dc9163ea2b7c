//go:build unix && !linux

package verify

import (
	"os"
	"syscall"
)

// workerSysProcAttr puts a build process in a process group of its own (a
// terminal's Ctrl-C reaches the run, which stops its build processes
// itself).
func workerSysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// closeOnExec keeps f from processes a driver may start.
func closeOnExec(f *os.File) { syscall.CloseOnExec(int(f.Fd())) }
