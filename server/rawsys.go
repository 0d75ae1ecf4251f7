package server

import (
	"syscall"
	"unsafe"
)

// rawRead and rawWrite are read(2) and write(2) without the scheduler's entersyscall and
// exitsyscall, for the client sockets, accepted non-blocking: they return at once
// (EAGAIN rather than wait), so the P need not be handed off. The larger saving at P=1 is that
// entersyscall wakes a parked sysmon, which then polls every 20 µs until the process is idle
// again: with 50 request/response clients the server goes idle and busy thousands of times a
// second, and sysmon's wake-ups and sleeps cost about a tenth of its CPU (perf; issue 10).
// The fd stays open for the call because only whoever serves the client closes it (others shut
// it down; see shutdownSocket). Sysmon then sleeps until the next timer (the cron's, at hz) or
// the next blocking syscall, which bounds how long a long-running command can go unpreempted
// while every other P is idle.
func rawRead(fd int, p []byte) (int, error) {
	r, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}

func rawWrite(fd int, p []byte) (int, error) {
	r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}
