package tests

import (
	"strings"
	"testing"
)

// TestNotifyListEvents: every list command raises Redis's events, in Redis's order (checked
// against redis-server 7.0.15 with KVSERVER_TARGET=redis): lpush/rpush once per command,
// linsert, lset, lrem, ltrim (even when nothing is trimmed), lpop/rpop then del when a list
// is emptied, LMOVE's push on the destination before its pop from the source, `new` when a
// write creates the key, nothing for a failed or no-op write.
func TestNotifyListEvents(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "EAn")
	steps := []struct {
		line []any
		want string // events, ";"-separated
	}{
		{[]any{"rpush", "l", "a", "b", "c"}, "new@0 l;rpush@0 l"},
		{[]any{"lpush", "l", "z", "y"}, "lpush@0 l"},
		{[]any{"lpushx", "nosuch", "z"}, ""},
		{[]any{"rpushx", "l", "q"}, "rpush@0 l"},
		{[]any{"linsert", "l", "before", "a", "x"}, "linsert@0 l"},
		{[]any{"linsert", "l", "before", "nosuch", "x"}, ""},
		{[]any{"lset", "l", "0", "w"}, "lset@0 l"},
		{[]any{"lset", "l", "100", "w"}, ""},
		{[]any{"lrem", "l", "1", "x"}, "lrem@0 l"},
		{[]any{"lrem", "l", "1", "nosuch"}, ""},
		{[]any{"ltrim", "l", "0", "-1"}, "ltrim@0 l"},
		{[]any{"lpop", "l"}, "lpop@0 l"},
		{[]any{"rpop", "l", "2"}, "rpop@0 l"},
		{[]any{"lmove", "l", "d", "right", "left"}, "new@0 d;lpush@0 d;rpop@0 l"},
		{[]any{"rpoplpush", "l", "d"}, "lpush@0 d;rpop@0 l"},
		{[]any{"lmove", "l", "d", "left", "right"}, "rpush@0 d;lpop@0 l;del@0 l"},
		{[]any{"lmove", "d", "d", "left", "right"}, "rpush@0 d;lpop@0 d"},
		{[]any{"lmpop", "2", "nosuch", "d", "left", "count", "10"}, "lpop@0 d;del@0 d"},
		{[]any{"rpush", "e", "1"}, "new@0 e;rpush@0 e"},
		{[]any{"blpop", "e", "0"}, "lpop@0 e;del@0 e"},
		{[]any{"rpush", "e", "1"}, "new@0 e;rpush@0 e"},
		{[]any{"ltrim", "e", "1", "0"}, "ltrim@0 e;del@0 e"},
		{[]any{"rpush", "e", "1", "1"}, "new@0 e;rpush@0 e"},
		{[]any{"lrem", "e", "0", "1"}, "lrem@0 e;del@0 e"},
		{[]any{"set", "s", "v"}, "new@0 s;set@0 s"},
		{[]any{"lpush", "s", "a"}, ""}, // WRONGTYPE
		{[]any{"flushdb"}, ""},
	}
	for _, st := range steps {
		got := strings.Join(doMarked(t, c, sub, st.line...), ";")
		if got != st.want {
			t.Errorf("%v:\n got %s\nwant %s", st.line, got, st.want)
		}
	}
}
