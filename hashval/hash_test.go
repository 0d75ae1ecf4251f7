package hashval

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/object"
)

func newArena(t testing.TB) *alloc.Arena {
	t.Helper()
	a := alloc.MustNewArena(1 << 32)
	t.Cleanup(a.Close)
	return a
}

func newHash(t testing.TB, a *alloc.Arena) alloc.Handle {
	t.Helper()
	rec, err := New(a, []byte("h"), 0)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func set(t testing.TB, a *alloc.Arena, rec alloc.Handle, f, v string) bool {
	t.Helper()
	added, err := Set(a, rec, []byte(f), []byte(v))
	if err != nil {
		t.Fatal(err)
	}
	return added
}

func encoding(a *alloc.Arena, rec alloc.Handle) string { return object.EncodingOf(a, rec).Name() }

// contents reads the hash through Each, checking Len agrees.
func contents(t testing.TB, a *alloc.Arena, rec alloc.Handle) map[string]string {
	t.Helper()
	m := map[string]string{}
	Each(a, rec, nil, func(f, v []byte) bool {
		if _, dup := m[string(f)]; dup {
			t.Fatalf("field %q twice", f)
		}
		m[string(f)] = string(v)
		return true
	})
	if len(m) != Len(a, rec) {
		t.Fatalf("Each saw %d fields, Len says %d", len(m), Len(a, rec))
	}
	return m
}

// checkModel compares the hash with model through every reader, and checks it and its charge.
func checkModel(t testing.TB, a *alloc.Arena, rec alloc.Handle, model map[string]string) {
	t.Helper()
	if err := Check(a, rec); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, a, rec); !maps.Equal(got, model) {
		t.Fatalf("contents differ: %d fields, want %d", len(got), len(model))
	}
	for f, v := range model {
		got, ok := Get(a, rec, []byte(f), nil)
		if !ok || string(got) != v {
			t.Fatalf("Get(%q) = %q %v, want %q", f, got, ok, v)
		}
		if !Exists(a, rec, []byte(f)) || StrLen(a, rec, []byte(f)) != len(v) {
			t.Fatalf("Exists/StrLen(%q) wrong", f)
		}
	}
	if _, ok := Get(a, rec, []byte("no such field"), nil); ok {
		t.Fatal("Get of a missing field found it")
	}
}

// TestListpackToHashtableEntries: 512 fields stay a listpack, the 513th converts; the hash then
// reads the same, and freeing it returns every byte.
func TestListpackToHashtableEntries(t *testing.T) {
	a := newArena(t)
	rec := newHash(t, a)
	model := map[string]string{}
	for i := range 512 {
		f, v := fmt.Sprint("f", i), fmt.Sprint(i)
		if !set(t, a, rec, f, v) {
			t.Fatalf("field %d not added", i)
		}
		model[f] = v
	}
	if enc := encoding(a, rec); enc != "listpack" {
		t.Fatalf("512 fields: %s", enc)
	}
	checkModel(t, a, rec, model)
	if set(t, a, rec, "f0", "new") || encoding(a, rec) != "listpack" {
		t.Fatal("overwrite at 512 fields: added, or converted")
	}
	model["f0"] = "new"
	set(t, a, rec, "f512", "x")
	model["f512"] = "x"
	if enc := encoding(a, rec); enc != "hashtable" {
		t.Fatalf("513 fields: %s", enc)
	}
	checkModel(t, a, rec, model)
	// Never back: deleting down to one field keeps the table.
	for i := range 512 {
		if ok, err := Delete(a, rec, []byte(fmt.Sprint("f", i))); !ok || err != nil {
			t.Fatalf("Delete f%d: %v %v", i, ok, err)
		}
		delete(model, fmt.Sprint("f", i))
	}
	if enc := encoding(a, rec); enc != "hashtable" || Len(a, rec) != 1 {
		t.Fatalf("after deletes: %s, %d fields", enc, Len(a, rec))
	}
	checkModel(t, a, rec, model)
	object.Free(a, rec)
	if a.Used() != 0 {
		t.Fatalf("%d bytes left after Free", a.Used())
	}
}

