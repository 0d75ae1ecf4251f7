package prefetch

import "unsafe"

// Block512 asks for the eight 64-byte cache lines of the 512 bytes at p (PREFETCHT0). It never
// faults, whatever p is.
//
//go:noescape
func Block512(p unsafe.Pointer)
