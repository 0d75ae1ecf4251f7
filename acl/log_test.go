package acl

import (
	"fmt"
	"testing"
)

func entry(reason Reason, obj, user string, at int64) Entry {
	return Entry{Reason: reason, Context: "toplevel", Object: obj, Username: user, ClientInfo: "id=1", Updated: at}
}

func TestLogMerge(t *testing.T) {
	l := NewLog()
	const t0 = 1_700_000_000_000
	l.Add(entry(Cmd, "get", "u", t0))
	e2 := entry(Cmd, "get", "u", t0+60_000)
	e2.ClientInfo = "id=2"
	l.Add(e2) // within 60 s: merged
	got := l.Entries(-1)
	if len(got) != 1 || got[0].Count != 2 || got[0].ClientInfo != "id=2" || got[0].Created != t0 ||
		got[0].Updated != t0+60_000 || got[0].EntryID != 0 {
		t.Fatalf("merge: %+v", got)
	}
	l.Add(entry(Cmd, "get", "u", t0+120_001)) // 60.001 s after the last update: new entry
	// differing reason, context, object or user: new entries
	l.Add(entry(Key, "get", "u", t0+120_001))
	l.Add(entry(Cmd, "set", "u", t0+120_001))
	l.Add(entry(Cmd, "get", "v", t0+120_001))
	e := entry(Cmd, "get", "u", t0+120_001)
	e.Context = "multi"
	l.Add(e)
	got = l.Entries(-1)
	if len(got) != 6 {
		t.Fatalf("%d entries", len(got))
	}
	for i, e := range got {
		if e.EntryID != int64(5-i) || e.Count != 1 && i != 5 {
			t.Errorf("entry %d: %+v", i, e)
		}
	}
	// a merge moves the entry to the front
	l.Add(entry(Key, "get", "u", t0+130_000))
	got = l.Entries(2)
	if len(got) != 2 || got[0].Reason != Key || got[0].Count != 2 || got[1].Context != "multi" {
		t.Fatalf("move to front: %+v", got)
	}
	if n := len(l.Entries(100)); n != 6 {
		t.Fatal(n)
	}
}

// Only the 10 newest entries are looked at for a merge, as Redis.
func TestLogMergeScan(t *testing.T) {
	l := NewLog()
	l.Add(entry(Cmd, "old", "u", 1000))
	for i := 0; i < 10; i++ {
		l.Add(entry(Cmd, fmt.Sprint("c", i), "u", 1000))
	}
	l.Add(entry(Cmd, "old", "u", 1000))
	if got := l.Entries(-1); len(got) != 12 || got[0].Count != 1 {
		t.Fatalf("merged beyond the scan: %d entries, first %+v", len(got), got[0])
	}
	l.Add(entry(Cmd, "c5", "u", 1000))
	if got := l.Entries(1); got[0].Object != "c5" || got[0].Count != 2 {
		t.Fatalf("%+v", got[0])
	}
}

func TestLogBound(t *testing.T) {
	l := NewLog()
	for i := 0; i < DefaultLogMaxLen+5; i++ {
		l.Add(entry(Key, fmt.Sprint("k", i), "u", 1000))
	}
	got := l.Entries(-1)
	if len(got) != DefaultLogMaxLen || got[0].Object != fmt.Sprint("k", DefaultLogMaxLen+4) || got[len(got)-1].Object != "k5" {
		t.Fatalf("%d entries, %s … %s", len(got), got[0].Object, got[len(got)-1].Object)
	}
	l.SetMaxLen(3)
	if got := l.Entries(-1); len(got) != 3 || got[2].Object != fmt.Sprint("k", DefaultLogMaxLen+2) {
		t.Fatalf("%+v", got)
	}
	l.SetMaxLen(0)
	l.Add(entry(Key, "x", "u", 1000))
	if l.Len() != 0 {
		t.Fatal("maxlen 0 kept entries")
	}
	l.SetMaxLen(10)
	l.Add(entry(Key, "x", "u", 1000))
	l.Reset()
	if l.Len() != 0 {
		t.Fatal("reset")
	}
	l.Add(entry(Key, "y", "u", 1000))
	if got := l.Entries(-1); got[0].EntryID == 0 {
		t.Fatal("entry IDs restarted after RESET")
	}
	if got := l.Entries(0); len(got) != 0 {
		t.Fatal("Entries(0)")
	}
}

func TestLogNow(t *testing.T) {
	l := NewLog()
	l.Add(Entry{Reason: Auth, Context: "toplevel", Object: "AUTH", Username: "x"})
	if e := l.Entries(1)[0]; e.Updated == 0 || e.Created != e.Updated || e.Reason.String() != "auth" {
		t.Fatalf("%+v", e)
	}
}
