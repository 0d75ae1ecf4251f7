package zsetval

import (
	"fmt"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// TestOutOfMemory fills a small arena with members of growing length until Add fails, and
// checks that every failure is object.ErrOOM with the set unchanged and well formed, in both
// encodings and across the conversion; freeing returns every byte.
func TestOutOfMemory(t *testing.T) { bothEncodings(t, testOutOfMemory) }

func testOutOfMemory(t *testing.T) {
	a, err := alloc.NewArena(16 << 20)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rec, err := New(a, []byte("z"), 1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := model{}
	failures := 0
	for i := 0; failures < 5 && i < 1_000_000; i++ {
		mem := fmt.Sprintf("member:%08d", i)
		score := float64(i%1000) / 3
		_, _, err := Add(a, rec, []byte(mem), score, 0)
		if err != nil {
			if err != object.ErrOOM {
				t.Fatal(err)
			}
			failures++
		} else {
			m[mem] = score
		}
		if err != nil || i%5000 == 0 {
			if Len(a, rec) != len(m) {
				t.Fatalf("after %d adds: Len %d, model %d", i, Len(a, rec), len(m))
			}
			if err := Check(a, rec); err != nil {
				t.Fatal(err)
			}
			// An update of a member's score and a removal may fail too, never half done.
			for k, s := range m {
				if _, _, err := Add(a, rec, []byte(k), s+1, 0); err == nil {
					m[k] = s + 1
				}
				break
			}
		}
	}
	if failures == 0 {
		t.Fatal("the arena never filled")
	}
	t.Logf("%d members, %s, %d failed adds, arena charged %d", len(m), Encoding(a, rec).Name(), failures, a.Used())
	if err := Check(a, rec); err != nil {
		t.Fatal(err)
	}
	for k, s := range m {
		if got, ok := Score(a, rec, []byte(k)); !ok || got != s {
			t.Fatalf("Score(%q) = %v %v, model %v", k, got, ok, s)
		}
	}
	object.Free(a, rec)
	if a.Used() != 0 {
		t.Fatalf("%d bytes left", a.Used())
	}
}
