package server

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// unsafePointerToFd points at the 8 bytes of user data of an epoll event (its Fd and Pad
// fields), where the loop keeps a client id.
func unsafePointerToFd(ev *unix.EpollEvent) unsafe.Pointer { return unsafe.Pointer(&ev.Fd) }
