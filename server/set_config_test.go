package server

import (
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/setval"
)

// TestSetConfig: CONFIG SET of set-max-intset-entries and set-max-listpack-entries/-value
// moves the points where new writes convert a set. Not parallel: the limits are the
// process's, as they are the server's in Redis.
func TestSetConfig(t *testing.T) {
	s := newFakeClockServer(t, newFakeClock())
	t.Cleanup(func() { setval.SetLimits(512, 128, 64) })
	encodingAfter := func(members ...string) string {
		a := alloc.MustNewArena(1 << 24)
		defer a.Close()
		rec, err := setval.New(a, []byte("s"), []byte(members[0]), 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range members {
			if _, err := setval.Add(a, rec, []byte(m)); err != nil {
				t.Fatal(err)
			}
		}
		return object.EncodingOf(a, rec).Name()
	}
	if got := encodingAfter("1", "2", "3"); got != "intset" {
		t.Fatalf("defaults: %s", got)
	}
	if err := s.cfg.Set([2]string{"set-max-intset-entries", "2"}, [2]string{"set-max-listpack-entries", "3"},
		[2]string{"set-max-listpack-value", "2"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		members []string
		want    string
	}{
		{[]string{"1", "2"}, "intset"},
		{[]string{"1", "2", "3"}, "hashtable"},
		{[]string{"a", "b", "cc"}, "listpack"},
		{[]string{"a", "b", "c", "d"}, "hashtable"},
		{[]string{"abc"}, "hashtable"},
		{[]string{"1", "ab"}, "listpack"},
	} {
		if got := encodingAfter(c.members...); got != c.want {
			t.Errorf("%q: %s, want %s", c.members, got, c.want)
		}
	}
	if err := s.cfg.Set([2]string{"set-max-intset-entries", "512"}, [2]string{"set-max-listpack-entries", "128"},
		[2]string{"set-max-listpack-value", "64"}); err != nil {
		t.Fatal(err)
	}
	if got := encodingAfter("a", "b", "c", "d"); got != "listpack" {
		t.Fatalf("back to defaults: %s", got)
	}
}
