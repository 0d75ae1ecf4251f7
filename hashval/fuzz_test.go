package hashval

import (
	"bytes"
	"maps"
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// fuzzString draws a field or value: repeats (for overwrites and deletes), integers (listpack
// integer entries), and lengths on both sides of the lowered value limit.
func fuzzString(next func() byte) string {
	b, c := next(), next()
	switch b % 5 {
	case 0:
		return "k" + strconv.Itoa(int(c)%12)
	case 1:
		return strconv.Itoa(int(int8(c)) * 1000)
	case 2:
		return string(bytes.Repeat([]byte{'a' + c%3}, int(c)%14))
	case 3:
		return string(bytes.Repeat([]byte{'z'}, 200+int(c)))
	default:
		return ""
	}
}

// FuzzModel applies random HSET/HDEL/TryConversion sequences to a hash and to a map, with
// limits lowered to 8 entries and 10 bytes so both encodings and every conversion happen, and
// checks after each step that the hash reads as the map, is well formed, and is charged what
// MemoryUsage says; freeing it returns every byte.
func FuzzModel(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 2, 0, 3, 5, 1, 0, 4, 4, 0, 9, 3, 3, 1, 0, 2})
	f.Add(bytes.Repeat([]byte{0, 0, 7, 2, 9}, 30))
	f.Add(bytes.Repeat([]byte{0, 0, 3, 1, 0, 5, 0, 3, 1, 0, 5, 1, 0, 3}, 10))
	f.Fuzz(func(t *testing.T, ops []byte) {
		SetLimits(8, 10)
		defer SetLimits(DefaultMaxListpackEntries, DefaultMaxListpackValue)
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
		rec, err := New(a, []byte("key"), 0)
		if err != nil {
			t.Fatal(err)
		}
		model := map[string]string{}
		wasTable := false
		for len(ops) > 0 {
			switch next() % 4 {
			case 0, 1:
				k, v := fuzzString(next), fuzzString(next)
				_, had := model[k]
				added, err := Set(a, rec, []byte(k), []byte(v))
				if err != nil || added == had {
					t.Fatalf("Set(%q): added %v err %v, had %v", k, added, err, had)
				}
				model[k] = v
			case 2:
				k := fuzzString(next)
				_, had := model[k]
				ok, err := Delete(a, rec, []byte(k))
				if err != nil || ok != had {
					t.Fatalf("Delete(%q) = %v %v, had %v", k, ok, err, had)
				}
				delete(model, k)
			case 3:
				pairs, longest := int(next()%12), int(next()%16)
				if err := TryConversion(a, rec, pairs, longest, pairs*longest); err != nil {
					t.Fatal(err)
				}
			}
			table := object.EncodingOf(a, rec) == object.EncHashtable
			if wasTable && !table {
				t.Fatal("a hashtable went back to a listpack")
			}
			wasTable = table
			if err := Check(a, rec); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			Each(a, rec, nil, func(f, v []byte) bool { got[string(f)] = string(v); return true })
			if !maps.Equal(got, model) || Len(a, rec) != len(model) {
				t.Fatalf("hash %v, model %v", got, model)
			}
			for k, v := range model {
				if g, ok := Get(a, rec, []byte(k), nil); !ok || string(g) != v {
					t.Fatalf("Get(%q) = %q %v", k, g, ok)
				}
			}
			if mu := object.MemoryUsage(a, rec); mu != int(a.Used()) {
				t.Fatalf("MemoryUsage %d, charged %d", mu, a.Used())
			}
		}
		object.Free(a, rec)
		if a.Used() != 0 {
			t.Fatalf("%d bytes left", a.Used())
		}
	})
}
