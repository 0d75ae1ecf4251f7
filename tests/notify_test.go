package tests

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Keyspace notifications (issue 19): notify-keyspace-events, the __keyspace@<db>__:<key> and
// __keyevent@<db>__:<event> channels, Redis's events for every command kvserver has, expiry
// and eviction. These run against redis-server too (KVSERVER_TARGET=redis).

// keyPattern matches every notification channel (and the tests' markers).
const keyPattern = "__key*@*__:*"

// markChannel is where the tests publish a marker after each command: the events a command
// raised are the messages before its marker, so no test waits for "no more messages".
const markChannel = "__keyevent@0__:MARK"

// notifySub is a subscription to every notification channel.
type notifySub struct {
	t  *testing.T
	ps *redis.PubSub
}

// subscribeNotifications sets notify-keyspace-events to classes and subscribes to keyPattern.
func subscribeNotifications(t *testing.T, s *server, c *redis.Client, classes string) *notifySub {
	t.Helper()
	ctx := context.Background()
	if err := c.ConfigSet(ctx, "notify-keyspace-events", classes).Err(); err != nil {
		t.Fatalf("CONFIG SET notify-keyspace-events %q: %v", classes, err)
	}
	ps := s.Client(t).PSubscribe(ctx, keyPattern)
	t.Cleanup(func() { ps.Close() })
	if _, err := ps.ReceiveTimeout(ctx, ioTimeout); err != nil { // the psubscribe confirmation
		t.Fatalf("PSUBSCRIBE: %v", err)
	}
	return &notifySub{t: t, ps: ps}
}

// next returns the next message as "channel message".
func (n *notifySub) next(timeout time.Duration) (string, error) {
	msg, err := n.ps.ReceiveTimeout(context.Background(), timeout)
	if err != nil {
		return "", err
	}
	m, ok := msg.(*redis.Message)
	if !ok {
		return "", fmt.Errorf("unexpected %T %v", msg, msg)
	}
	return m.Channel + " " + m.Payload, nil
}

// untilMark returns the messages received before the marker mark, in order.
func (n *notifySub) untilMark(mark string) []string {
	n.t.Helper()
	var got []string
	for {
		m, err := n.next(ioTimeout)
		if err != nil {
			n.t.Fatalf("waiting for the marker %q after %q: %v", mark, got, err)
		}
		if m == markChannel+" "+mark {
			return got
		}
		got = append(got, m)
	}
}

// waitFor returns once a message equal to want has arrived, failing after timeout; the
// messages before it are returned.
func (n *notifySub) waitFor(want string, timeout time.Duration) []string {
	n.t.Helper()
	var got []string
	deadline := time.Now().Add(timeout)
	for {
		m, err := n.next(time.Until(deadline))
		if err != nil {
			n.t.Fatalf("waiting for %q (got %q): %v", want, got, err)
		}
		if m == want {
			return got
		}
		got = append(got, m)
	}
}

// doMarked runs a command line and then publishes its marker, and returns the events it raised
// as "event@db key" lines (from __keyevent@) or "key@db: event" (from __keyspace@).
func doMarked(t *testing.T, c *redis.Client, sub *notifySub, line ...any) []string {
	t.Helper()
	ctx := context.Background()
	c.Do(ctx, line...) // errors and nils are part of some lines' point
	mark := fmt.Sprint(line...)
	if err := c.Publish(ctx, markChannel, mark).Err(); err != nil {
		t.Fatalf("PUBLISH: %v", err)
	}
	var out []string
	for _, m := range sub.untilMark(mark) {
		out = append(out, shortEvent(m))
	}
	return out
}

// shortEvent turns "__keyevent@0__:set k" into "set@0 k" and "__keyspace@0__:k set" into
// "k@0: set".
func shortEvent(m string) string {
	ch, msg, _ := strings.Cut(m, " ")
	for _, kind := range []string{"__keyevent@", "__keyspace@"} {
		if rest, ok := strings.CutPrefix(ch, kind); ok {
			db, name, _ := strings.Cut(rest, "__:")
			if kind == "__keyevent@" {
				return name + "@" + db + " " + msg
			}
			return name + "@" + db + ": " + msg
		}
	}
	return m
}

