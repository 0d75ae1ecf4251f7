package glob

import (
	"strings"
	"testing"
	"time"
)

// matchCases are derived from stringmatchlen_impl in Redis 7.2's src/util.c by hand; each
// row is also run through redisMatch, the line-by-line port, so a wrong expectation and
// a wrong port cannot agree by accident. The first rows are tests/unit/keyspace.tcl's KEYS
// patterns.
var matchCases = []struct {
	pattern, s string
	nocase     bool
	want       bool
}{
	// tests/unit/keyspace.tcl: KEYS with pattern, hashtags, the long-nested-loops regression.
	{"foo*", "foo_a", false, true},
	{"foo*", "foo_c", false, true},
	{"foo*", "key_x", false, false},
	{"*", "dlskeriewrioeuwqoirueioqwrueoqwrueqw", false, true},
	{"{a}*", "{a}x", false, true},
	{"{a}*", "{b}a", false, false},
	{"*{b}*", "{b}c", false, true},
	{"*{b}*", "{a}z", false, false},
	{"a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", strings.Repeat("a", 40), false, false},

	// The empty string: only the empty pattern matches it (the loop never starts).
	{"", "", false, true},
	{"*", "", false, false},
	{"?", "", false, false},
	{"[^", "", false, false},
	{"", "a", false, false},

	// Stars and question marks.
	{"*", "a", false, true},
	{"a*", "a", false, true},
	{"a**", "a", false, true},
	{"a*?", "a", false, false},
	{"*?*", "x", false, true},
	{"*a", "aaa", false, true},
	{"h?llo", "hello", false, true},
	{"h?llo", "hllo", false, false},
	{"h*llo", "hllo", false, true},
	{"h*llo", "heeeello", false, true},
	{"*.com", "example.com", false, true},
	{"*.com", "example.org", false, false},
	{"a*a*a*a*a*a*b", "aaaaaab", false, true},
	{"a*a*a*a*a*a*b", "aaaaab", false, false},

	// Classes, ranges, negation.
	{"h[ae]llo", "hello", false, true},
	{"h[ae]llo", "hillo", false, false},
	{"h[^e]llo", "hallo", false, true},
	{"h[^e]llo", "hello", false, false},
	{"h[a-b]llo", "hbllo", false, true},
	{"h[a-b]llo", "hcllo", false, false},
	{"h[b-a]llo", "hallo", false, true}, // reversed range: swapped
	{"[z-a]", "m", false, true},
	{"[^a-c]", "d", false, true},
	{"[^a-c]", "b", false, false},
	{"[-a]", "-", false, true},  // '-' first is a literal
	{"[a-]", "-", false, false}, // "a-]" is the range ']'..'a' and the class is unterminated
	{"[a-]", "^", false, true},  // '^' (94) lies in ']'..'a' (93..97)
	{"[[]", "[", false, true},   // '[' inside a class is a literal
	{"[*]", "*", false, true},   // so is '*'
	{"[?]", "a", false, false},  // and '?'
	{"[a-c]*[x-z]", "bqqqy", false, true},

	// Odd classes.
	{"[", "[", false, false},   // unterminated and empty: matches nothing
	{"[^", "x", false, true},   // unterminated, empty and negated: any one byte
	{"[]", "]", false, false},  // "[]" is an empty class
	{"[]]", "]", false, false}, // empty class, then a literal ']'
	{"[]a]", "a", false, false},
	{"[^]", "x", false, true},
	{"[^]a", "xa", false, true},
	{"[abc", "b", false, true},   // an unterminated class takes the rest of the pattern
	{"[abc", "bc", false, false}, // ... so it is the last token
	{"[a-", "-", false, true},    // too short for a range: 'a' and '-'
	{"[a-", "b", false, false},
	{"[a-z", "q", false, true},
	{"*[", "a[", false, false},

	// Escapes, inside and outside classes.
	{`\*`, "*", false, true},
	{`\*`, "a", false, false},
	{`\?`, "?", false, true},
	{`\[a]`, "[a]", false, true},
	{`a\`, `a\`, false, true}, // a trailing backslash is a literal
	{`a\`, "a", false, false},
	{`\`, `\`, false, true},
	{`\\`, `\`, false, true},
	{`[\]]`, "]", false, true},
	{`[\]`, "]", false, true}, // escaped ']' and the class runs to the end
	{`[\]`, `\`, false, false},
	{`[\`, `\`, false, true}, // a lone '\' at the end of a class is a literal
	{`[\-]`, "-", false, true},
	{`[\-]`, `\`, false, false},
	{`[a\-z]`, "-", false, true}, // {a, -, z}: the escape breaks the range
	{`[a\-z]`, "b", false, false},
	{`[\^a]`, "^", false, true},

	// nocase.
	{"HELLO", "hello", true, true},
	{"HELLO", "hello", false, false},
	{"h[A-Z]llo", "hqllo", true, true},
	{"[A-z]", "_", false, true}, // '_' (95) lies in 'A'..'z'
	{"[A-z]", "_", true, false}, // lowered to 'a'..'z' first
	{"[Z-a]", "_", false, true},
	{"[Z-a]", "a", true, false}, // lowered to 'z'..'a': an empty range
	{"[Z-a]", "z", true, false},
	{"[aB]", "b", true, true},
	{`[\A]`, "a", true, false}, // an escaped byte in a class compares exactly
	{`\A`, "a", true, true},    // outside a class it does not
	{"*KEY*", "mykeys", true, true},

	// Bytes above 0x7f compare as C's signed char in ranges.
	{"[\x80-\xff]", "\x90", false, true},
	{"[a-\xff]", "\xff", false, true}, // 'a'..-1 is swapped to -1..97
	{"[a-\xff]", "\x00", false, true},
	{"[a-\xff]", "\x90", false, false}, // -112 is below -1
	{"[a-\xff]", "b", false, false},    // 98 is above 97
	{"\xe9t\xe9", "\xe9t\xe9", true, true},
	{"\xc9", "\xe9", true, false}, // tolower is ASCII only
	{"a\x00b", "a\x00b", false, true},
	{"[\x00-\x01]", "\x01", false, true},
}

func TestMatchTable(t *testing.T) {
	if len(matchCases) < 40 {
		t.Fatalf("only %d cases", len(matchCases))
	}
	for _, tc := range matchCases {
		if got := MatchString(tc.pattern, tc.s, tc.nocase); got != tc.want {
			t.Errorf("MatchString(%q, %q, %v) = %v, want %v", tc.pattern, tc.s, tc.nocase, got, tc.want)
		}
		if got := Match([]byte(tc.pattern), []byte(tc.s), tc.nocase); got != tc.want {
			t.Errorf("Match(%q, %q, %v) = %v, want %v", tc.pattern, tc.s, tc.nocase, got, tc.want)
		}
		if got := redisMatch([]byte(tc.pattern), []byte(tc.s), tc.nocase); got != tc.want {
			t.Errorf("reference(%q, %q, %v) = %v, want %v (expectation or port is wrong)", tc.pattern, tc.s, tc.nocase, got, tc.want)
		}
	}
}

func TestHasMeta(t *testing.T) {
	for p, want := range map[string]bool{"port": false, "*": true, "po?t": true, "[p]ort": true, `p\ort`: false, "": false} {
		if got := HasMeta(p); got != want {
			t.Errorf("HasMeta(%q) = %v", p, got)
		}
	}
}

// TestNoExponentialBlowUp matches patterns that take exponential time with naive
// backtracking (each star retrying every split: C(10000, 6) ≈ 10^21 tries for the first)
// and must finish in well under a second.
func TestNoExponentialBlowUp(t *testing.T) {
	as := strings.Repeat("a", 10000)
	cases := []struct {
		pattern string
		s       string
		want    bool
	}{
		{"a*a*a*a*a*a*b", as, false},
		{"a*a*a*a*a*a*a", as, true},
		{"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*[b-z]", as, false},
		{strings.Repeat("*a", 500) + "b", as, false}, // 500 stars: beyond what a recursion depth limit likes
		{strings.Repeat("*?", 1500) + "*", as, true}, // more than Redis's 1000-star nesting limit
		{strings.Repeat("a*", 3000) + "b", as + "b", true},
	}
	for _, tc := range cases {
		start := time.Now()
		got := MatchString(tc.pattern, tc.s, false)
		if d := time.Since(start); d > time.Second {
			t.Errorf("pattern %.40q…: %v", tc.pattern, d)
		}
		if got != tc.want {
			t.Errorf("pattern %.40q… = %v, want %v", tc.pattern, got, tc.want)
		}
	}
}

// FuzzMatch compares Match with the port of Redis's recursive matcher on short inputs
// (short enough for the reference to stay fast and far from its 1000-star limit).
func FuzzMatch(f *testing.F) {
	for _, tc := range matchCases {
		if len(tc.pattern) <= 24 && len(tc.s) <= 48 {
			f.Add(tc.pattern, tc.s, tc.nocase)
		}
	}
	f.Add("*[a-\\]?*\\", "zz]]a\\", true)
	f.Fuzz(func(t *testing.T, pattern, s string, nocase bool) {
		if len(pattern) > 24 || len(s) > 48 {
			t.Skip()
		}
		want := redisMatch([]byte(pattern), []byte(s), nocase)
		if got := MatchString(pattern, s, nocase); got != want {
			t.Fatalf("MatchString(%q, %q, %v) = %v, Redis says %v", pattern, s, nocase, got, want)
		}
		if got := Match([]byte(pattern), []byte(s), nocase); got != want {
			t.Fatalf("Match(%q, %q, %v) = %v, Redis says %v", pattern, s, nocase, got, want)
		}
	})
}

var benchSink bool

func BenchmarkMatch(b *testing.B) {
	long := strings.Repeat("a", 10000)
	cases := []struct{ name, pattern, s string }{
		{"literal", "user:1000:session", "user:1000:session"},
		{"prefix", "user:*", "user:1000:session"},
		{"infix", "*:1000:*", "user:1000:session"},
		{"class", "user:[0-9][0-9][0-9][0-9]:s?ssion", "user:1000:session"},
		{"config", "*max-*-entries*", "hash-max-listpack-entries"},
		{"adversarial-10k", "a*a*a*a*a*a*b", long},
	}
	for _, c := range cases {
		p, s := []byte(c.pattern), []byte(c.s)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				benchSink = Match(p, s, false)
			}
		})
	}
	b.Run("string-nocase", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			benchSink = MatchString("*MAX-*-ENTRIES*", "hash-max-listpack-entries", true)
		}
	})
}

func TestMatchAllocs(t *testing.T) {
	p, s := []byte("*max-*-[a-z]ntries*"), []byte("hash-max-listpack-entries")
	if n := testing.AllocsPerRun(100, func() { benchSink = Match(p, s, true) }); n != 0 {
		t.Errorf("Match allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { benchSink = MatchString("*max-*", "hash-max-listpack-entries", false) }); n != 0 {
		t.Errorf("MatchString allocates %v times", n)
	}
}
