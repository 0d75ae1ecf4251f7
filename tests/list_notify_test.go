package tests

import (
	"strings"
	"testing"
)

// TestNotifyListEvents: every list command raises Redis's events, in Redis's order (checked
// against redis-server 7.0.15 with KVSERVER_TARGET=redis): lpush/rpush (also for LPUSHX,
// RPUSHX), linsert, lset, lpop/rpop (once for a count), ltrim, lrem, then del when the list is
// emptied; LMOVE and RPOPLPUSH raise the push on the destination (after `new` when they create
// it) before the pop on the source; `new` when a write creates the key, keymiss for reads of a
// missing key, nothing for a failed or no-op write.
func TestNotifyListEvents(t *testing.T) {
	s := listServer(t)
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "EAnm")
	steps := []struct {
		line []any
		want string // events, ";"-separated
	}{
		{[]any{"lpush", "l", "a", "b"}, "new@0 l;lpush@0 l"},
		{[]any{"rpush", "l", "c"}, "rpush@0 l"},
		{[]any{"lpushx", "l", "z"}, "lpush@0 l"},
		{[]any{"rpushx", "l", "y"}, "rpush@0 l"},
		{[]any{"lpushx", "nosuch", "z"}, ""},
		{[]any{"rpushx", "nosuch", "z"}, ""},
		{[]any{"linsert", "l", "before", "a", "x"}, "linsert@0 l"},
		{[]any{"linsert", "l", "before", "nosuch", "x"}, ""},
		{[]any{"linsert", "nosuch", "before", "a", "x"}, ""},
		{[]any{"lset", "l", "0", "w"}, "lset@0 l"},
		{[]any{"lset", "l", "100", "w"}, ""},
		{[]any{"lpop", "l"}, "lpop@0 l"},
		{[]any{"rpop", "l", "2"}, "rpop@0 l"},
		{[]any{"lpop", "l", "0"}, ""},
		{[]any{"lpop", "nosuch"}, ""},
		{[]any{"lrem", "l", "0", "nosuch"}, ""},
		{[]any{"lrem", "l", "1", "x"}, "lrem@0 l"},
		{[]any{"ltrim", "l", "0", "-1"}, "ltrim@0 l"},
		{[]any{"lrange", "l", "0", "-1"}, ""},
		{[]any{"lrange", "nosuch", "0", "-1"}, "keymiss@0 nosuch"},
		{[]any{"llen", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"lindex", "nosuch", "0"}, "keymiss@0 nosuch"},
		{[]any{"lpos", "nosuch", "a"}, "keymiss@0 nosuch"},
		{[]any{"rpush", "src", "1", "2", "3"}, "new@0 src;rpush@0 src"},
		{[]any{"lmove", "src", "dst", "left", "right"}, "new@0 dst;rpush@0 dst;lpop@0 src"},
		{[]any{"rpoplpush", "src", "dst"}, "lpush@0 dst;rpop@0 src"},
		{[]any{"lmove", "src", "src", "left", "left"}, "lpush@0 src;lpop@0 src"},
		{[]any{"lmove", "src", "dst", "right", "left"}, "lpush@0 dst;rpop@0 src;del@0 src"},
		{[]any{"lmove", "nosuch", "dst", "right", "left"}, ""},
		{[]any{"lmpop", "2", "nosuch", "dst", "right", "count", "2"}, "rpop@0 dst"},
		{[]any{"blpop", "nosuch", "dst", "0"}, "lpop@0 dst;del@0 dst"},
		{[]any{"rpush", "t", "a", "b"}, "new@0 t;rpush@0 t"},
		{[]any{"ltrim", "t", "5", "10"}, "ltrim@0 t;del@0 t"},
		{[]any{"rpush", "t", "a", "b"}, "new@0 t;rpush@0 t"},
		{[]any{"lrem", "t", "0", "a"}, "lrem@0 t"},
		{[]any{"lrem", "t", "0", "b"}, "lrem@0 t;del@0 t"},
		{[]any{"rpush", "t", "a"}, "new@0 t;rpush@0 t"},
		{[]any{"brpoplpush", "t", "t2", "0"}, "new@0 t2;lpush@0 t2;rpop@0 t;del@0 t"},
		{[]any{"blmpop", "0", "1", "t2", "left"}, "lpop@0 t2;del@0 t2"},
		{[]any{"set", "s", "v"}, "new@0 s;set@0 s"},
		{[]any{"lpush", "s", "a"}, ""}, // WRONGTYPE
		{[]any{"lmove", "l", "s", "left", "left"}, ""},
		{[]any{"flushdb"}, ""},
	}
	for _, st := range steps {
		got := strings.Join(doMarked(t, c, sub, st.line...), ";")
		if got != st.want {
			t.Errorf("%v:\n got %s\nwant %s", st.line, got, st.want)
		}
	}
}

// TestNotifyListServedWaiter: a push that serves a blocked client raises the push's events and
// then the served pop's, all before the pusher's next command runs (Redis serves waiters right
// after the command that readied their key).
func TestNotifyListServedWaiter(t *testing.T) {
	s := listServer(t)
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "EAnm")
	ctl := s.RawConn(t)
	w := blBlock(t, s, ctl, 0, 0, "BLPOP", "q", "0")
	if got, want := strings.Join(doMarked(t, c, sub, "rpush", "q", "a"), ";"), "new@0 q;rpush@0 q;lpop@0 q;del@0 q"; got != want {
		t.Errorf("RPUSH serving a BLPOP:\n got %s\nwant %s", got, want)
	}
	blExpect(t, w, "BLPOP", "1) \"q\"\n2) \"a\"\n")
}
