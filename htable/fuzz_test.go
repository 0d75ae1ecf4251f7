package htable

import (
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// FuzzTable runs a program of table operations against a Go map (the harness's model). Each
// operation is two bytes: an opcode (its low 3 bits) with a field bank (its high bits), and a
// field index: up to 2,048 distinct fields, so a program of a few thousand operations grows and
// shrinks the table through its resize phases, and scans (with the SCAN guarantee checked at
// the end of each), each (with a full check), random draws and idle rehashes land inside them.
func FuzzTable(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0, 3, 1, 2, 2, 1, 3, 0, 4, 0})
	f.Add(func() []byte {
		var p []byte
		for i := range 600 {
			p = append(p, 0, byte(i), 0, byte(i*7))
		}
		for i := range 600 {
			p = append(p, 2, byte(i*3))
		}
		return p
	}())
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) > 8<<10 {
			prog = prog[:8<<10] // 4,096 operations: enough for every resize phase, fast enough to fuzz
		}
		fuzzTable(t, newTableHarness(t), prog)
		fuzzTable(t, newRootedHarness(t), prog)
	})
}

// fuzzTable runs prog on th's table: a table made by New, or one rooted in the arena, which
// every harness operation opens a new view of.
func fuzzTable(t *testing.T, th *tableHarness, prog []byte) {
	{
		field := func(b byte, hi int) []byte { return key(int(b) + 256*hi) }
		var cursor uint64
		seen := map[string]bool{}
		present := map[string]bool{} // present since the scan started
		for k := range th.model {
			present[k] = true
		}
		for i := 0; i+1 < len(prog); i += 2 {
			op, x := prog[i]%8, prog[i+1]
			k := field(x, int(prog[i]>>3)%8) // up to 2,048 distinct fields
			switch op {
			case 0, 1: // insert or replace
				if _, ok := th.model[string(k)]; ok {
					th.replace(k)
				} else {
					th.insert(k)
				}
			case 2: // delete
				th.delete(k)
				delete(present, string(k))
			case 3:
				th.lookup(k)
			case 4: // one SCAN call; at the end of a scan the guarantee is checked
				cursor = th.tab.Scan(cursor, func(h alloc.Handle) { seen[string(entryField(th.a, h))] = true })
				if cursor == 0 {
					for k := range present {
						if !seen[k] {
							t.Fatalf("%q, present for the whole scan, not returned", k)
						}
					}
					clear(seen)
					clear(present)
					for k := range th.model {
						present[k] = true
					}
				}
			case 5:
				h, ok := th.tab.Random()
				if ok != (len(th.model) > 0) {
					t.Fatalf("random: %v with %d entries", ok, len(th.model))
				}
				if ok && th.model[string(entryField(th.a, h))] != h {
					t.Fatalf("random returned an entry not in the model")
				}
			case 6:
				th.tab.Rehash(int(x))
			case 7:
				n := 0
				th.tab.Each(func(alloc.Handle) { n++ })
				if n != len(th.model) {
					t.Fatalf("each: %d entries, model %d", n, len(th.model))
				}
				th.check()
			}
		}
		th.check()
		if th.root != 0 {
			th.tab.Destroy(func(h alloc.Handle) { freeEntry(th.a, h) })
		} else {
			th.tab.Clear(func(h alloc.Handle) { freeEntry(th.a, h) })
		}
		if used := th.a.Used(); used != 0 {
			t.Fatalf("after Clear (or Destroy) the arena uses %d bytes", used)
		}
	}
}
