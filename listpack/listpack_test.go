package listpack

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

func newArena(t testing.TB) *alloc.Arena {
	t.Helper()
	a := alloc.MustNewArena(1 << 30)
	t.Cleanup(a.Close)
	return a
}

func mustAppend(t testing.TB, a *alloc.Arena, l Listpack, vals ...string) Listpack {
	t.Helper()
	for _, v := range vals {
		var err error
		if l, err = l.Append(a, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRedisBytesGolden holds blobs taken from redis-server 7.0.15's DUMP (HSET of the pairs
// below, hash-max-listpack-value raised for the long one), so the byte format is checked where
// redis-server is not installed too.
func TestRedisBytesGolden(t *testing.T) {
	cases := []struct {
		vals []string
		hex  string
	}{
		// HSET h a 1 b hello c -5 d 300 e ""
		{[]string{"a", "1", "b", "hello", "c", "-5", "d", "300", "e", ""},
			"270000000a0081610201018162028568656c6c6f06816302dffb02816402c12c028165028001ff"},
	}
	for _, c := range cases {
		want := unhex(t, removeSpaces(c.hex))
		a := newArena(t)
		l := mustAppend(t, a, New(a), c.vals...)
		if got := l.Bytes(a); !bytes.Equal(got, want) {
			t.Errorf("%q:\nours    % x\nredis's % x", c.vals, got, want)
		}
	}
}

func removeSpaces(s string) string { return string(bytes.ReplaceAll([]byte(s), []byte(" "), nil)) }

func TestStringToInt64(t *testing.T) {
	yes := map[string]int64{"0": 0, "1": 1, "-1": -1, "123": 123, "9223372036854775807": 1<<63 - 1,
		"-9223372036854775808": -1 << 63}
	for s, v := range yes {
		if got, ok := StringToInt64([]byte(s)); !ok || got != v {
			t.Errorf("%q: %d %v, want %d", s, got, ok, v)
		}
	}
	for _, s := range []string{"", "-", "-0", "0123", "00", "+1", " 1", "1 ", "1a", "a",
		"9223372036854775808", "-9223372036854775809", "18446744073709551616",
		"99999999999999999999", "123456789012345678901"} {
		if _, ok := StringToInt64([]byte(s)); ok {
			t.Errorf("%q accepted as an integer", s)
		}
	}
}

// TestIntegerEncodings checks the width chosen at each boundary and that the value reads back.
func TestIntegerEncodings(t *testing.T) {
	cases := []struct {
		v    int64
		size int // encoding + data
	}{
		{0, 1}, {127, 1}, {128, 2}, {-1, 2}, {4095, 2}, {-4096, 2}, {4096, 3}, {-4097, 3},
		{32767, 3}, {-32768, 3}, {32768, 4}, {-32769, 4}, {1<<23 - 1, 4}, {-1 << 23, 4},
		{1 << 23, 5}, {-1<<23 - 1, 5}, {1<<31 - 1, 5}, {-1 << 31, 5}, {1 << 31, 9},
		{-1<<31 - 1, 9}, {1<<63 - 1, 9}, {-1 << 63, 9},
	}
	a := newArena(t)
	for _, c := range cases {
		l := New(a)
		l, _ = l.AppendInt(a, c.v)
		b := l.Bytes(a)
		if got := len(b) - EmptySize - 1; got != c.size {
			t.Errorf("%d: %d bytes, want %d", c.v, got, c.size)
		}
		if _, v, isInt := Get(b, First(b)); !isInt || v != c.v {
			t.Errorf("%d read back as %d (int %v)", c.v, v, isInt)
		}
		// Append of its decimal form gives the same bytes.
		l2 := mustAppend(t, a, New(a), strconv.FormatInt(c.v, 10))
		if !bytes.Equal(l2.Bytes(a), b) {
			t.Errorf("%d: Append of the string differs from AppendInt", c.v)
		}
		l.Free(a)
		l2.Free(a)
	}
	if a.Used() != 0 {
		t.Fatalf("%d bytes still charged", a.Used())
	}
}

func TestBacklenBounds(t *testing.T) {
	for _, l := range []uint64{0, 127, 128, 16382, 16383, 2097150, 2097151, 268435454, 268435455, 1 << 32} {
		var buf [5]byte
		n := encodeBacklen(buf[:], l)
		if n != backlenSize(l) {
			t.Fatalf("%d: encode %d bytes, size says %d", l, n, backlenSize(l))
		}
		v, m, ok := decodeBacklen(buf[:n], n-1)
		if !ok || m != n || v != l {
			t.Fatalf("%d: decoded %d (%d bytes, %v)", l, v, m, ok)
		}
	}
}

func TestIterateSeekFind(t *testing.T) {
	a := newArena(t)
	vals := []string{"a", "1", "b", "-20000", "c", "", "d", "x"}
	l := mustAppend(t, a, New(a), vals...)
	b := l.Bytes(a)
	var fwd, back []string
	for p := First(b); p >= 0; p = Next(b, p) {
		fwd = append(fwd, string(AppendValue(nil, b, p)))
	}
	for p := Last(b); p >= 0; p = Prev(b, p) {
		back = append([]string{string(AppendValue(nil, b, p))}, back...)
	}
	if !equalStrings(fwd, vals) || !equalStrings(back, vals) {
		t.Fatalf("forward %q backward %q, want %q", fwd, back, vals)
	}
	for i := -len(vals) - 1; i <= len(vals); i++ {
		p := Seek(b, i)
		j := i
		if j < 0 {
			j += len(vals)
		}
		if j < 0 || j >= len(vals) {
			if p != -1 {
				t.Errorf("Seek(%d) = %d, want -1", i, p)
			}
			continue
		}
		if got := string(AppendValue(nil, b, p)); got != vals[j] {
			t.Errorf("Seek(%d) reads %q, want %q", i, got, vals[j])
		}
	}
	// Find with skip 1 looks at fields only: "1" is a value, so not found as a field.
	if p := Find(b, First(b), []byte("1"), 1); p != -1 {
		t.Errorf("Find field \"1\" found a value at %d", p)
	}
	if p := Find(b, First(b), []byte("c"), 1); p != Seek(b, 4) {
		t.Errorf("Find field c = %d, want %d", p, Seek(b, 4))
	}
	if p := Find(b, First(b), []byte("-20000"), 0); p != Seek(b, 3) {
		t.Errorf("Find -20000 = %d, want %d", p, Seek(b, 3))
	}
	if p := Find(b, First(b), []byte("-020000"), 0); p != -1 {
		t.Errorf("Find -020000 (not canonical) matched %d", p)
	}
	for i, v := range vals {
		p := Seek(b, i)
		if !Equal(b, p, []byte(v)) || Equal(b, p, []byte(v+"0")) {
			t.Errorf("Equal at %d wrong for %q", i, v)
		}
	}
	if Equal(b, Seek(b, 1), []byte("01")) || Equal(b, Seek(b, 1), []byte("+1")) {
		t.Error("integer entry 1 equals a non-canonical form")
	}
	if p := Find(b, First(b), []byte(""), 0); p != Seek(b, 5) {
		t.Errorf("Find \"\" = %d, want %d", p, Seek(b, 5))
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestWrites(t *testing.T) {
	a := newArena(t)
	l := mustAppend(t, a, New(a), "b", "d")
	l, _ = l.Prepend(a, []byte("a"))
	l, p, _ := l.Insert(a, Seek(l.Bytes(a), 1), After, []byte("c"))
	if got := string(AppendValue(nil, l.Bytes(a), p)); got != "c" {
		t.Fatalf("Insert returned the offset of %q", got)
	}
	l, _, _ = l.Insert(a, Seek(l.Bytes(a), -1), After, []byte("e"))
	l, _, _ = l.Insert(a, First(l.Bytes(a)), Before, []byte("0"))
	l, _, _ = l.Replace(a, Seek(l.Bytes(a), 2), bytes.Repeat([]byte("B"), 5000))
	l, _, _ = l.Replace(a, Seek(l.Bytes(a), 2), []byte("b"))
	checkContents(t, a, l, []string{"0", "a", "b", "c", "d", "e"})
	l, next, _ := l.Delete(a, Seek(l.Bytes(a), 2))
	if got := string(AppendValue(nil, l.Bytes(a), next)); got != "c" {
		t.Fatalf("Delete returned the offset of %q, want c", got)
	}
	l, next, _ = l.Delete(a, Seek(l.Bytes(a), -1))
	if next != -1 {
		t.Fatalf("Delete of the last entry returned %d, want -1", next)
	}
	checkContents(t, a, l, []string{"0", "a", "c", "d"})
	l, _ = l.DeleteRange(a, -3, 2)
	checkContents(t, a, l, []string{"0", "d"})
	l, _ = l.DeleteRange(a, 0, 100)
	checkContents(t, a, l, nil)
	if !bytes.Equal(l.Bytes(a), []byte{7, 0, 0, 0, 0, 0, 0xff}) {
		t.Fatalf("emptied listpack is % x", l.Bytes(a))
	}
	l.Free(a)
	if a.Used() != 0 {
		t.Fatalf("%d bytes still charged", a.Used())
	}
}

// checkContents checks l against vals: forward, backward, count, validation and accounting.
func checkContents(t testing.TB, a *alloc.Arena, l Listpack, vals []string) {
	t.Helper()
	b := l.Bytes(a)
	if err := Validate(b, true, nil); err != nil {
		t.Fatalf("Validate: %v (% x)", err, trunc(b))
	}
	if l.AllocSize(a) != alloc.UsableSize(len(b)) {
		t.Fatalf("AllocSize %d for %d bytes", l.AllocSize(a), len(b))
	}
	if n := l.Len(a); n != len(vals) {
		t.Fatalf("Len %d, want %d", n, len(vals))
	}
	i := 0
	for p := First(b); p >= 0; p = Next(b, p) {
		if i >= len(vals) || string(AppendValue(nil, b, p)) != vals[i] {
			t.Fatalf("entry %d is %q, want %q", i, AppendValue(nil, b, p), vals)
		}
		i++
	}
	if i != len(vals) {
		t.Fatalf("walked %d entries, want %d", i, len(vals))
	}
	for p := Last(b); p >= 0; p = Prev(b, p) {
		i--
		if string(AppendValue(nil, b, p)) != vals[i] {
			t.Fatalf("backwards, entry %d is %q, want %q", i, AppendValue(nil, b, p), vals[i])
		}
	}
}

// TestUnknownCount crosses 65535 entries: the header's count sticks at 65535 (unknown), Len
// walks, and a Listpack's Len stores the count back once it is below 65535 again.
func TestUnknownCount(t *testing.T) {
	a := newArena(t)
	l := New(a)
	for i := 0; i < 65536; i++ {
		l, _ = l.AppendInt(a, int64(i%100))
	}
	b := l.Bytes(a)
	if headerCount(b) != NumUnknown || Len(b) != 65536 || l.Len(a) != 65536 {
		t.Fatalf("header %d, Len %d", headerCount(b), Len(b))
	}
	if err := Validate(b, true, nil); err != nil {
		t.Fatal(err)
	}
	l, _ = l.DeleteRange(a, 0, 2)
	if headerCount(l.Bytes(a)) != NumUnknown {
		t.Fatalf("count became known without a walk")
	}
	if l.Len(a) != 65534 || headerCount(l.Bytes(a)) != 65534 {
		t.Fatalf("Len %d, header %d after walking", l.Len(a), headerCount(l.Bytes(a)))
	}
	if p := Seek(l.Bytes(a), -1); p < 0 || string(AppendValue(nil, l.Bytes(a), p)) != "35" {
		t.Fatalf("Seek(-1) wrong")
	}
	l.Free(a)
}

func TestValidateRejects(t *testing.T) {
	a := newArena(t)
	good := append([]byte(nil), mustAppend(t, a, New(a), "a", "300", "hello").Bytes(a)...)
	if err := Validate(good, true, nil); err != nil {
		t.Fatal(err)
	}
	bad := map[string]func(b []byte) []byte{
		"short":        func(b []byte) []byte { return b[:6] },
		"total":        func(b []byte) []byte { b[0]++; return b },
		"no EOF":       func(b []byte) []byte { b[len(b)-1] = 0; return b },
		"count":        func(b []byte) []byte { b[4] = 2; return b },
		"backlen":      func(b []byte) []byte { b[8] = 5; return b },
		"bad encoding": func(b []byte) []byte { b[6] = 0xF5; return b },
		"EOF inside":   func(b []byte) []byte { b[6] = 0xFF; return b },
		"string past end": func(b []byte) []byte {
			b[len(b)-8] = 0x80 | 60
			return b
		},
	}
	for name, f := range bad {
		b := f(append([]byte(nil), good...))
		if err := Validate(b, true, nil); err == nil {
			t.Errorf("%s: accepted % x", name, b)
		}
	}
	calls := 0
	if err := Validate(good, true, func(int) bool { calls++; return calls < 3 }); err == nil || calls != 3 {
		t.Errorf("callback refusal: err %v after %d calls", err, calls)
	}
}

func TestRandom(t *testing.T) {
	a := newArena(t)
	l := mustAppend(t, a, New(a), "f1", "v1", "f2", "v2", "f3", "v3", "f4", "v4")
	b := l.Bytes(a)
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]int{}
	for i := 0; i < 400; i++ {
		k, v := RandomPair(b, r.IntN)
		kv := string(AppendValue(nil, b, k)) + "=" + string(AppendValue(nil, b, v))
		seen[kv]++
	}
	for i := 1; i <= 4; i++ {
		if kv := "f" + strconv.Itoa(i) + "=v" + strconv.Itoa(i); seen[kv] == 0 {
			t.Errorf("%s never picked: %v", kv, seen)
		}
	}
	if len(seen) != 4 {
		t.Errorf("picked pairs that are not pairs: %v", seen)
	}
	n := 0
	RandomPairs(b, 10, r.IntN, func(k, v int) { n++ })
	if n != 10 {
		t.Errorf("RandomPairs gave %d, want 10", n)
	}
	for count := 0; count <= 5; count++ {
		got := map[int]bool{}
		prev := -1
		m := RandomPairsUnique(b, count, r.IntN, func(k, v int) {
			if got[k] || k <= prev {
				t.Errorf("pair at %d repeated or out of order", k)
			}
			got[k], prev = true, k
		})
		if want := min(count, 4); m != want || len(got) != want {
			t.Errorf("RandomPairsUnique(%d) picked %d", count, m)
		}
	}
	if m := RandomEntriesUnique(b, 3, r.IntN, func(int) {}); m != 3 {
		t.Errorf("RandomEntriesUnique picked %d", m)
	}
	if p := Random(b, r.IntN); p < HeaderSize {
		t.Errorf("Random = %d", p)
	}
}

// TestLargeAndBack grows a listpack past the slab classes (the large tier, where realloc keeps
// the handle) and shrinks it back into a slab class, checking contents and accounting.
func TestLargeAndBack(t *testing.T) {
	a := newArena(t)
	l := mustAppend(t, a, New(a), "a", "b")
	big := string(bytes.Repeat([]byte("L"), 3*alloc.MaxSlabSize))
	l = mustAppend(t, a, l, big)
	if !l.Handle().IsLarge() {
		t.Fatalf("a %d-byte listpack is not a large object", len(l.Bytes(a)))
	}
	checkContents(t, a, l, []string{"a", "b", big})
	if a.Used() != int64(l.AllocSize(a)) {
		t.Fatalf("arena charged %d, listpack %d", a.Used(), l.AllocSize(a))
	}
	l, _, _ = l.Insert(a, First(l.Bytes(a)), After, []byte("c"))
	checkContents(t, a, l, []string{"a", "c", "b", big})
	l, _, _ = l.Delete(a, Seek(l.Bytes(a), -1))
	if l.Handle().IsLarge() {
		t.Fatal("still a large object after shrinking to a few bytes")
	}
	checkContents(t, a, l, []string{"a", "c", "b"})
	l.Free(a)
	if a.Used() != 0 {
		t.Fatalf("%d bytes charged after Free", a.Used())
	}
}

func TestValidateDups(t *testing.T) {
	a := newArena(t)
	for _, c := range []struct {
		vals        []string
		pairs, want bool
	}{
		{[]string{"f", "v", "g", "v"}, true, true},
		{[]string{"f", "v", "f", "w"}, true, false},   // a field twice
		{[]string{"f", "v", "g"}, true, false},        // odd count
		{[]string{"1", "v", "01", "w"}, true, true},   // 1 is an integer, 01 a string
		{[]string{"a", "b", "c"}, false, true},        // a set
		{[]string{"a", "b", "a"}, false, false},       // a member twice
		{[]string{"7", "x", "7"}, false, false},       // integers compare too
		{[]string{}, true, true},                      // empty: the loader refuses empty keys
		{[]string{"f", "f", "g", "g"}, true, true},    // a value may equal a field
		{[]string{"f", "x", "g", "x"}, true, true},    // values may repeat
		{[]string{"-5", "x", "-5", "y"}, true, false}, // negative integer fields
	} {
		l := mustAppend(t, a, New(a), c.vals...)
		err := ValidateDups(l.Bytes(a), c.pairs)
		if (err == nil) != c.want {
			t.Errorf("%q pairs %v: %v", c.vals, c.pairs, err)
		}
		l.Free(a)
	}
	if ValidateDups([]byte{1, 2, 3}, false) == nil {
		t.Error("garbage accepted")
	}
}

func TestSafeToAdd(t *testing.T) {
	empty := []byte{7, 0, 0, 0, 0, 0, 0xff}
	if !SafeToAdd(nil, MaxSafetySize) || SafeToAdd(nil, MaxSafetySize+1) {
		t.Error("nil listpack bounds wrong")
	}
	if !SafeToAdd(empty, MaxSafetySize-7) || SafeToAdd(empty, MaxSafetySize-6) {
		t.Error("bounds wrong with 7 bytes")
	}
}

// TestFailedShrinkUnchanged: a delete that must move the listpack to a smaller size class and
// finds no memory for it reports ErrNoMemory and leaves every byte as it was.
func TestFailedShrinkUnchanged(t *testing.T) {
	a, err := alloc.NewArena(40 << 20) // 20 spans: one per class the appends pass, and a few
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	l := New(a)
	for i := 0; i < 8; i++ {
		if l, err = l.Append(a, bytes.Repeat([]byte{byte('a' + i)}, 20)); err != nil {
			t.Fatal(err)
		}
	}
	// Take every slot the arena has left, in every small class.
	for size := 8; size <= 256; size += 8 {
		for a.Alloc(size) != 0 {
		}
	}
	before := append([]byte(nil), l.Bytes(a)...)
	nl, _, err := l.DeleteEntries(a, First(l.Bytes(a)), 3)
	if err != ErrNoMemory {
		t.Fatalf("DeleteEntries with a full arena: %v", err)
	}
	if nl != l || !bytes.Equal(l.Bytes(a), before) {
		t.Fatalf("a failed shrink changed the listpack:\nbefore % x\nafter  % x", before, l.Bytes(a))
	}
}
