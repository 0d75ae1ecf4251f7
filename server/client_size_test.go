package server

import (
	"testing"
	"unsafe"

	"github.com/kvserver/kvserver/querybuf"
)

// TestIdleClientSize: a parked client with nothing half-parsed is its struct alone (issue 7
// wants it under 256 bytes, one Go size class); this catches a field that would push it over.
func TestIdleClientSize(t *testing.T) {
	if size := unsafe.Sizeof(client{}); size > 256 {
		t.Fatalf("client struct is %d bytes, over 256", size)
	}
	// Every client carries its private query buffer, held or not: a handle and the peak.
	if size := unsafe.Sizeof(querybuf.Private{}); size > 8 {
		t.Fatalf("querybuf.Private is %d bytes, over 8", size)
	}
}
