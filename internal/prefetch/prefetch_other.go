//go:build !amd64

package prefetch

import "unsafe"

// Block512 does nothing here: this processor has no prefetch instruction in this package.
func Block512(p unsafe.Pointer) {}
