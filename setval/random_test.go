package setval

import (
	"slices"
	"testing"
)

// encodings are sets of each encoding, as SADD makes them.
var encodings = []struct {
	name    string
	members []string
}{
	{"intset", seq("", 0, 100)},
	{"listpack", seq("m", 0, 100)},
	{"hashtable", seq("m", 0, 1000)},
}

func isSubset(t *testing.T, got, of []string, distinct bool) {
	t.Helper()
	seen := map[string]bool{}
	for _, m := range got {
		if !slices.Contains(of, m) {
			t.Fatalf("%q is not a member", m)
		}
		if distinct && seen[m] {
			t.Fatalf("%q twice", m)
		}
		seen[m] = true
	}
}

// TestRandomMembers covers SRANDMEMBER's cases in every encoding: negative counts (with
// repetition), 1, the whole set, count*3 > size and the sparse case.
func TestRandomMembers(t *testing.T) {
	for _, e := range encodings {
		a := newArena(t)
		rec := newSet(t, a, e.members...)
		wantEnc(t, a, rec, e.name)
		size := int64(len(e.members))
		for _, count := range []int64{-1, -5, -3000, 1, 2, size / 4, size/3 + 1, size - 1, size, size + 7} {
			var got []string
			RandomMembers(a, rec, count, nil, func(m []byte) { got = append(got, string(m)) })
			if int64(len(got)) != RandomCount(size, count) {
				t.Fatalf("%s count %d: %d members", e.name, count, len(got))
			}
			isSubset(t, got, e.members, count > 0)
		}
		if m := string(RandomMember(a, rec, nil)); !slices.Contains(e.members, m) {
			t.Fatal(m)
		}
		freeAndCheck(t, a, rec)
	}
}

// TestRandomCoverage: picks reach every member (a broken generator or an off-by-one would miss
// the last one).
func TestRandomCoverage(t *testing.T) {
	for _, e := range encodings {
		a := newArena(t)
		rec := newSet(t, a, e.members...)
		seen := map[string]bool{}
		RandomMembers(a, rec, -int64(len(e.members))*30, nil, func(m []byte) { seen[string(m)] = true })
		if len(seen) != len(e.members) {
			t.Fatalf("%s: %d of %d members seen", e.name, len(seen), len(e.members))
		}
		freeAndCheck(t, a, rec)
	}
}

// TestPop: single pops, then SPOP count in both strategies, until the set is empty; the
// popped members and the survivors partition the set.
func TestPop(t *testing.T) {
	for _, e := range encodings {
		for _, count := range []int{1, 3, len(e.members) / 2, len(e.members) - 10, len(e.members) - 1} {
			a := newArena(t)
			rec := newSet(t, a, e.members...)
			var popped []string
			m, err := Pop(a, rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			popped = append(popped, string(m))
			if err := PopCount(a, rec, count, func(m []byte) { popped = append(popped, string(m)) }); err != nil {
				t.Fatal(err)
			}
			if len(popped) != count+1 {
				t.Fatalf("%s count %d: popped %d", e.name, count, len(popped))
			}
			rest := sortedMembers(a, rec)
			if Len(a, rec) != len(e.members)-count-1 {
				t.Fatalf("%s: %d left", e.name, Len(a, rec))
			}
			all := append(slices.Clone(rest), popped...)
			slices.Sort(all)
			want := slices.Clone(e.members)
			slices.Sort(want)
			if !slices.Equal(all, want) {
				t.Fatalf("%s count %d: popped+rest is not the set", e.name, count)
			}
			for Len(a, rec) > 0 {
				Pop(a, rec, nil)
			}
			freeAndCheck(t, a, rec)
		}
	}
}

// TestPopKeepsSurvivors: SPOP count with few survivors rebuilds the set: an intset stays an
// intset, a hash table's survivors become a listpack (Redis 7.2 does the same).
func TestPopKeepsSurvivors(t *testing.T) {
	a := newArena(t)
	rec := newSet(t, a, seq("m", 0, 200)...)
	wantEnc(t, a, rec, "hashtable")
	PopCount(a, rec, 190, func([]byte) {})
	wantEnc(t, a, rec, "listpack")
	if Len(a, rec) != 10 {
		t.Fatal(Len(a, rec))
	}
	freeAndCheck(t, a, rec)

	rec = newSet(t, a, seq("", 0, 200)...)
	PopCount(a, rec, 190, func([]byte) {})
	wantEnc(t, a, rec, "intset")
	freeAndCheck(t, a, rec)
}

// TestScan: a compact set comes whole with cursor 0; a table's scan returns every member at
// least once, whatever COUNT.
func TestScan(t *testing.T) {
	for _, e := range encodings {
		a := newArena(t)
		rec := newSet(t, a, e.members...)
		for _, count := range []int{1, 10, 5000} {
			seen := map[string]bool{}
			calls := 0
			for cursor := uint64(0); ; {
				cursor = Scan(a, rec, cursor, count, nil, func(m []byte) { seen[string(m)] = true })
				calls++
				if cursor == 0 {
					break
				}
			}
			if len(seen) != len(e.members) {
				t.Fatalf("%s count %d: %d seen", e.name, count, len(seen))
			}
			if e.name != "hashtable" && calls != 1 {
				t.Fatalf("%s: %d calls", e.name, calls)
			}
		}
		freeAndCheck(t, a, rec)
	}
}

// TestMaybeConvertToIntset: SINTERSTORE's integer result.
func TestMaybeConvertToIntset(t *testing.T) {
	a := newArena(t)
	for _, enc := range []string{"listpack", "hashtable"} {
		rec, _ := NewEncoded(a, []byte("k"), encodingByName(enc), 0)
		for _, m := range []string{"3", "1", "2"} {
			Add(a, rec, []byte(m))
		}
		if err := MaybeConvertToIntset(a, rec); err != nil {
			t.Fatal(err)
		}
		wantEnc(t, a, rec, "intset")
		if got := members(a, rec); !slices.Equal(got, []string{"1", "2", "3"}) {
			t.Fatal(got)
		}
		freeAndCheck(t, a, rec)
	}
}

func encodingByName(name string) (e objectEncoding) {
	for _, x := range []objectEncoding{encIntset, encListpack, encHashtable} {
		if x.Name() == name {
			return x
		}
	}
	panic(name)
}
