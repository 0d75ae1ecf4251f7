package setval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// FuzzSet drives a set through adds, removes, pops and SPOP counts against a map, with small
// limits taken from the input so that every conversion happens, and checks after each step
// the members, the length, and that the encoding is one the rules allow; at the end the set
// frees to nothing.
func FuzzSet(f *testing.F) {
	f.Add([]byte{4, 3, 5, 0, 1, 0, 2, 1, 3, 4, 7, 2, 9, 3, 2})
	f.Add([]byte{8, 8, 8, 0, 200, 0, 201, 0, 1, 1, 200, 4, 5})
	f.Add([]byte("\x02\x02\x02aaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		is, lpe, lpv := int64(data[0]%16), int64(data[1]%16), int64(data[2]%8)
		withLimits(t, is, lpe, lpv)
		data = data[3:]
		a := newArena(t)
		model := map[string]bool{}
		var rec = alloc0
		member := func(b byte) string {
			switch b % 4 {
			case 0:
				return strconv.Itoa(int(b) - 128) // integers, some negative
			case 1:
				return strconv.Itoa(int(b) * 1000003) // wider integers
			case 2:
				return strings.Repeat("x", int(b%11)) // strings around the value limit
			}
			return fmt.Sprintf("m%d", b)
		}
		for len(data) >= 2 {
			op, arg := data[0]%5, data[1]
			data = data[2:]
			m := member(arg)
			if rec == alloc0 {
				if op != 0 {
					continue
				}
				var err error
				if rec, err = New(a, []byte("k"), []byte(m), int(arg%20), 0); err != nil {
					t.Fatal(err)
				}
				if err := MaybeConvert(a, rec, int(arg%20)); err != nil {
					t.Fatal(err)
				}
			}
			switch op {
			case 0:
				added, err := Add(a, rec, []byte(m))
				if err != nil || added == model[m] {
					t.Fatalf("Add(%q) = %v %v, model has it: %v", m, added, err, model[m])
				}
				model[m] = true
			case 1:
				removed, _ := Remove(a, rec, []byte(m))
				if removed != model[m] {
					t.Fatalf("Remove(%q) = %v", m, removed)
				}
				delete(model, m)
			case 2:
				if IsMember(a, rec, []byte(m)) != model[m] {
					t.Fatalf("IsMember(%q)", m)
				}
			case 3:
				if len(model) > 0 {
					p, err := Pop(a, rec, nil)
					if err != nil || !model[string(p)] {
						t.Fatalf("Pop = %q %v", p, err)
					}
					delete(model, string(p))
				}
			case 4:
				if n := int(arg) % (len(model) + 1); n > 0 && n < len(model) {
					err := PopCount(a, rec, n, func(p []byte) {
						if !model[string(p)] {
							t.Fatalf("PopCount gave %q", p)
						}
						delete(model, string(p))
					})
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			check(t, a, rec, model, is, lpe, lpv)
		}
		if rec != alloc0 {
			object.Free(a, rec)
		}
		if a.Used() != 0 {
			t.Fatalf("Used() = %d after Free", a.Used())
		}
	})
}

const alloc0 alloc.Handle = 0

func check(t *testing.T, a *alloc.Arena, rec alloc.Handle, model map[string]bool, is, lpe, lpv int64) {
	t.Helper()
	got := sortedMembers(a, rec)
	var want []string
	for m := range model {
		want = append(want, m)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) || Len(a, rec) != len(want) {
		t.Fatalf("members %q, want %q (Len %d)", got, want, Len(a, rec))
	}
	switch Encoding(a, rec) {
	case object.EncIntset:
		for _, m := range got {
			if _, ok := isInteger([]byte(m)); !ok {
				t.Fatalf("%q in an intset", m)
			}
		}
		if int64(len(got)) > is {
			t.Fatalf("intset of %d members, limit %d", len(got), is)
		}
	case object.EncListpack:
		if int64(len(got)) > max(lpe, 0) && len(got) > 0 {
			// SPOP's survivors may be a listpack made by the usual rules: never past the limits.
			t.Fatalf("listpack of %d members, limit %d", len(got), lpe)
		}
		for _, m := range got {
			if int64(len(m)) > lpv {
				t.Fatalf("listpack member %q past the value limit %d", m, lpv)
			}
		}
	}
}