// TestListpackToHashtableValue: a 64-byte value or field stays, 65 bytes converts — a new
// field, an overwrite, or a field name.
func TestListpackToHashtableValue(t *testing.T) {
	v64, v65 := strings.Repeat("v", 64), strings.Repeat("v", 65)
	for _, tc := range []struct {
		name   string
		writes [][2]string
		want   string
	}{
		{"value 64", [][2]string{{"f", v64}}, "listpack"},
		{"field 64", [][2]string{{v64, "x"}}, "listpack"},
		{"value 65", [][2]string{{"f", v65}}, "hashtable"},
		{"field 65", [][2]string{{v65, "x"}}, "hashtable"},
		{"overwrite 65", [][2]string{{"f", "1"}, {"g", "2"}, {"f", v65}}, "hashtable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newArena(t)
			rec := newHash(t, a)
			model := map[string]string{}
			for _, w := range tc.writes {
				set(t, a, rec, w[0], w[1])
				model[w[0]] = w[1]
			}
			if enc := encoding(a, rec); enc != tc.want {
				t.Fatalf("encoding %s, want %s", enc, tc.want)
			}
			checkModel(t, a, rec, model)
			object.Free(a, rec)
			if a.Used() != 0 {
				t.Fatalf("%d bytes left", a.Used())
			}
		})
	}
}

// TestLimits: SetLimits moves both thresholds.
func TestLimits(t *testing.T) {
	t.Cleanup(func() { SetLimits(DefaultMaxListpackEntries, DefaultMaxListpackValue) })
	SetLimits(2, 3)
	a := newArena(t)
	rec := newHash(t, a)
	set(t, a, rec, "a", "123")
	set(t, a, rec, "b", "1")
	if encoding(a, rec) != "listpack" {
		t.Fatal("converted within the limits")
	}
	set(t, a, rec, "c", "1")
	if encoding(a, rec) != "hashtable" {
		t.Fatal("3 fields over a limit of 2 did not convert")
	}
	rec2 := newHash(t, a)
	set(t, a, rec2, "a", "1234")
	if encoding(a, rec2) != "hashtable" {
		t.Fatal("4 bytes over a limit of 3 did not convert")
	}
}

// TestTryConversion: hashTypeTryConversion's three reasons, and none.
func TestTryConversion(t *testing.T) {
	a := newArena(t)
	for _, tc := range []struct {
		pairs, longest, total int
		want                  string
	}{
		{512, 64, 1000, "listpack"},
		{513, 1, 1026, "hashtable"}, // more pairs than entries, even if they repeat
		{1, 65, 66, "hashtable"},
		{1, 10, listpack.MaxSafetySize, "hashtable"},
	} {
		rec := newHash(t, a)
		set(t, a, rec, "x", "y")
		if err := TryConversion(a, rec, tc.pairs, tc.longest, tc.total); err != nil {
			t.Fatal(err)
		}
		if enc := encoding(a, rec); enc != tc.want {
			t.Errorf("%+v: %s", tc, enc)
		}
		checkModel(t, a, rec, map[string]string{"x": "y"})
		object.Free(a, rec)
	}
	if a.Used() != 0 {
		t.Fatalf("%d bytes left", a.Used())
	}
}

// TestTableOverwriteInPlace: an overwrite within the entry's size class keeps the entry; a
// bigger value moves it; the charge follows.
func TestTableOverwriteInPlace(t *testing.T) {
	a := newArena(t)
	rec := newHash(t, a)
	set(t, a, rec, strings.Repeat("k", 70), "x") // converts
	_, root := object.Root(a, rec)
	tbl := openTable(a, root)
	entryOf := func() alloc.Handle {
		var h alloc.Handle
		tbl.Each(func(e alloc.Handle) { h = e })
		return h
	}
	h0 := entryOf()
	set(t, a, rec, strings.Repeat("k", 70), "yy") // 72+2+2 < 80
	if entryOf() != h0 {
		t.Fatal("overwrite within the class moved the entry")
	}
	set(t, a, rec, strings.Repeat("k", 70), strings.Repeat("z", 100))
	if entryOf() == h0 {
		t.Fatal("overwrite past the class kept the entry")
	}
	checkModel(t, a, rec, map[string]string{strings.Repeat("k", 70): strings.Repeat("z", 100)})
	if got, want := object.MemoryUsage(a, rec), int(a.Used()); got != want {
		t.Fatalf("MemoryUsage %d, arena charge %d", got, want)
	}
	object.Free(a, rec)
	if a.Used() != 0 {
		t.Fatalf("%d bytes left", a.Used())
	}
}

// TestIntegersAndBinary: listpack integers read back as their decimal text; binary and empty
// fields and values; big values (a large allocation) in a table.
func TestIntegersAndBinary(t *testing.T) {
	for _, big := range []bool{false, true} {
		a := newArena(t)
		rec := newHash(t, a)
		model := map[string]string{"": "", "\x00\r\n": "\xff", "12": "-7",
			"-9223372036854775808": "9223372036854775807", "007": "0123"}
		if big {
			model[strings.Repeat("L", 40000)] = strings.Repeat("V", 100000)
		}
		for f, v := range model {
			set(t, a, rec, f, v)
		}
		checkModel(t, a, rec, model)
		if got, want := object.MemoryUsage(a, rec), int(a.Used()); got != want {
			t.Fatalf("MemoryUsage %d, arena charge %d", got, want)
		}
		object.Free(a, rec)
		if a.Used() != 0 {
			t.Fatalf("%d bytes left", a.Used())
		}
	}
}

