package chunker_test

import (
	"syscall"
	"time"
	"unsafe"
)

// cpuTime returns the CPU time the process has used, which a loaded
// machine's other work does not inflate as it does wall time.
func cpuTime() time.Duration {
	const clockProcessCPUTimeID = 2
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ts.Nano())
}
