package convert_test

import (
	"syscall"
	"time"
	"unsafe"
)

// threadTime returns the CPU time the calling thread has used, so that
// BenchmarkPureGoAll's figures leave out the time the thread spent waiting
// for a CPU on a busy machine (the goroutine is locked to its thread).
func threadTime() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
