package acl

import "testing"

// BenchmarkCheck measures the pipeline's question for GET app:1 / SET app:1: the default user
// (one flag: AllowsAll) and a user limited to ~app:* +@read +@write (bit test and one glob).
func BenchmarkCheck(b *testing.B) {
	r := NewRegistry(testCatalog())
	if err := r.SetUser("app", argv("on", "nopass", "~app:*", "+@read", "+@write")); err != nil {
		b.Fatal(err)
	}
	getArgs := argv("get", "app:1")
	keysR := []KeyAccess{rd("app:1", 1)}
	setArgs := argv("set", "app:1", "v")
	keysW := []KeyAccess{wr("app:1", 1)}
	b.Run("default", func(b *testing.B) {
		u := r.User("default")
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if !u.AllowsAll() && u.Check(idGet, getArgs, keysR, nil, false).Reason != None {
				b.Fatal("denied")
			}
		}
	})
	b.Run("app-get", func(b *testing.B) {
		u := r.User("app")
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if u.Check(idGet, getArgs, keysR, nil, false).Reason != None {
				b.Fatal("denied")
			}
		}
	})
	b.Run("app-set", func(b *testing.B) {
		u := r.User("app")
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if u.Check(idSet, setArgs, keysW, nil, false).Reason != None {
				b.Fatal("denied")
			}
		}
	})
	b.Run("app-denied-key", func(b *testing.B) {
		u := r.User("app")
		other := []KeyAccess{rd("other", 1)}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if u.Check(idGet, getArgs, other, nil, false).Reason != Key {
				b.Fatal("allowed")
			}
		}
	})
}
