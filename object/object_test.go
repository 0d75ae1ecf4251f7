package object

import (
	"bytes"
	"fmt"
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

func TestEmbedsBoundaries(t *testing.T) {
	a := newArena(t)
	for _, keyLen := range []int{1, 16, 18, 32, 100} {
		for _, withExpire := range []bool{false, true} {
			limit := MaxEmbeddedRecord - headerSize - keyLen // longest embedded value
			if withExpire {
				limit -= expireSize
			}
			key := bytes.Repeat([]byte{'k'}, keyLen)
			var exp int64
			if withExpire {
				exp = 1e12
			}
			for _, valLen := range []int{limit, limit + 1} {
				want := valLen == limit
				if got := Embeds(keyLen, valLen, withExpire, WriteSet); got != want {
					t.Errorf("Embeds(key %d, val %d, expire %v) = %v", keyLen, valLen, withExpire, got)
				}
				if Embeds(keyLen, valLen, withExpire, WriteGrow) {
					t.Errorf("a growing write embeds (key %d, val %d)", keyLen, valLen)
				}
				h, err := NewString(a, key, bytes.Repeat([]byte{'v'}, valLen), exp, WriteSet)
				if err != nil {
					t.Fatal(err)
				}
				enc := EncodingOf(a, h)
				if (enc == EncEmbstr) != want || (!want && enc != EncRaw) {
					t.Errorf("key %d val %d expire %v: encoding %s", keyLen, valLen, withExpire, enc.Name())
				}
				if want && Size(a, h) > MaxEmbeddedRecord {
					t.Errorf("embedded record of %d bytes", Size(a, h))
				}
				Free(a, h)
			}
		}
	}
	if a.Used() != 0 {
		t.Fatalf("Used %d after freeing all", a.Used())
	}
}

func TestTheTargetRecord(t *testing.T) {
	a := newArena(t)
	key := []byte("key:0000000000001") // 18 bytes with the trailing digit below
	key = append(key, '7')
	val := bytes.Repeat([]byte{'x'}, 85)
	h, _ := NewString(a, key, val, 0, WriteSet)
	if Size(a, h) != 112 || EncodingOf(a, h) != EncEmbstr || MemoryUsage(a, h) != 112 {
		t.Fatalf("18/85 record: %d bytes, %s", Size(a, h), EncodingOf(a, h).Name())
	}
	if !bytes.Equal(Key(a, h), key) || !bytes.Equal(Value(a, h, nil), val) {
		t.Fatal("key or value read back wrong")
	}
	h2, _ := SetExpire(a, h, 1234)
	if Size(a, h2) != 120 || EncodingOf(a, h2) != EncEmbstr {
		t.Fatalf("with expire: %d bytes, %s", Size(a, h2), EncodingOf(a, h2).Name())
	}
	if ms, ok := Expire(a, h2); !ok || ms != 1234 || !bytes.Equal(Value(a, h2, nil), val) {
		t.Fatalf("expire %d %v", ms, ok)
	}
	Free(a, h2)
	if a.Used() != 0 {
		t.Fatalf("Used %d", a.Used())
	}
}

func TestExpireSlotReservedWhenTheClassHasRoom(t *testing.T) {
	a := newArena(t)
	short, long := []byte("user:1000"), bytes.Repeat([]byte{'k'}, 140)
	// Below 128 bytes the classes step by 8, so no record has 8 spare bytes: 8 + 9 + 20 = 37 →
	// 40 and 8 + 9 + 70 = 87 → 88 move when they get an expire. Above, the classes step by
	// 32: a 140-byte key with a raw value is 8 + 140 + 4 = 152 → 160, 8 spare: slot; a 145-byte
	// key is 157 → 160 and a 180-byte key 192 → 192: no room, they move.
	for _, c := range []struct {
		key    []byte
		valLen int
		inSlot bool
	}{{short, 20, false}, {short, 70, false}, {long, 200, true}, {bytes.Repeat([]byte{'k'}, 145), 200, false}, {bytes.Repeat([]byte{'k'}, 180), 200, false}} {
		h, _ := NewString(a, c.key, bytes.Repeat([]byte{'v'}, c.valLen), 0, WriteSet)
		before := Size(a, h)
		nh, err := SetExpire(a, h, 99)
		if err != nil {
			t.Fatal(err)
		}
		if (nh == h) != c.inSlot {
			t.Errorf("key %d, value %d bytes (record %d): moved %v, want in place %v", len(c.key), c.valLen, before, nh != h, c.inSlot)
		}
		if c.inSlot && Size(a, nh) != before {
			t.Errorf("value %d bytes: size changed %d → %d", c.valLen, before, Size(a, nh))
		}
		ClearExpire(a, nh)
		if _, ok := Expire(a, nh); ok {
			t.Error("ClearExpire left an expire")
		}
		Free(a, nh)
	}
	if a.Used() != 0 {
		t.Fatalf("Used %d", a.Used())
	}
}

func TestEncodingTransitions(t *testing.T) {
	a := newArena(t)
	key := []byte("counter")
	h, _ := NewString(a, key, []byte("41"), 0, WriteSet)
	if EncodingOf(a, h) != EncInt {
		t.Fatalf("canonical int stored as %s", EncodingOf(a, h).Name())
	}
	v, ok := IntValue(a, h)
	h, _ = SetInt(a, h, v+1)
	if string(Value(a, h, make([]byte, 0, 20))) != "42" || !ok {
		t.Fatal("SetInt")
	}
	h, n, _ := Append(a, h, []byte("abc")) // APPEND makes it raw whatever its size
	if EncodingOf(a, h) != EncRaw || n != 5 || string(Value(a, h, nil)) != "42abc" {
		t.Fatalf("after APPEND: %s %q", EncodingOf(a, h).Name(), Value(a, h, nil))
	}
	h, n, _ = SetRange(a, h, 8, []byte("Z"))
	if n != 9 || string(Value(a, h, nil)) != "42abc\x00\x00\x00Z" {
		t.Fatalf("SETRANGE: %q", Value(a, h, nil))
	}
	if _, isInt := IntValue(a, h); isInt {
		t.Fatal("a non-integer read as int")
	}
	Free(a, h)
	// The next SET embeds again: a SET builds a new record.
	h, _ = NewString(a, key, []byte("hello"), 0, WriteSet)
	if EncodingOf(a, h) != EncEmbstr {
		t.Fatalf("SET after APPEND: %s", EncodingOf(a, h).Name())
	}
	h, _, _ = SetRange(a, h, 0, []byte("J"))
	if EncodingOf(a, h) != EncRaw || string(Value(a, h, nil)) != "Jello" {
		t.Fatal("SETRANGE on embstr")
	}
	h, _ = SetInt(a, h, -7)
	if EncodingOf(a, h) != EncInt || ValueLen(a, h) != 2 {
		t.Fatal("SetInt on raw")
	}
	Free(a, h)
	if a.Used() != 0 {
		t.Fatalf("Used %d", a.Used())
	}
}

func TestLongKeysAndValues(t *testing.T) {
	a := newArena(t)
	for _, keyLen := range []int{0, 254, 255, 256, 70000} {
		for _, valLen := range []int{0, 1, 300, 50000} {
			key := bytes.Repeat([]byte{'k'}, keyLen)
			val := bytes.Repeat([]byte{'v'}, valLen)
			h, err := NewString(a, key, val, int64(keyLen+1), WriteSet)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(Key(a, h), key) || !bytes.Equal(Value(a, h, nil), val) {
				t.Fatalf("key %d val %d: read back wrong", keyLen, valLen)
			}
			if ms, ok := Expire(a, h); !ok || ms != int64(keyLen+1) {
				t.Fatalf("key %d: expire %d", keyLen, ms)
			}
			Free(a, h)
		}
	}
	if a.Used() != 0 {
		t.Fatalf("Used %d", a.Used())
	}
}

func TestCanonicalInt(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-1": true, "123": true, "9223372036854775807": true, "-9223372036854775808": true,
		"": false, "01": false, "-0": false, "+1": false, " 1": false, "1 ": false, "1.0": false,
		"9223372036854775808": false, "-": false, "00": false, "abc": false,
	} {
		if _, got := CanonicalInt([]byte(s)); got != want {
			t.Errorf("CanonicalInt(%q) = %v", s, got)
		}
	}
}

