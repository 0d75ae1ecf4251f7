package listpack

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"testing"

	"github.com/kvserver/kvserver/alloc"
)

// fuzzValue draws an element from every encoding: integers of each width (and strings that
// look like integers but are not canonical), and strings of lengths around each boundary.
func fuzzValue(next func() byte) string {
	b, c := next(), next()
	switch b % 8 {
	case 0:
		return strconv.Itoa(int(c)) // 7-bit and 13-bit
	case 1:
		return strconv.Itoa(-int(c) * 37) // 13-bit negatives
	case 2:
		return strconv.FormatInt(int64(int8(c))<<(2*int(b>>3)), 10) // wider integers
	case 3:
		return []string{"", "-0", "0123", "+1", " 1", "-", "9223372036854775808",
			"-9223372036854775808", "9223372036854775807"}[c%9]
	case 4:
		return string(bytes.Repeat([]byte{'a' + c%26}, int(c)%70)) // 6-bit and 12-bit
	case 5:
		return string(bytes.Repeat([]byte{'z'}, 4090+int(c)%10)) // 12-bit / 32-bit
	default:
		return "k" + strconv.Itoa(int(c)%16) // repeats, for Find
	}
}

// FuzzModel applies random sequences of writes to a Listpack and to a []string, and checks
// after each step that the listpack reads as the model and is valid, and that its allocation is
// charged exactly.
func FuzzModel(f *testing.F) {
	f.Add([]byte{0, 0, 5, 0, 1, 3, 4, 7, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{1, 4, 200, 1, 5, 3, 3, 0, 9, 6, 1, 0, 7, 2, 2})
	f.Add(bytes.Repeat([]byte{0, 6, 7}, 40))
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
		l := New(a)
		var model []string
		index := func() int {
			if len(model) == 0 {
				return 0
			}
			return int(next()) % len(model)
		}
		for steps := 0; len(ops) > 0 && steps < 200; steps++ {
			var err error
			switch op := next() % 8; op {
			case 0:
				v := fuzzValue(next)
				l, err = l.Append(a, []byte(v))
				model = append(model, v)
			case 1:
				v := fuzzValue(next)
				l, err = l.Prepend(a, []byte(v))
				model = append([]string{v}, model...)
			case 2, 3:
				if len(model) == 0 {
					continue
				}
				i, v := index(), fuzzValue(next)
				var p int
				if op == 2 {
					l, p, err = l.Insert(a, Seek(l.Bytes(a), i), Before, []byte(v))
				} else {
					l, p, err = l.Insert(a, Seek(l.Bytes(a), i-len(model)), After, []byte(v))
					i++
				}
				model = append(model[:i], append([]string{v}, model[i:]...)...)
				if err == nil && string(AppendValue(nil, l.Bytes(a), p)) != v {
					t.Fatalf("Insert returned an offset that reads %q", AppendValue(nil, l.Bytes(a), p))
				}
			case 4:
				if len(model) == 0 {
					continue
				}
				i, v := index(), fuzzValue(next)
				l, _, err = l.Replace(a, Seek(l.Bytes(a), i), []byte(v))
				model[i] = v
			case 5:
				if len(model) == 0 {
					continue
				}
				i := index()
				var p int
				l, p, err = l.Delete(a, Seek(l.Bytes(a), i))
				model = append(model[:i], model[i+1:]...)
				if i < len(model) && (p < 0 || string(AppendValue(nil, l.Bytes(a), p)) != model[i]) {
					t.Fatalf("Delete returned offset %d, want entry %d", p, i)
				}
				if i == len(model) && p != -1 {
					t.Fatalf("Delete of the last returned %d", p)
				}
			case 6:
				i, n := index(), int(next()%4)
				l, err = l.DeleteRange(a, i, n)
				if len(model) > 0 {
					model = append(model[:i], model[min(i+n, len(model)):]...)
				}
			case 7:
				v := fuzzValue(next)
				skip := int(next() % 2)
				b := l.Bytes(a)
				p := -1
				if First(b) >= 0 {
					p = Find(b, First(b), []byte(v), skip)
				}
				want := -1
				for i := 0; i < len(model); i += 1 + skip {
					if model[i] == v {
						want = i
						break
					}
				}
				if (p < 0) != (want < 0) || (want >= 0 && p != Seek(b, want)) {
					t.Fatalf("Find(%q, skip %d) = %d, model index %d", v, skip, p, want)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			checkContents(t, a, l, model)
			if a.Used() != int64(l.AllocSize(a)) {
				t.Fatalf("arena charged %d, listpack %d", a.Used(), l.AllocSize(a))
			}
		}
		l.Free(a)
		if a.Used() != 0 {
			t.Fatalf("%d bytes charged after Free", a.Used())
		}
	})
}

// FuzzValidate feeds arbitrary bytes to Validate; whatever it accepts must then be read whole,
// forwards, backwards and by index, without a panic or a read out of bounds.
func FuzzValidate(f *testing.F) {
	a := alloc.MustNewArena(1 << 30)
	l := mustAppend(f, a, New(a), "a", "1", "-300", "hello", "70000", "-9000000000",
		string(bytes.Repeat([]byte("x"), 100)), "")
	f.Add(append([]byte(nil), l.Bytes(a)...))
	f.Add([]byte{7, 0, 0, 0, 0, 0, 0xff})
	f.Add([]byte{12, 0, 0, 0, 0xff, 0xff, 0xf0, 1, 0, 0, 0, 5, 0xff})
	a.Close()
	f.Fuzz(func(t *testing.T, b []byte) {
		// Make the total right half of the time, so that inputs get past the first check.
		fresh := append([]byte(nil), b...)
		if len(fresh) >= 4 && len(fresh)%2 == 0 {
			binary.LittleEndian.PutUint32(fresh, uint32(len(fresh)))
		}
		if err := Validate(fresh, false, nil); err != nil {
			return
		}
		var offsets []int
		if err := Validate(fresh, true, func(p int) bool { offsets = append(offsets, p); return true }); err != nil {
			return
		}
		n := 0
		for p := First(fresh); p >= 0; p = Next(fresh, p) {
			if p != offsets[n] {
				t.Fatalf("walk at %d, validation at %d", p, offsets[n])
			}
			AppendValue(nil, fresh, p)
			n++
		}
		if n != len(offsets) || Len(fresh) != n {
			t.Fatalf("walked %d, validated %d, Len %d", n, len(offsets), Len(fresh))
		}
		for p := Last(fresh); p >= 0; p = Prev(fresh, p) {
			n--
			if p != offsets[n] {
				t.Fatalf("backwards at %d, want %d", p, offsets[n])
			}
		}
		for i := -len(offsets) - 1; i <= len(offsets); i++ {
			Seek(fresh, i)
		}
		if First(fresh) >= 0 {
			Find(fresh, First(fresh), []byte("1"), 1)
		}
	})
}
