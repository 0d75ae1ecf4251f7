package tests

import (
	"strings"
	"testing"
)

// TestNotifyHashEvents: every hash command raises Redis's events, in Redis's order (checked
// against redis-server 7.0.15 with KVSERVER_TARGET=redis): hset for HSET, HMSET and HSETNX,
// hdel then del when HDEL empties the hash, hincrby, hincrbyfloat, `new` when a write creates
// the key, keymiss for reads of a missing key, nothing for a failed or no-op write.
func TestNotifyHashEvents(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "EAnm")
	steps := []struct {
		line []any
		want string // events, ";"-separated
	}{
		{[]any{"hset", "h", "a", "1", "b", "2"}, "new@0 h;hset@0 h"},
		{[]any{"hset", "h", "a", "1"}, "hset@0 h"},
		{[]any{"hmset", "h", "c", "3"}, "hset@0 h"},
		{[]any{"hsetnx", "h", "a", "9"}, ""},
		{[]any{"hsetnx", "h", "d", "4"}, "hset@0 h"},
		{[]any{"hsetnx", "h2", "d", "4"}, "new@0 h2;hset@0 h2"},
		{[]any{"hincrby", "h", "n", "5"}, "hincrby@0 h"},
		{[]any{"hincrby", "h", "a", "x"}, ""},
		{[]any{"hincrby", "h", "c", "9223372036854775807"}, ""}, // overflow
		{[]any{"hincrbyfloat", "h", "f", "1.5"}, "hincrbyfloat@0 h"},
		{[]any{"hincrbyfloat", "h3", "f", "1.5"}, "new@0 h3;hincrbyfloat@0 h3"},
		{[]any{"hincrby", "h4", "f", "1"}, "new@0 h4;hincrby@0 h4"},
		{[]any{"hdel", "h", "nosuch"}, ""},
		{[]any{"hdel", "h", "a", "b"}, "hdel@0 h"},
		{[]any{"hdel", "h2", "d"}, "hdel@0 h2;del@0 h2"},
		{[]any{"hdel", "nosuch", "d"}, ""},
		{[]any{"hget", "nosuch", "a"}, "keymiss@0 nosuch"},
		{[]any{"hget", "h", "nosuch"}, ""},
		{[]any{"hmget", "nosuch", "a"}, "keymiss@0 nosuch"},
		{[]any{"hgetall", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"hlen", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"hrandfield", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"hscan", "nosuch", "0"}, "keymiss@0 nosuch"},
		{[]any{"set", "s", "v"}, "new@0 s;set@0 s"},
		{[]any{"hset", "s", "a", "1"}, ""}, // WRONGTYPE
		{[]any{"flushdb"}, ""},
	}
	for _, st := range steps {
		got := strings.Join(doMarked(t, c, sub, st.line...), ";")
		if got != st.want {
			t.Errorf("%v:\n got %s\nwant %s", st.line, got, st.want)
		}
	}
}