// TestCopyAndMemoryUsage: a copy in another arena is deep and charged what MemoryUsage says,
// in both encodings.
func TestCopyAndMemoryUsage(t *testing.T) {
	for _, n := range []int{3, 600} {
		a, b := newArena(t), newArena(t)
		rec := newHash(t, a)
		model := map[string]string{}
		for i := range n {
			model[fmt.Sprint("field", i)] = fmt.Sprint("value", i)
			set(t, a, rec, fmt.Sprint("field", i), fmt.Sprint("value", i))
		}
		if got, want := object.MemoryUsage(a, rec), int(a.Used()); got != want {
			t.Fatalf("%d fields: MemoryUsage %d, arena charge %d", n, got, want)
		}
		c, err := object.CopyCollection(a, rec, b, []byte("copy"), 0)
		if err != nil {
			t.Fatal(err)
		}
		if encoding(b, c) != encoding(a, rec) {
			t.Fatal("copy changed the encoding")
		}
		set(t, a, rec, "field0", "changed")
		checkModel(t, b, c, model)
		if got, want := object.MemoryUsage(b, c), int(b.Used()); got != want {
			t.Fatalf("copy: MemoryUsage %d, arena charge %d", got, want)
		}
		object.Free(a, rec)
		object.Free(b, c)
		if a.Used() != 0 || b.Used() != 0 {
			t.Fatalf("left %d and %d bytes", a.Used(), b.Used())
		}
	}
}

// lpOf builds a listpack of pairs with package listpack, as a dump would hold.
func lpOf(t testing.TB, a *alloc.Arena, pairs [][2]string) []byte {
	t.Helper()
	l := listpack.New(a)
	for _, p := range pairs {
		var err error
		if l, err = l.Append(a, []byte(p[0])); err != nil {
			t.Fatal(err)
		}
		if l, err = l.Append(a, []byte(p[1])); err != nil {
			t.Fatal(err)
		}
	}
	blob := bytes.Clone(l.Bytes(a))
	l.Free(a)
	return blob
}

// TestFromListpack: a blob is copied as it is within the entries limit (long values too, as
// Redis's RDB load), converted past it; ListpackBlob gives the bytes back.
func TestFromListpack(t *testing.T) {
	a := newArena(t)
	small := [][2]string{{"a", "1"}, {"b", strings.Repeat("x", 100)}}
	blob := lpOf(t, a, small)
	rec, err := NewFromListpack(a, []byte("k"), blob, 1234)
	if err != nil {
		t.Fatal(err)
	}
	if encoding(a, rec) != "listpack" || !bytes.Equal(ListpackBlob(a, rec), blob) {
		t.Fatalf("small blob: %s", encoding(a, rec))
	}
	if ms, ok := object.Expire(a, rec); !ok || ms != 1234 {
		t.Fatal("expire lost")
	}
	checkModel(t, a, rec, map[string]string{"a": "1", "b": strings.Repeat("x", 100)})
	object.Free(a, rec)

	var big [][2]string
	model := map[string]string{}
	for i := range 513 {
		big = append(big, [2]string{fmt.Sprint(i), fmt.Sprint("v", i)})
		model[fmt.Sprint(i)] = fmt.Sprint("v", i)
	}
	rec, err = NewFromListpack(a, []byte("k"), lpOf(t, a, big), 0)
	if err != nil {
		t.Fatal(err)
	}
	if encoding(a, rec) != "hashtable" || ListpackBlob(a, rec) != nil {
		t.Fatalf("513 pairs: %s", encoding(a, rec))
	}
	checkModel(t, a, rec, model)
	object.Free(a, rec)
	if a.Used() != 0 {
		t.Fatalf("%d bytes left", a.Used())
	}
}

// TestEachStops: Each stops when fn returns false, in both encodings.
func TestEachStops(t *testing.T) {
	for _, n := range []int{10, 1000} {
		a := newArena(t)
		rec := newHash(t, a)
		for i := range n {
			set(t, a, rec, fmt.Sprint(i), "v")
		}
		calls := 0
		Each(a, rec, nil, func(f, v []byte) bool { calls++; return calls < 3 })
		if calls != 3 {
			t.Fatalf("%d fields: %d calls", n, calls)
		}
		keys := slices.Sorted(maps.Keys(contents(t, a, rec)))
		if len(keys) != n {
			t.Fatal("wrong count")
		}
	}
}
