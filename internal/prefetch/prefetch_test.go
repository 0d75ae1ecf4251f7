//go:build unix

package prefetch

import (
	"syscall"
	"testing"
	"unsafe"
)

// A prefetch is a hint: it must never fault, whatever the address names, because zindex asks
// for the whole 512 bytes of a node that may sit at the end of a mapping.
func TestBlock512NeverFaults(t *testing.T) {
	Block512(nil)
	buf := make([]byte, 512)
	Block512(unsafe.Pointer(&buf[0]))

	// A page with no access at all, as the invariants build leaves a freed span.
	page, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(page)
	Block512(unsafe.Pointer(unsafe.SliceData(page)))
}
