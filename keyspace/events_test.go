package keyspace

import (
	"slices"
	"testing"
)

func TestParseNotifyClasses(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want NotifyClass
	}{
		{"", 0},
		{"KEA", NotifyKeyspace | NotifyKeyevent | NotifyAll},
		{"Ex", NotifyKeyevent | NotifyExpired},
		{"AKEnm", NotifyAll | NotifyKeyspace | NotifyKeyevent | NotifyNew | NotifyKeyMiss},
		{"g$lshzxetd", NotifyAll},
	} {
		if got := ParseNotifyClasses(tc.v); got != tc.want {
			t.Errorf("%q: %b, want %b", tc.v, got, tc.want)
		}
	}
	if NotifyAll&(NotifyNew|NotifyKeyMiss|NotifyKeyspace|NotifyKeyevent) != 0 {
		t.Error("A includes n, m, K or E")
	}
}

func TestSetNotifyClasses(t *testing.T) {
	k, _ := newTestKeyspace(t, Options{Shards: 2})
	k.SetNotifyClasses(NotifyAll) // no K, no E: nothing can be sent
	if k.NotifyClasses() != 0 {
		t.Errorf("A alone stored as %b", k.NotifyClasses())
	}
	k.SetNotifyClasses(NotifyKeyevent | NotifyExpired)
	if k.NotifyClasses() != NotifyKeyevent|NotifyExpired {
		t.Errorf("Ex stored as %b", k.NotifyClasses())
	}
}

// TestExpiredLog: keys removed by expiry are logged in their shard only while the x class is
// on, and ActiveExpireCycle hands the log to SetOnExpired's function with the shard unlocked.
func TestExpiredLog(t *testing.T) {
	k, clk := newTestKeyspace(t, Options{Shards: 2})
	var got []string
	k.SetOnExpired(func(db int, key []byte) {
		s := k.Shard(k.ShardFor(key))
		if !s.TryLock() {
			t.Errorf("OnExpired(%q) with its shard locked", key)
		} else {
			s.Unlock()
		}
		got = append(got, string(key)+"@"+string(rune('0'+db)))
	})
	set(t, k, 0, "off", "v", clk.now()+1)
	clk.advance(2)
	if _, ok := get(k, 0, "off"); ok {
		t.Fatal("expired key found")
	}
	k.ActiveExpireCycle(100)
	if len(got) != 0 {
		t.Errorf("x off: %q", got)
	}
	k.SetNotifyClasses(NotifyKeyevent | NotifyExpired)
	set(t, k, 0, "lazy", "v", clk.now()+1)
	set(t, k, 1, "active", "v", clk.now()+1)
	clk.advance(2)
	if _, ok := get(k, 0, "lazy"); ok { // logged in its shard, not yet taken
		t.Fatal("expired key found")
	}
	s := k.Shard(k.ShardFor([]byte("lazy")))
	s.Lock()
	n := s.ExpiredLogLocked().Len()
	s.Unlock()
	if n != 1 {
		t.Fatalf("shard log holds %d entries, want 1", n)
	}
	k.ActiveExpireCycle(100)
	slices.Sort(got)
	if want := []string{"active@1", "lazy@0"}; !slices.Equal(got, want) {
		t.Errorf("published %q, want %q", got, want)
	}
}

func TestEventLog(t *testing.T) {
	var l EventLog
	l.Add(0, []byte("a"))
	l.Add(3, []byte("bcd"))
	l.Add(1, nil)
	for i, want := range []struct {
		db  int
		key string
	}{{0, "a"}, {3, "bcd"}, {1, ""}} {
		db, key := l.At(i)
		if db != want.db || string(key) != want.key {
			t.Errorf("entry %d: %d %q", i, db, key)
		}
	}
	l.Reset()
	if l.Len() != 0 {
		t.Error("Reset")
	}
}
