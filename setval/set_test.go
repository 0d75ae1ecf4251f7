package setval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/intset"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

func newArena(t testing.TB) *alloc.Arena {
	t.Helper()
	a := alloc.MustNewArena(1 << 32)
	t.Cleanup(a.Close)
	return a
}

// withLimits runs the test with the given limits and puts the defaults back afterwards.
func withLimits(t testing.TB, is, lpe, lpv int64) {
	SetLimits(is, lpe, lpv)
	t.Cleanup(func() { SetLimits(512, 128, 64) })
}

// newSet makes a set record of key "k" as SADD would with members, and adds them.
func newSet(t testing.TB, a *alloc.Arena, members ...string) alloc.Handle {
	t.Helper()
	rec, err := New(a, []byte("k"), []byte(members[0]), len(members), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		if _, err := Add(a, rec, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	return rec
}

func members(a *alloc.Arena, rec alloc.Handle) []string {
	var out []string
	Each(a, rec, nil, func(m []byte) bool {
		out = append(out, string(m))
		return true
	})
	return out
}

func sortedMembers(a *alloc.Arena, rec alloc.Handle) []string {
	out := members(a, rec)
	slices.Sort(out)
	return out
}

func seq(prefix string, from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, prefix+strconv.Itoa(i))
	}
	return out
}

func wantEnc(t *testing.T, a *alloc.Arena, rec alloc.Handle, want string) {
	t.Helper()
	if got := Encoding(a, rec).Name(); got != want {
		t.Fatalf("encoding %s, want %s", got, want)
	}
}

// freeAndCheck frees rec through package object and checks that the arena holds nothing.
func freeAndCheck(t *testing.T, a *alloc.Arena, rec alloc.Handle) {
	t.Helper()
	object.Free(a, rec)
	if a.Used() != 0 {
		t.Fatalf("arena Used() = %d after Free, want 0", a.Used())
	}
}

