package listpack

import (
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

func newArena(t testing.TB) *alloc.Arena {
	t.Helper()
	a := alloc.MustNewArena(1 << 30)
	t.Cleanup(a.Close)
	return a
}
