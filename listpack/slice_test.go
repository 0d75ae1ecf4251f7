package listpack

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// AppendSlice builds the same bytes as Append in an arena, past the header's count limit too.
func TestAppendSliceMatchesArena(t *testing.T) {
	a := newArena(t)
	l := New(a)
	lp := NewSlice(0)
	vals := []string{"", "0", "-1", "127", "128", "-4096", "40000", "9223372036854775807", "007",
		strings.Repeat("x", 63), strings.Repeat("y", 64), strings.Repeat("z", 5000)}
	for i := 0; i < 70000; i++ {
		v := vals[i%len(vals)]
		if i >= len(vals) {
			v = fmt.Sprint(i)
		}
		l = mustAppend(t, a, l, v)
		var err error
		if lp, err = AppendSlice(lp, []byte(v)); err != nil {
			t.Fatal(err)
		}
		if i < 20 || i%9999 == 0 || i == 65534 || i == 65535 {
			if !bytes.Equal(lp, l.Bytes(a)) {
				t.Fatalf("after %d appends: slice and arena listpacks differ", i+1)
			}
		}
	}
	if !bytes.Equal(lp, l.Bytes(a)) || Validate(lp, true, nil) != nil || Len(lp) != 70000 {
		t.Fatalf("final listpack differs or is invalid (len %d)", Len(lp))
	}
}