// TestCreateEncoding: setTypeCreate's choice from the first member and the size hint.
func TestCreateEncoding(t *testing.T) {
	for _, c := range []struct {
		first string
		hint  int
		want  string
	}{
		{"1", 1, "intset"}, {"1", 512, "intset"}, {"1", 513, "hashtable"},
		{"a", 1, "listpack"}, {"a", 128, "listpack"}, {"a", 129, "hashtable"},
		{"01", 1, "listpack"}, {"-0", 1, "listpack"}, {"9223372036854775808", 1, "listpack"},
	} {
		a := newArena(t)
		rec, err := New(a, []byte("k"), []byte(c.first), c.hint, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := Encoding(a, rec).Name(); got != c.want {
			t.Errorf("New(%q, %d) = %s, want %s", c.first, c.hint, got, c.want)
		}
		freeAndCheck(t, a, rec)
	}
}

// TestIntset: sorted, deduplicated; 512 members stay an intset, the 513th makes a hash table
// (never a listpack).
func TestIntset(t *testing.T) {
	a := newArena(t)
	rec := newSet(t, a, "5", "-3", "100", "0", "5")
	wantEnc(t, a, rec, "intset")
	if got := members(a, rec); !slices.Equal(got, []string{"-3", "0", "5", "100"}) {
		t.Fatalf("members %v", got)
	}
	if Len(a, rec) != 4 || !IsMember(a, rec, []byte("-3")) || IsMember(a, rec, []byte("01")) || IsMember(a, rec, []byte("7")) {
		t.Fatal("Len/IsMember")
	}
	for i := 0; i < 600; i++ {
		added, err := AddInt(a, rec, int64(i))
		if err != nil {
			t.Fatal(err)
		}
		n := Len(a, rec)
		if n <= 512 {
			wantEnc(t, a, rec, "intset")
		} else {
			wantEnc(t, a, rec, "hashtable")
		}
		_ = added
	}
	if Len(a, rec) != 601 || !IsMember(a, rec, []byte("-3")) || !IsMemberInt(a, rec, 599) {
		t.Fatalf("len %d", Len(a, rec))
	}
	freeAndCheck(t, a, rec)
}

// TestIntsetToListpack: a string joining an intset makes a listpack at 127 members (the new one
// is the 128th), a hash table at 128; the widest integer counts against the value limit.
func TestIntsetToListpack(t *testing.T) {
	for _, c := range []struct {
		ints   int
		member string
		want   string
	}{
		{127, "a", "listpack"},
		{128, "a", "hashtable"},
		{1, strings.Repeat("x", 64), "listpack"},
		{1, strings.Repeat("x", 65), "hashtable"},
	} {
		a := newArena(t)
		rec := newSet(t, a, seq("", 0, c.ints)...)
		wantEnc(t, a, rec, "intset")
		if added, err := Add(a, rec, []byte(c.member)); err != nil || !added {
			t.Fatal(added, err)
		}
		wantEnc(t, a, rec, c.want)
		want := append(seq("", 0, c.ints), c.member)
		slices.Sort(want)
		if got := sortedMembers(a, rec); !slices.Equal(got, want) {
			t.Fatalf("%+v: members %v", c, got)
		}
		if c.want == "listpack" {
			// The intset's integers first, ascending, then the string.
			if got := members(a, rec); got[len(got)-1] != c.member || got[0] != "0" {
				t.Fatalf("listpack order %v", got[:2])
			}
		}
		freeAndCheck(t, a, rec)
	}
	// An integer of 20 characters against a value limit of 19.
	withLimits(t, 512, 128, 19)
	a := newArena(t)
	rec := newSet(t, a, "-9223372036854775808")
	Add(a, rec, []byte("a"))
	wantEnc(t, a, rec, "hashtable")
	freeAndCheck(t, a, rec)
}

// TestListpack: insertion order; 128 members stay a listpack, the 129th or a 65-byte member
// makes a hash table; duplicates do not count.
func TestListpack(t *testing.T) {
	a := newArena(t)
	rec := newSet(t, a, seq("m", 0, 128)...)
	wantEnc(t, a, rec, "listpack")
	if got := members(a, rec); !slices.Equal(got, seq("m", 0, 128)) {
		t.Fatalf("order %v", got[:3])
	}
	if added, _ := Add(a, rec, []byte("m0")); added {
		t.Fatal("duplicate added")
	}
	wantEnc(t, a, rec, "listpack")
	Add(a, rec, []byte("m128"))
	wantEnc(t, a, rec, "hashtable")
	if got := sortedMembers(a, rec); len(got) != 129 || !IsMember(a, rec, []byte("m77")) {
		t.Fatal(len(got))
	}
	freeAndCheck(t, a, rec)

	a = newArena(t)
	rec = newSet(t, a, "a", "12")
	wantEnc(t, a, rec, "listpack")
	if !IsMember(a, rec, []byte("12")) || !IsMemberInt(a, rec, 12) || IsMember(a, rec, []byte("012")) {
		t.Fatal("integer entry of a listpack")
	}
	Add(a, rec, []byte(strings.Repeat("v", 64)))
	wantEnc(t, a, rec, "listpack")
	Add(a, rec, []byte(strings.Repeat("w", 65)))
	wantEnc(t, a, rec, "hashtable")
	if Len(a, rec) != 4 || !IsMember(a, rec, []byte(strings.Repeat("w", 65))) {
		t.Fatal("after conversion")
	}
	freeAndCheck(t, a, rec)
}

// TestMaybeConvert: SADD's size hint converts before adding, even for duplicates.
func TestMaybeConvert(t *testing.T) {
	a := newArena(t)
	rec := newSet(t, a, "a")
	if err := MaybeConvert(a, rec, 128); err != nil {
		t.Fatal(err)
	}
	wantEnc(t, a, rec, "listpack")
	MaybeConvert(a, rec, 129)
	wantEnc(t, a, rec, "hashtable")
	freeAndCheck(t, a, rec)

	a = newArena(t)
	rec = newSet(t, a, "1")
	MaybeConvert(a, rec, 512)
	wantEnc(t, a, rec, "intset")
	MaybeConvert(a, rec, 513)
	wantEnc(t, a, rec, "hashtable")
	freeAndCheck(t, a, rec)
}

// TestRemove in each encoding; the encoding stays.
func TestRemove(t *testing.T) {
	for _, ms := range [][]string{seq("", 0, 10), seq("m", 0, 10), seq("m", 0, 300)} {
		a := newArena(t)
		rec := newSet(t, a, ms...)
		enc := Encoding(a, rec).Name()
		for i, m := range ms {
			if ok, err := Remove(a, rec, []byte(m)); !ok || err != nil {
				t.Fatalf("%s: Remove(%s) = %v %v", enc, m, ok, err)
			}
			if ok, _ := Remove(a, rec, []byte(m)); ok {
				t.Fatal("removed twice")
			}
			if Len(a, rec) != len(ms)-i-1 || IsMember(a, rec, []byte(m)) {
				t.Fatal("after Remove")
			}
			wantEnc(t, a, rec, enc)
		}
		freeAndCheck(t, a, rec)
	}
}

// TestAllocSizeCopy: MEMORY USAGE is exactly what the set is charged; a copy in another arena
// has the same members and encoding; both free to nothing.
func TestAllocSizeCopy(t *testing.T) {
	for _, ms := range [][]string{seq("", 0, 10), seq("m", 0, 10), seq("member:", 0, 5000)} {
		a, b := newArena(t), newArena(t)
		rec := newSet(t, a, ms...)
		if got, want := object.MemoryUsage(a, rec), int(a.Used()); got != want {
			t.Fatalf("%s: MemoryUsage %d, Used %d", Encoding(a, rec).Name(), got, want)
		}
		c, err := object.CopyCollection(a, rec, b, []byte("k2"), 0)
		if err != nil {
			t.Fatal(err)
		}
		if Encoding(b, c) != Encoding(a, rec) || !slices.Equal(sortedMembers(b, c), sortedMembers(a, rec)) {
			t.Fatal("copy differs")
		}
		if got, want := object.MemoryUsage(b, c), int(b.Used()); got != want {
			t.Fatalf("copy: MemoryUsage %d, Used %d", got, want)
		}
		freeAndCheck(t, a, rec)
		freeAndCheck(t, b, c)
	}
}

// TestBlob: an intset's and a listpack's bytes; NewFromBlob copies them, converting past the
// limits as RDB loading does.
func TestBlob(t *testing.T) {
	a := newArena(t)
	rec := newSet(t, a, "1", "2", "3")
	blob := Blob(a, rec)
	if err := intset.Validate(blob, true); err != nil || intset.Len(blob) != 3 {
		t.Fatal("intset blob", err)
	}
	c, err := NewFromBlob(a, []byte("c"), object.EncIntset, slices.Clone(blob), 0)
	if err != nil || Encoding(a, c).Name() != "intset" || !slices.Equal(members(a, c), []string{"1", "2", "3"}) {
		t.Fatal("NewFromBlob intset", err)
	}
	object.Free(a, c)
	rec2 := newSet(t, a, "x", "1")
	blob = Blob(a, rec2)
	if err := listpack.Validate(blob, true, nil); err != nil || listpack.Len(blob) != 2 {
		t.Fatal("listpack blob", err)
	}
	if Blob(a, newSet(t, a, seq("h", 0, 200)...)) != nil {
		t.Fatal("blob of a hash table")
	}

	withLimits(t, 2, 1, 64)
	b := newArena(t)
	c, _ = NewFromBlob(b, []byte("c"), object.EncIntset, intsetOf(t, 1, 2, 3), 0)
	wantEnc(t, b, c, "hashtable")
	object.Free(b, c)
	c, _ = NewFromBlob(b, []byte("c"), object.EncIntset, intsetOf(t, 1, 2), 0)
	wantEnc(t, b, c, "intset")
	object.Free(b, c)
	c, _ = NewFromBlob(b, []byte("c"), object.EncListpack, slices.Clone(blob), 0)
	wantEnc(t, b, c, "hashtable")
	if got := sortedMembers(b, c); !slices.Equal(got, []string{"1", "x"}) {
		t.Fatal(got)
	}
	freeAndCheck(t, b, c)
}

func intsetOf(t *testing.T, vs ...int64) []byte {
	a := newArena(t)
	s := intset.New(a)
	for _, v := range vs {
		s, _, _ = s.Add(a, v)
	}
	return slices.Clone(s.Bytes(a))
}

// TestLongMember: members in a hash table of every length class of the entry's uvarint, up to
// a large allocation, read back and freed exactly.
func TestLongMember(t *testing.T) {
	a := newArena(t)
	rec := newSet(t, a, seq("m", 0, 200)...)
	for _, n := range []int{0, 1, 127, 128, 16383, 16384, 40000, 100000} {
		m := []byte(strings.Repeat(fmt.Sprint(n%10), n))
		if added, err := Add(a, rec, m); err != nil || !added || !IsMember(a, rec, m) {
			t.Fatalf("len %d: %v %v", n, added, err)
		}
	}
	if got, want := object.MemoryUsage(a, rec), int(a.Used()); got != want {
		t.Fatalf("MemoryUsage %d, Used %d", got, want)
	}
	freeAndCheck(t, a, rec)
}

type objectEncoding = object.Encoding

const (
	encIntset    = object.EncIntset
	encListpack  = object.EncListpack
	encHashtable = object.EncHashtable
)