// TestNotifyEventsPerCommand: every string and generic command raises Redis's events, in
// Redis's order (checked against redis-server 7.0.15), with E and every class.
func TestNotifyEventsPerCommand(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	sub := subscribeNotifications(t, s, c, "EAnm")
	dump := func(v string) string {
		d, err := c.Dump(context.Background(), "dumpsrc").Result()
		if err != nil {
			t.Fatalf("DUMP: %v", err)
		}
		return d
	}
	steps := []struct {
		line []any
		want string // events, ";"-separated
	}{
		{[]any{"set", "a", "1"}, "new@0 a;set@0 a"},
		{[]any{"set", "a", "2"}, "set@0 a"},
		{[]any{"set", "b", "1", "ex", "100"}, "new@0 b;set@0 b;expire@0 b"},
		{[]any{"set", "b", "1", "keepttl"}, "set@0 b"},
		{[]any{"set", "a", "1", "nx"}, ""},
		{[]any{"set", "nosuch", "1", "xx"}, ""},
		{[]any{"setnx", "a", "1"}, ""},
		{[]any{"setnx", "d", "1"}, "new@0 d;set@0 d"},
		{[]any{"setex", "e", "100", "v"}, "new@0 e;set@0 e;expire@0 e"},
		{[]any{"psetex", "f", "100000", "v"}, "new@0 f;set@0 f;expire@0 f"},
		{[]any{"getset", "a", "3"}, "set@0 a"},
		{[]any{"getdel", "a"}, "del@0 a"},
		{[]any{"getdel", "a"}, "keymiss@0 a"},
		{[]any{"getex", "b", "persist"}, "persist@0 b"},
		{[]any{"getex", "b", "persist"}, ""},
		{[]any{"getex", "b", "ex", "10"}, "expire@0 b"},
		{[]any{"getex", "b", "exat", "1"}, "del@0 b"},
		{[]any{"getex", "d"}, ""},
		{[]any{"mset", "m1", "1", "m2", "2"}, "new@0 m1;set@0 m1;new@0 m2;set@0 m2"},
		{[]any{"msetnx", "m1", "1", "m3", "3"}, ""},
		{[]any{"msetnx", "n1", "1", "n2", "2"}, "new@0 n1;set@0 n1;new@0 n2;set@0 n2"},
		{[]any{"append", "ap", "x"}, "new@0 ap;append@0 ap"},
		{[]any{"append", "ap", "y"}, "append@0 ap"},
		{[]any{"setrange", "sr", "0", ""}, ""},
		{[]any{"setrange", "sr", "2", "x"}, "new@0 sr;setrange@0 sr"},
		{[]any{"setrange", "sr", "0", "y"}, "setrange@0 sr"},
		{[]any{"setrange", "sr", "0", ""}, ""},
		{[]any{"incr", "i"}, "new@0 i;incrby@0 i"},
		{[]any{"decr", "i"}, "incrby@0 i"},
		{[]any{"incrby", "i", "5"}, "incrby@0 i"},
		{[]any{"decrby", "i", "5"}, "incrby@0 i"},
		{[]any{"incr", "ap"}, ""}, // not an integer
		{[]any{"incrbyfloat", "fl", "1.5"}, "new@0 fl;incrbyfloat@0 fl"},
		{[]any{"incrbyfloat", "fl", "1.5"}, "incrbyfloat@0 fl"},
		{[]any{"get", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"get", "i"}, ""},
		{[]any{"mget", "nosuch", "i"}, "keymiss@0 nosuch"},
		{[]any{"strlen", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"getrange", "nosuch", "0", "1"}, "keymiss@0 nosuch"},
		{[]any{"del", "i", "nosuch", "fl"}, "del@0 i;del@0 fl"},
		{[]any{"unlink", "m1"}, "del@0 m1"},
		{[]any{"set", "x", "1"}, "new@0 x;set@0 x"},
		{[]any{"expire", "x", "100"}, "expire@0 x"},
		{[]any{"pexpire", "x", "100000", "nx"}, ""},
		{[]any{"pexpire", "x", "100000", "xx"}, "expire@0 x"},
		{[]any{"expireat", "x", "1"}, "del@0 x"},
		{[]any{"expire", "nosuch", "100"}, ""},
		{[]any{"set", "x", "1"}, "new@0 x;set@0 x"},
		{[]any{"expire", "x", "0"}, "del@0 x"},
		{[]any{"set", "x", "1"}, "new@0 x;set@0 x"},
		{[]any{"persist", "x"}, ""},
		{[]any{"pexpireat", "x", "99999999999999"}, "expire@0 x"},
		{[]any{"persist", "x"}, "persist@0 x"},
		{[]any{"set", "y", "1"}, "new@0 y;set@0 y"},
		{[]any{"rename", "y", "y"}, ""},
		{[]any{"rename", "y", "y2"}, "new@0 y2;rename_from@0 y;rename_to@0 y2"},
		{[]any{"set", "y3", "1"}, "new@0 y3;set@0 y3"},
		{[]any{"rename", "y2", "y3"}, "new@0 y3;rename_from@0 y2;rename_to@0 y3"},
		{[]any{"renamenx", "y3", "y4"}, "new@0 y4;rename_from@0 y3;rename_to@0 y4"},
		{[]any{"set", "y5", "1"}, "new@0 y5;set@0 y5"},
		{[]any{"renamenx", "y4", "y5"}, ""},
		{[]any{"rename", "nosuch", "y6"}, ""},
		{[]any{"copy", "y4", "c1"}, "new@0 c1;copy_to@0 c1"},
		{[]any{"copy", "y4", "c1"}, ""},
		{[]any{"copy", "y4", "c1", "replace"}, "new@0 c1;copy_to@0 c1"},
		{[]any{"copy", "y4", "c1", "db", "1"}, "new@1 c1;copy_to@1 c1"},
		{[]any{"copy", "nosuch", "c1"}, "keymiss@0 nosuch"},
		{[]any{"move", "c1", "2"}, "new@2 c1;move_from@0 c1;move_to@2 c1"},
		{[]any{"move", "nosuch", "2"}, ""},
		{[]any{"type", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"ttl", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"pttl", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"expiretime", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"exists", "nosuch", "y4"}, "keymiss@0 nosuch"},
		{[]any{"touch", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"object", "encoding", "nosuch"}, ""},
		{[]any{"dump", "nosuch"}, "keymiss@0 nosuch"},
		{[]any{"set", "dumpsrc", "hello"}, "new@0 dumpsrc;set@0 dumpsrc"},
		{[]any{"restore", "z", "0", "@dump"}, "new@0 z;restore@0 z"},
		{[]any{"restore", "z", "0", "@dump", "replace"}, "new@0 z;restore@0 z"},
		{[]any{"restore", "z", "1", "@dump", "replace", "absttl"}, "del@0 z"},
		{[]any{"restore", "z2", "1", "@dump", "absttl"}, ""},
		{[]any{"swapdb", "0", "1"}, ""},
		{[]any{"swapdb", "0", "1"}, ""},
		{[]any{"set", "key:1", "x"}, "new@0 key:1;set@0 key:1"},
		{[]any{"debug", "populate", "3"}, "new@0 key:0;new@0 key:2"},
		{[]any{"flushdb"}, ""},
	}
	for _, st := range steps {
		line := st.line
		for i, a := range line {
			if a == "@dump" {
				line = append([]any(nil), line...)
				line[i] = dump("dumpsrc")
			}
		}
		got := strings.Join(doMarked(t, c, sub, line...), ";")
		if got != st.want {
			t.Errorf("%v:\n got %s\nwant %s", st.line, got, st.want)
		}
	}
}

