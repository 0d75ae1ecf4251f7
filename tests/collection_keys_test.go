package tests

import (
	"strings"
	"testing"
)

// TestCollectionKeyEvents: the key commands raise Redis's events, in Redis's order, on hashes
// and sets as on strings — RENAME and RENAMENX (in one shard or across), COPY (REPLACE, DB),
// MOVE, the EXPIRE family, DEL and UNLINK (a big set freed lazily raises its `del` at once).
// Checked against redis-server 7.0.15 with KVSERVER_TARGET=redis.
func TestCollectionKeyEvents(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "EAnm")
	big := []any{"sadd", "big"}
	for i := range 200 {
		big = append(big, "m"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	steps := []struct {
		line []any
		want string
	}{
		{[]any{"hset", "h", "f", "v"}, "new@0 h;hset@0 h"},
		{[]any{"sadd", "s", "1", "2"}, "new@0 s;sadd@0 s"},
		{[]any{"rename", "h", "h2"}, "new@0 h2;rename_from@0 h;rename_to@0 h2"},
		{[]any{"rename", "s", "h2"}, "new@0 h2;rename_from@0 s;rename_to@0 h2"},
		{[]any{"hset", "h", "f", "v"}, "new@0 h;hset@0 h"},
		{[]any{"renamenx", "h", "h2"}, ""},
		{[]any{"renamenx", "h", "h3"}, "new@0 h3;rename_from@0 h;rename_to@0 h3"},
		{[]any{"copy", "h3", "c"}, "new@0 c;copy_to@0 c"},
		{[]any{"copy", "h2", "c"}, ""},
		{[]any{"copy", "h2", "c", "replace"}, "new@0 c;copy_to@0 c"},
		{[]any{"copy", "h3", "c", "db", "1"}, "new@1 c;copy_to@1 c"},
		{[]any{"move", "c", "2"}, "new@2 c;move_from@0 c;move_to@2 c"},
		{[]any{"expire", "h3", "100"}, "expire@0 h3"},
		{[]any{"persist", "h3"}, "persist@0 h3"},
		{[]any{"pexpireat", "h3", "1"}, "del@0 h3"},
		{big, "new@0 big;sadd@0 big"},
		{[]any{"rename", "big", "h2"}, "new@0 h2;rename_from@0 big;rename_to@0 h2"},
		{[]any{"unlink", "h2", "nosuch"}, "del@0 h2"},
		{big, "new@0 big;sadd@0 big"},
		{[]any{"del", "big"}, "del@0 big"},
		{[]any{"type", "nosuch"}, "keymiss@0 nosuch"},
	}
	for _, st := range steps {
		got := strings.Join(doMarked(t, c, sub, st.line...), ";")
		if got != st.want {
			t.Errorf("%v:\n got %s\nwant %s", st.line[:min(len(st.line), 4)], got, st.want)
		}
	}
}
