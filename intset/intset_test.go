package intset

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/internal/redisref"
)

func newArena(t testing.TB) *alloc.Arena {
	t.Helper()
	a := alloc.MustNewArena(1 << 30)
	t.Cleanup(a.Close)
	return a
}

func build(t testing.TB, a *alloc.Arena, vals ...int64) Intset {
	t.Helper()
	s := New(a)
	for _, v := range vals {
		var err error
		if s, _, err = s.Add(a, v); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// check compares s with the sorted model and its accounting with the arena's.
func check(t testing.TB, a *alloc.Arena, s Intset, model []int64) {
	t.Helper()
	b := s.Bytes(a)
	if Len(b) != len(model) {
		t.Fatalf("Len %d, want %d", Len(b), len(model))
	}
	for i, v := range model {
		if Get(b, i) != v {
			t.Fatalf("Get(%d) = %d, want %d", i, Get(b, i), v)
		}
	}
	if len(model) > 0 {
		if err := Validate(b, true); err != nil {
			t.Fatalf("Validate: %v", err)
		}
	}
	if a.Used() != int64(s.AllocSize(a)) || s.AllocSize(a) != alloc.UsableSize(BlobLen(b)) {
		t.Fatalf("arena charged %d, intset %d for %d bytes", a.Used(), s.AllocSize(a), BlobLen(b))
	}
}

// TestRedisBytesGolden holds blobs from redis-server 7.0.15's DUMP of SADD sets.
func TestRedisBytesGolden(t *testing.T) {
	cases := []struct {
		vals []int64
		hex  string
	}{
		{[]int64{1, 2, 3}, "0200000003000000010002000300"},
		{[]int64{5, -40000, 1}, "0400000003000000c063ffff0100000005000000"},
		{[]int64{5, -40000, 1, 9000000000}, "0800000004000000c063ffffffffffff01000000000000000500000000000000001a711802000000"},
	}
	for _, c := range cases {
		a := newArena(t)
		want, _ := hex.DecodeString(c.hex)
		if got := build(t, a, c.vals...).Bytes(a); !bytes.Equal(got, want) {
			t.Errorf("%v:\nours    % x\nredis's % x", c.vals, got, want)
		}
	}
}

// TestRedisSetBytes runs SADD/SREM sequences on redis-server and on an Intset, and compares the
// DUMP blob (type 11) with our bytes; then reads Redis's blob.
func TestRedisSetBytes(t *testing.T) {
	rc := redisref.Start(t)
	widths := []int64{0, 1, -1, math.MaxInt16, math.MinInt16, math.MaxInt16 + 1, math.MinInt16 - 1,
		math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MinInt32 - 1, math.MaxInt64, math.MinInt64}
	cases := map[string][]string{
		"16-bit":            {"SADD s 3 1 2 -7 32767 -32768"},
		"upgrade to 32 up":  {"SADD s 3 1 2", "SADD s 40000"},
		"upgrade to 32 low": {"SADD s 3 1 2", "SADD s -40000"},
		"upgrade to 64":     {"SADD s 3 -40000", "SADD s 5000000000", "SADD s -5000000000"},
		"remove keeps width": {"SADD s 1 2 3 9223372036854775807", "SREM s 9223372036854775807",
			"SREM s 2"},
		"duplicates": {"SADD s 5 5 5 4", "SADD s 4"},
	}
	var all []string
	for _, v := range widths {
		all = append(all, "SADD s "+strconv.FormatInt(v, 10))
	}
	cases["every width"] = all
	r := rand.New(rand.NewPCG(7, 7))
	var randomOps []string
	for i := 0; i < 300; i++ {
		op := "SADD"
		if r.IntN(3) == 0 {
			op = "SREM"
		}
		randomOps = append(randomOps, fmt.Sprintf("%s s %d", op, r.Int64N(2000)-1000))
	}
	randomOps = append(randomOps, "SADD s 1")
	cases["random"] = randomOps
	var many []string
	for i := 0; i < 512; i++ { // set-max-intset-entries: the largest intset by default
		many = append(many, fmt.Sprintf("SADD s %d", (i*7919%512-256)*100003))
	}
	cases["512 members"] = many
	for name, cmds := range cases {
		t.Run(name, func(t *testing.T) {
			rc.Do("DEL", "s")
			a := newArena(t)
			s := New(a)
			model := map[int64]bool{}
			for _, line := range cmds {
				args := bytes.Fields([]byte(line))
				sargs := make([]string, len(args))
				for i := range args {
					sargs[i] = string(args[i])
				}
				if e, ok := rc.Do(sargs...).(error); ok {
					t.Fatalf("%s: %v", line, e)
				}
				for _, w := range sargs[2:] {
					v, _ := strconv.ParseInt(w, 10, 64)
					var err error
					if sargs[0] == "SADD" {
						s, _, err = s.Add(a, v)
						model[v] = true
					} else {
						s, _, err = s.Remove(a, v)
						delete(model, v)
					}
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			typ, blob := rc.DumpBlob("s")
			if typ != 11 {
				t.Fatalf("DUMP type %d, want 11 (intset)", typ)
			}
			if got := s.Bytes(a); !bytes.Equal(got, blob) {
				t.Fatalf("bytes differ:\nours    % x\nredis's % x", got, blob)
			}
			if err := Validate(blob, true); err != nil {
				t.Fatalf("Validate(redis's blob): %v", err)
			}
			var want []int64
			for v := range model {
				want = append(want, v)
			}
			slices.Sort(want)
			for i, v := range want {
				if Get(blob, i) != v || !Find(blob, v) {
					t.Fatalf("redis's blob at %d reads %d, want %d", i, Get(blob, i), v)
				}
			}
			s.Free(a)
			if a.Used() != 0 {
				t.Fatalf("%d bytes charged after Free", a.Used())
			}
		})
	}
}

func TestAddRemoveFind(t *testing.T) {
	a := newArena(t)
	s := build(t, a, 5, 1, 3)
	check(t, a, s, []int64{1, 3, 5})
	if Encoding(s.Bytes(a)) != Enc16 {
		t.Fatal("not 16-bit")
	}
	s, added, _ := s.Add(a, 3)
	if added {
		t.Fatal("added a member twice")
	}
	s, _, _ = s.Add(a, math.MinInt64)
	check(t, a, s, []int64{math.MinInt64, 1, 3, 5})
	if Encoding(s.Bytes(a)) != Enc64 {
		t.Fatal("not upgraded to 64-bit")
	}
	for _, v := range []int64{math.MinInt64, 1, 3, 5} {
		if !Find(s.Bytes(a), v) {
			t.Errorf("Find(%d) false", v)
		}
	}
	for _, v := range []int64{0, 2, 4, 6, math.MaxInt64, -1} {
		if Find(s.Bytes(a), v) {
			t.Errorf("Find(%d) true", v)
		}
	}
	s, removed, _ := s.Remove(a, math.MinInt64)
	if !removed || Encoding(s.Bytes(a)) != Enc64 {
		t.Fatal("Remove failed or downgraded")
	}
	s, removed, _ = s.Remove(a, 4)
	if removed {
		t.Fatal("removed a non-member")
	}
	check(t, a, s, []int64{1, 3, 5})
	if Min(s.Bytes(a)) != 1 || Max(s.Bytes(a)) != 5 {
		t.Fatal("Min/Max wrong")
	}
	r := rand.New(rand.NewPCG(1, 1))
	seen := map[int64]bool{}
	for i := 0; i < 100; i++ {
		seen[Random(s.Bytes(a), r.IntN)] = true
	}
	if len(seen) != 3 || !seen[1] || !seen[3] || !seen[5] {
		t.Fatalf("Random picked %v", seen)
	}
	// A 16-bit set does not hold a 32-bit value: Find and Remove say no without searching.
	s16 := build(t, a, 1, 2)
	if Find(s16.Bytes(a), 1<<20) {
		t.Fatal("found a wider value")
	}
	s.Free(a)
	s16.Free(a)
}

func TestValidateRejects(t *testing.T) {
	good, _ := hex.DecodeString("0400000003000000c063ffff0100000005000000")
	if err := Validate(good, true); err != nil {
		t.Fatal(err)
	}
	bad := map[string]func([]byte) []byte{
		"short":      func(b []byte) []byte { return b[:7] },
		"encoding":   func(b []byte) []byte { b[0] = 3; return b },
		"length":     func(b []byte) []byte { b[4] = 4; return b },
		"extra byte": func(b []byte) []byte { return append(b, 0) },
		"empty":      func([]byte) []byte { return []byte{2, 0, 0, 0, 0, 0, 0, 0} },
		"order":      func(b []byte) []byte { b[12] = 9; return b },
		"duplicate":  func(b []byte) []byte { copy(b[16:], b[12:16]); return b },
		"huge count": func(b []byte) []byte { b[7] = 0x80; return b },
	}
	for name, f := range bad {
		if err := Validate(f(append([]byte(nil), good...)), true); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// Order is a deep check only.
	b := append([]byte(nil), good...)
	b[12] = 9
	if err := Validate(b, false); err != nil {
		t.Errorf("shallow check looked at the order: %v", err)
	}
}

// FuzzModel applies random Add and Remove calls to an Intset and to a sorted []int64.
func FuzzModel(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 1, 1, 0, 200, 0, 3, 7})
	f.Add([]byte{0, 9, 9, 0, 250, 1, 1, 250, 0, 5})
	f.Fuzz(func(t *testing.T, ops []byte) {
		a := alloc.MustNewArena(1 << 30)
		defer a.Close()
		next := func() byte {
			if len(ops) == 0 {
				return 0
			}
			b := ops[0]
			ops = ops[1:]
			return b
		}
		s := New(a)
		var model []int64
		maxEnc := Enc16
		for len(ops) > 0 {
			op, b, c := next(), next(), next()
			// Values of every width, and many small ones so that removals hit.
			v := int64(int8(c)) << (8 * (b % 8))
			if b%3 == 0 {
				v = int64(int8(c))
			}
			var changed bool
			var err error
			i, found := slices.BinarySearch(model, v)
			if op%3 == 0 { // remove
				s, changed, err = s.Remove(a, v)
				if found {
					model = slices.Delete(model, i, i+1)
				}
			} else {
				s, changed, err = s.Add(a, v)
				if !found {
					model = slices.Insert(model, i, v)
				}
				maxEnc = max(maxEnc, valueEncoding(v))
			}
			if err != nil {
				t.Fatal(err)
			}
			remove := op%3 == 0
			if wantChanged := found == remove; changed != wantChanged {
				t.Fatalf("op %d on %d: changed %v, model had it %v", op%3, v, changed, found)
			}
			check(t, a, s, model)
			if Encoding(s.Bytes(a)) != maxEnc {
				t.Fatalf("encoding %d, want %d", Encoding(s.Bytes(a)), maxEnc)
			}
			if Find(s.Bytes(a), v) != (op%3 != 0) {
				t.Fatalf("Find(%d) after op %d wrong", v, op%3)
			}
		}
		s.Free(a)
		if a.Used() != 0 {
			t.Fatalf("%d bytes charged after Free", a.Used())
		}
	})
}

// FuzzValidate: whatever Validate accepts must read whole, sorted, without a panic.
func FuzzValidate(f *testing.F) {
	f.Add([]byte("\x02\x00\x00\x00\x03\x00\x00\x00\x01\x00\x02\x00\x03\x00"))
	f.Add([]byte("\x08\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := Validate(b, true); err != nil {
			return
		}
		n := Len(b)
		for i := 0; i < n; i++ {
			v := Get(b, i)
			if i > 0 && Get(b, i-1) >= v {
				t.Fatalf("accepted unsorted members")
			}
			if !Find(b, v) {
				t.Fatalf("Find(%d) false on an accepted intset", v)
			}
		}
	})
}