// TestNotifyKeyspaceKeyevent: K sends __keyspace@<db>__:<key> with the event, E
// __keyevent@<db>__:<event> with the key, KE both (keyspace first); the database is the
// client's; classes filter (g, $, n, m, A), and A includes neither n nor m.
func TestNotifyKeyspaceKeyevent(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	sub := subscribeNotifications(t, s, c, "")
	for _, tc := range []struct {
		classes string
		line    []any
		want    string
	}{
		{"", []any{"set", "k", "v"}, ""},
		{"A", []any{"set", "k", "v"}, ""}, // neither K nor E: nothing
		{"K$", []any{"set", "k", "v"}, "k@0: set"},
		{"E$", []any{"set", "k", "v"}, "set@0 k"},
		{"KE$", []any{"set", "k", "v"}, "k@0: set;set@0 k"},
		{"KEA", []any{"set", "k", "v", "px", "100000"}, "k@0: set;set@0 k;k@0: expire;expire@0 k"},
		{"Kg", []any{"set", "k", "v"}, ""},
		{"Kg", []any{"del", "k"}, "k@0: del"},
		{"E$", []any{"del", "k2"}, ""},
		{"En", []any{"set", "k3", "v"}, "new@0 k3"},
		{"EA", []any{"set", "k4", "v"}, "set@0 k4"},
		{"EA", []any{"get", "nosuch"}, ""},
		{"Em", []any{"get", "nosuch"}, "keymiss@0 nosuch"},
		{"KEm", []any{"get", "nosuch"}, "nosuch@0: keymiss;keymiss@0 nosuch"},
	} {
		if err := c.ConfigSet(ctx, "notify-keyspace-events", tc.classes).Err(); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(doMarked(t, c, sub, tc.line...), ";"); got != tc.want {
			t.Errorf("%q %v:\n got %s\nwant %s", tc.classes, tc.line, got, tc.want)
		}
	}
	// Another database.
	c1 := s.Client(t, func(o *redis.Options) { o.DB = 3 })
	if err := c.ConfigSet(ctx, "notify-keyspace-events", "KE$").Err(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(doMarked(t, c1, sub, "set", "k", "v"), ";"); got != "k@3: set;set@3 k" {
		t.Errorf("db 3: %s", got)
	}
}

// TestNotifyConfig: CONFIG GET reads the classes back in Redis's canonical order, and an
// unknown letter is refused with Redis's error.
func TestNotifyConfig(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	for _, tc := range []struct{ set, get string }{
		{"KEA", "AKE"}, {"Ex", "xE"}, {"$gKm", "g$Km"}, {"g$lshzxetd", "A"}, {"", ""},
	} {
		if err := c.ConfigSet(ctx, "notify-keyspace-events", tc.set).Err(); err != nil {
			t.Fatalf("CONFIG SET %q: %v", tc.set, err)
		}
		got, err := c.ConfigGet(ctx, "notify-keyspace-events").Result()
		if err != nil || got["notify-keyspace-events"] != tc.get {
			t.Errorf("CONFIG SET %q reads back %q (%v), want %q", tc.set, got["notify-keyspace-events"], err, tc.get)
		}
	}
	err := c.ConfigSet(ctx, "notify-keyspace-events", "KQ").Err()
	want := "ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class character. Use 'Ag$lshzxeKEtmdn'."
	if err == nil || err.Error() != want {
		t.Errorf("CONFIG SET KQ: %v, want %s", err, want)
	}
}

// TestNotifyExpired: a key whose time passes raises `expired` (class x), whether active expiry
// removes it or a lookup does; without x it does not.
func TestNotifyExpired(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	sub := subscribeNotifications(t, s, c, "KEx")
	// Active expiry: nobody reads the key.
	if err := c.Set(ctx, "short", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.PExpire(ctx, "short", time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	got := sub.waitFor("__keyspace@0__:short expired", 10*time.Second)
	if len(got) != 0 {
		t.Errorf("before the keyspace event: %q", got)
	}
	if m, err := sub.next(ioTimeout); err != nil || m != "__keyevent@0__:expired short" {
		t.Errorf("after the keyspace event: %q, %v", m, err)
	}
	// Lazy expiry: with active expiry off, a GET finds the key expired.
	if err := c.Do(ctx, "debug", "set-active-expire", "0").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, "lazy", "v", time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	waitPast(t, c, 5)
	if got := strings.Join(doMarked(t, c, sub, "get", "lazy"), ";"); got != "lazy@0: expired;expired@0 lazy" {
		t.Errorf("GET of an expired key: %s", got)
	}
	if got := strings.Join(doMarked(t, c, sub, "get", "lazy"), ";"); got != "" {
		t.Errorf("a second GET: %s", got)
	}
	// Without x, an expiry sends nothing.
	if err := c.Do(ctx, "debug", "set-active-expire", "1").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "notify-keyspace-events", "KE$").Err(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(doMarked(t, c, sub, "set", "short2", "v", "px", "1"), ";"); got != "short2@0: set;set@0 short2" {
		t.Errorf("SET PX: %s", got)
	}
	waitPast(t, c, 5)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if n, _ := c.DBSize(ctx).Result(); n == 0 {
			break // active expiry removed it
		}
	}
	if got := strings.Join(doMarked(t, c, sub, "exists", "short2"), ";"); got != "" {
		t.Errorf("without x: %s", got)
	}
}

// TestNotifyLazyExpiredOrder: a command that meets an expired key sends `expired` before its
// own events (SET over an expired key: expired, new, set).
func TestNotifyLazyExpiredOrder(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	sub := subscribeNotifications(t, s, c, "EA")
	if err := c.Do(ctx, "debug", "set-active-expire", "0").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "notify-keyspace-events", "EAn").Err(); err != nil {
		t.Fatal(err)
	}
	doMarked(t, c, sub, "set", "k", "v", "px", "1")
	waitPast(t, c, 5)
	if got := strings.Join(doMarked(t, c, sub, "set", "k", "v2"), ";"); got != "expired@0 k;new@0 k;set@0 k" {
		t.Errorf("SET over an expired key: %s", got)
	}
	doMarked(t, c, sub, "set", "k2", "v", "px", "1")
	waitPast(t, c, 5)
	if got := strings.Join(doMarked(t, c, sub, "append", "k2", "x"), ";"); got != "expired@0 k2;new@0 k2;append@0 k2" {
		t.Errorf("APPEND to an expired key: %s", got)
	}
}

// waitPast waits until the server's clock (TIME) has moved at least ms milliseconds.
func waitPast(t *testing.T, c *redis.Client, ms int64) {
	t.Helper()
	ctx := context.Background()
	start, err := c.Time(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		now, err := c.Time(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		if now.Sub(start) >= time.Duration(ms)*time.Millisecond {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the server's clock did not move")
}

// TestNotifyEvicted: keys evicted by maxmemory raise `evicted` (class e), one per evicted key
// (evicted_keys), each naming a key that is gone.
func TestNotifyEvicted(t *testing.T) {
	s := startServer(t)
	c := s.Client(t)
	ctx := context.Background()
	sub := subscribeNotifications(t, s, c, "Ee")
	fill(t, c, "base", 2000, 1000, 0)
	used := infoInt(t, s, "memory", "used_memory")
	if err := c.ConfigSet(ctx, "maxmemory-policy", "allkeys-random").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "maxmemory", strconv.FormatInt(used+(4<<20), 10)).Err(); err != nil {
		t.Fatal(err)
	}
	if oom := fill(t, c, "more", 10_000, 1000, 0); oom != 0 {
		t.Fatalf("%d SETs refused under allkeys-random", oom)
	}
	waitEvictionsSettle(t, s, used+(4<<20))
	if err := c.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	evicted := infoInt(t, s, "stats", "evicted_keys")
	if evicted == 0 {
		t.Fatal("nothing evicted")
	}
	var keys []string
	for int64(len(keys)) < evicted {
		m, err := sub.next(ioTimeout)
		if err != nil {
			t.Fatalf("%d evicted events of %d: %v", len(keys), evicted, err)
		}
		key, ok := strings.CutPrefix(m, "__keyevent@0__:evicted ")
		if !ok {
			t.Fatalf("unexpected message %q", m)
		}
		keys = append(keys, key)
	}
	if extra := doMarked(t, c, sub, "ping"); len(extra) != 0 {
		t.Errorf("%d more events than evicted_keys %d: %q", len(extra), evicted, extra[:min(len(extra), 5)])
	}
	for _, k := range keys[:min(len(keys), 50)] {
		if n, _ := c.Exists(ctx, k).Result(); n != 0 {
			t.Errorf("evicted key %q exists", k)
		}
	}
}