func TestLRU(t *testing.T) {
	a := newArena(t)
	h, _ := NewString(a, []byte("k"), []byte("v"), 0, WriteSet)
	SetLRU(a, h, 0x1abcdef)
	if LRU(a, h) != 0xabcdef {
		t.Fatalf("LRU %#x", LRU(a, h))
	}
	Free(a, h)
}

// TestRandomMutationsKeepAccounting creates, mutates and frees records at random against a
// model and checks values, and that the arena's accounting returns to zero.
func TestRandomMutationsKeepAccounting(t *testing.T) {
	a := newArena(t)
	rng := rand.New(rand.NewPCG(1, 2))
	type rec struct {
		h   alloc.Handle
		key []byte
		val []byte
	}
	var recs []rec
	randBytes := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return b
	}
	for step := 0; step < 20000; step++ {
		if len(recs) == 0 || rng.IntN(4) == 0 {
			key := randBytes(rng.IntN(40))
			var val []byte
			if rng.IntN(3) == 0 {
				val = []byte(strconv.Itoa(rng.IntN(2000) - 1000))
			} else {
				val = randBytes([]int{0, 10, 85, 110, 200, 5000, 40000}[rng.IntN(7)])
			}
			var exp int64
			if rng.IntN(2) == 0 {
				exp = int64(rng.IntN(1e6) + 1)
			}
			h, err := NewString(a, key, val, exp, WriteSet)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec{h, key, val})
			continue
		}
		i := rng.IntN(len(recs))
		r := &recs[i]
		var err error
		switch rng.IntN(6) {
		case 0:
			Free(a, r.h)
			recs = append(recs[:i], recs[i+1:]...)
			continue
		case 1:
			tail := randBytes(rng.IntN(300))
			r.h, _, err = Append(a, r.h, tail)
			r.val = append(r.val, tail...)
		case 2:
			off := rng.IntN(len(r.val) + 10)
			p := randBytes(rng.IntN(20))
			r.h, _, err = SetRange(a, r.h, off, p)
			if end := off + len(p); end > len(r.val) {
				r.val = append(r.val, make([]byte, end-len(r.val))...)
			}
			copy(r.val[off:], p)
		case 3:
			v := rng.Int64()
			r.h, err = SetInt(a, r.h, v)
			r.val = []byte(strconv.FormatInt(v, 10))
		case 4:
			r.h, err = SetExpire(a, r.h, int64(rng.IntN(1e9)))
		default:
			ClearExpire(a, r.h)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(Key(a, r.h), r.key) || !bytes.Equal(Value(a, r.h, nil), r.val) {
			t.Fatalf("step %d: record %d reads %q / %q", step, i, Key(a, r.h), Value(a, r.h, nil))
		}
	}
	var want int64
	for _, r := range recs {
		want += int64(MemoryUsage(a, r.h))
	}
	if a.Used() != want {
		t.Fatalf("arena charges %d, records say %d", a.Used(), want)
	}
	for _, r := range recs {
		Free(a, r.h)
	}
	if a.Used() != 0 {
		t.Fatalf("Used %d after freeing all", a.Used())
	}
}

func BenchmarkNewStringFree(b *testing.B) {
	a := alloc.MustNewArena(0)
	defer a.Close()
	key := []byte(fmt.Sprintf("key:%014d", 1))
	val := bytes.Repeat([]byte{'x'}, 85)
	b.ReportAllocs()
	for b.Loop() {
		h, _ := NewString(a, key, val, 0, WriteSet)
		Free(a, h)
	}
}

func BenchmarkValue(b *testing.B) {
	a := alloc.MustNewArena(0)
	defer a.Close()
	h, _ := NewString(a, []byte("key:00000000000001"), bytes.Repeat([]byte{'x'}, 85), 0, WriteSet)
	dst := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		dst = append(dst[:0], Value(a, h, nil)...)
	}
}
