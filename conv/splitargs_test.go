package conv

import (
	"reflect"
	"strings"
	"testing"
)

// The expectations are Redis's sdssplitargs (sds.c).
func TestSplitArgs(t *testing.T) {
	cases := []struct {
		line string
		want []string
		ok   bool
	}{
		{`a b   c`, []string{"a", "b", "c"}, true},
		{"  a\v\fb\t c ", []string{"a\v\fb", "c"}, true}, // \v and \f separate only before an argument
		{"\v\fa", []string{"a"}, true},
		{`set "b c" 'd e'`, []string{"set", "b c", "d e"}, true},
		{`"\x41\x4a\n\t\\\"" x`, []string{"AJ\n\t\\\"", "x"}, true},
		{`"\x4g"`, []string{"x4g"}, true},
		{`"\xFf\r\b\a\q"`, []string{"\xff\r\b\aq"}, true},
		{`'it\'s' '\n'`, []string{"it's", `\n`}, true},
		{`ab"cd"`, []string{"abcd"}, true},
		{`a"b c"d'e f'`, nil, false},
		{`a"b c" d'e f'`, []string{"ab c", "de f"}, true},
		{`""`, []string{""}, true},
		{`'' ""`, []string{"", ""}, true},
		{`"abc"d`, nil, false},
		{`'abc'd`, nil, false},
		{`"abc"` + "\v", []string{"abc"}, true},
		{`"unterminated`, nil, false},
		{`'unterminated`, nil, false},
		{`"trailing\`, nil, false},
		{``, nil, true},
		{`   `, nil, true},
		{"a\x00b", []string{"a\x00b"}, true}, // a NUL is a byte
	}
	for _, tc := range cases {
		got, ok := SplitArgs(tc.line)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitArgs(%q) = %q, %v; want %q, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// NextArg appends into the caller's buffer and says where the next argument starts.
func TestNextArg(t *testing.T) {
	line := []byte(` one "t w o" `)
	dst, p, found, ok := NextArg([]byte("x"), line, 0)
	if string(dst) != "xone" || p != 5 || !found || !ok {
		t.Fatalf("first: %q %d %v %v", dst, p, found, ok)
	}
	dst, p, found, ok = NextArg(dst, line, p)
	if string(dst) != "xonet w o" || p != 12 || !found || !ok {
		t.Fatalf("second: %q %d %v %v", dst, p, found, ok)
	}
	if _, _, found, ok = NextArg(dst, line, p); found || !ok {
		t.Fatalf("third: %v %v", found, ok)
	}
	buf := make([]byte, 0, len(line))
	if n := testing.AllocsPerRun(100, func() {
		b := buf[:0]
		for p, found := 0, true; found; {
			b, p, found, _ = NextArg(b, line, p)
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// The expectations are Redis's sdscatrepr (sds.c).
func TestRepr(t *testing.T) {
	for in, want := range map[string]string{
		"":                     `""`,
		"abc":                  `"abc"`,
		"a b":                  `"a b"`,
		"\\\"":                 `"\\\""`,
		"\n\r\t\a\b":           `"\n\r\t\a\b"`,
		"\x00\x01\x1f\x7f\xff": `"\x00\x01\x1f\x7f\xff"`,
		"'~":                   `"'~"`,
	} {
		if got := Repr(in); got != want {
			t.Errorf("Repr(%q) = %s; want %s", in, got, want)
		}
		if got := string(AppendRepr([]byte("p"), []byte(in))); got != "p"+want {
			t.Errorf("AppendRepr(%q) = %s", in, got)
		}
	}
}

// FuzzSplitArgsRepr: any two texts, quoted by Repr and joined by blanks, split back into
// themselves; and whatever a line splits into, quoted and split again, is the same arguments.
func FuzzSplitArgsRepr(f *testing.F) {
	f.Add("", "", `a "b c" 'd'`)
	f.Add("hello", "wor\x00ld", `"\x41" '\''`)
	f.Add("\"'\\", "\r\n\t\v\f", `"abc"d`)
	f.Add("\xff\x80", " ", "x\v\fy")
	f.Fuzz(func(t *testing.T, a, b, line string) {
		got, ok := SplitArgs(Repr(a) + " \t" + Repr(b) + "\n")
		if !ok || len(got) != 2 || got[0] != a || got[1] != b {
			t.Fatalf("SplitArgs(Repr(%q) Repr(%q)) = %q, %v", a, b, got, ok)
		}
		args, ok := SplitArgs(line)
		if !ok {
			return
		}
		var quoted []string
		for _, arg := range args {
			quoted = append(quoted, Repr(arg))
		}
		again, ok := SplitArgs(strings.Join(quoted, " "))
		if !ok || !reflect.DeepEqual(again, args) {
			t.Fatalf("line %q: %q, quoted and split again: %q, %v", line, args, again, ok)
		}
	})
}
