package funclib

import (
	"testing"

	"github.com/kvserver/kvserver/rdb"
)

// FuzzRestore: whatever the payload and policy, RESTORE is all or nothing (on error the
// libraries are as before), and every library compiled for it is either registered or
// dropped (the engine's live libraries are the registered ones).
func FuzzRestore(f *testing.F) {
	f.Add(rdb.EncodeFunctionDump([][]byte{lib("a", "fn fa"), lib("b", "fn fb1", "fn fb2")}), uint8(0))
	f.Add(rdb.EncodeFunctionDump([][]byte{lib("a", "fn other")}), uint8(1))
	f.Add(rdb.EncodeFunctionDump([][]byte{lib("z", "fn fa")}), uint8(2))
	f.Add(rdb.EncodeFunctionDump([][]byte{lib("y", "fail x")}), uint8(0))
	f.Add(rdb.EncodeFunctionDump(nil), uint8(2))
	f.Fuzz(func(t *testing.T, payload []byte, policy uint8) {
		e := newFakeEngine()
		r := New(e)
		mustLoad(t, r, lib("a", "fn fa"), false)
		mustLoad(t, r, lib("c", "fn fc"), false)
		before := names(r)
		err := r.Restore(payload, Policy(policy%3))
		if err != nil && names(r) != before {
			t.Fatalf("failed RESTORE (%v) changed %q to %q", err, before, names(r))
		}
		if n, want := e.liveCount(), len(r.List(nil)); n != want {
			t.Fatalf("%d libraries live in the engine, %d registered", n, want)
		}
		if st := r.Stats(); st.Libraries != len(r.Codes()) {
			t.Fatalf("stats %+v, %d codes", st, len(r.Codes()))
		}
	})
}
