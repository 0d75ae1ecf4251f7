package luastruct_test

import (
	"testing"

	"github.com/kvserver/kvserver/scripting/lualib/internal/libtest"
	"github.com/kvserver/kvserver/scripting/lualib/luastruct"
)

// TestCases runs testdata/cases.txt against this package.
func TestCases(t *testing.T) {
	libtest.Run(t, "testdata/cases.txt", luastruct.Open)
}

// TestRefCases checks the expectations against redis-server (-rewrite regenerates them).
func TestRefCases(t *testing.T) {
	libtest.RunRef(t, "testdata/cases.txt")
}
