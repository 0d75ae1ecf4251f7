package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestCommands(t *testing.T) {
	for _, c := range []struct {
		cmd   string
		start int
		n     int
		want  string
	}{
		{"zadd", 7, 2, "*4\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n7\r\n$6\r\nm:0007\r\n" +
			"*4\r\n$4\r\nZADD\r\n$1\r\nz\r\n$1\r\n8\r\n$6\r\nm:0008\r\n"},
		{"zaddn", 3, 1, "*8\r\n$4\r\nZADD\r\n$6\r\nm:0003\r\n$1\r\n0\r\n$2\r\nm0\r\n$1\r\n1\r\n$2\r\nm1\r\n$1\r\n2\r\n$2\r\nm2\r\n"},
	} {
		gen, err := generator(c.cmd, "z", "m:", 4, 3)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := write(&buf, gen, numbers(c.start, c.n, false)); err != nil || buf.String() != c.want {
			t.Errorf("%s: %q, want %q (%v)", c.cmd, buf.String(), c.want, err)
		}
	}
	if _, err := generator("zadd", "", "m:", 4, 3); err == nil {
		t.Error("zadd without a key")
	}
	if _, err := generator("nope", "z", "m:", 4, 3); err == nil {
		t.Error("unknown command")
	}
}

// The geoadd places are fixed by their number, inside the square, and spread: 10,000 places
// fill most of the 100 cells of 1° × 1°.
func TestGeoadd(t *testing.T) {
	gen, err := generator("geoadd", "g", "p:", 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if write(&a, gen, numbers(0, 2, false)) != nil || write(&b, gen, numbers(0, 2, false)) != nil || a.String() != b.String() {
		t.Fatalf("two runs differ: %q, %q", a.String(), b.String())
	}
	if !strings.HasPrefix(a.String(), "*5\r\n$6\r\nGEOADD\r\n$1\r\ng\r\n$9\r\n") || !strings.Contains(a.String(), "$6\r\np:0001\r\n") {
		t.Errorf("commands: %q", a.String())
	}
	cells := map[[2]int]bool{}
	for i := range 10000 {
		lon, lat := place(i)
		if lon < 10 || lon >= 20 || lat < 35 || lat >= 45 {
			t.Fatalf("place %d at %v, %v: outside the square", i, lon, lat)
		}
		cells[[2]int{int(lon), int(lat)}] = true
	}
	if len(cells) < 95 {
		t.Errorf("10,000 places fill %d of the 100 cells", len(cells))
	}
	if _, err := generator("geoadd", "", "p:", 4, 0); err == nil {
		t.Error("geoadd without a key")
	}
}

// -shuffle writes every number once, not in order, and the same order on every run.
func TestShuffle(t *testing.T) {
	a, b := numbers(5, 1000, true), numbers(5, 1000, true)
	seen := map[int]bool{}
	ascending := 0
	for k, i := range a {
		if i < 5 || i >= 1005 || seen[i] || b[k] != i {
			t.Fatalf("position %d: %d (run 2: %d), seen before: %v", k, i, b[k], seen[i])
		}
		seen[i] = true
		if k > 0 && i > a[k-1] {
			ascending++
		}
	}
	if ascending < 400 || ascending > 600 {
		t.Errorf("%d of 999 neighbours ascending: not shuffled", ascending)
	}
}
