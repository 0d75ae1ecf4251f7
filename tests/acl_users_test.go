package tests

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/redis/go-redis/v9"
)

// ACL users end to end (issue 24): a user limited to `~app:*` and `+@read`, the ACL LOG
// entries its denials leave, what a change of a user does to its connected clients, INFO's
// acl_access_denied_* counters, and go-redis logging in with a username (AUTH and HELLO AUTH).
// testdata/commands/acl.txt has every rule kind; acl_file_test.go the aclfile and `user`
// directives; acl_redispy_test.go redis-py. While kvserver answers `unknown command` (or
// `unknown subcommand`) to ACL SETUSER these tests skip.

// requireACL skips the test when s has no ACL SETUSER: sent without arguments, a server that
// has it answers an arity error.
func requireACL(t *testing.T, s *server) {
	t.Helper()
	c := s.RawConn(t)
	defer c.Close()
	if r := c.Do("ACL", "SETUSER"); r.Kind == '-' && strings.HasPrefix(r.Str, "ERR unknown") {
		t.Skipf("kvserver lacks ACL SETUSER (issue 24): %s", r.Str)
	}
}

// mustOK sends args on c and fails the test unless the reply is +OK.
func mustOK(t *testing.T, c *rawConn, args ...string) {
	t.Helper()
	if r := c.Do(args...); r.Kind != '+' || r.Str != "OK" {
		t.Fatalf("%s: %s", strings.Join(args, " "), formatReply(r, false))
	}
}

// aclLogEntry is one ACL LOG entry: its fields by name, as text (integers in decimal).
type aclLogEntry map[string]string

// aclLog returns ACL LOG's entries, newest first, read in RESP2 (flat field/value arrays).
func aclLog(t *testing.T, c *rawConn) []aclLogEntry {
	t.Helper()
	r := c.Do("ACL", "LOG")
	if r.Kind != '*' {
		t.Fatalf("ACL LOG: %s", formatReply(r, false))
	}
	var out []aclLogEntry
	for _, e := range r.Elems {
		if e.Kind != '*' || len(e.Elems)%2 != 0 {
			t.Fatalf("ACL LOG entry: %s", formatReply(e, false))
		}
		m := aclLogEntry{}
		for i := 0; i < len(e.Elems); i += 2 {
			v := e.Elems[i+1]
			if v.Kind == ':' {
				m[e.Elems[i].Str] = strconv.FormatInt(v.Int, 10)
			} else {
				m[e.Elems[i].Str] = v.Str
			}
		}
		out = append(out, m)
	}
	return out
}

// checkLogEntry compares the fields of e named in want, and checks that the fields every
// entry has are there.
func checkLogEntry(t *testing.T, i int, e aclLogEntry, want map[string]string) {
	t.Helper()
	fields := []string{"count", "reason", "context", "object", "username", "age-seconds", "client-info"}
	if !targetRedis { // 7.2's fields, which 7.0.15 lacks (differences_test.go)
		fields = append(fields, "entry-id", "timestamp-created", "timestamp-last-updated")
	}
	for _, f := range fields {
		if _, ok := e[f]; !ok {
			t.Errorf("entry %d has no %q: %v", i, f, e)
		}
	}
	for k, v := range want {
		if e[k] != v {
			t.Errorf("entry %d: %s = %q, want %q (%v)", i, k, e[k], v, e)
		}
	}
}

// nopermCmd, nopermKey and nopermChannel are the NOPERM texts of a denied command, key and
// channel: Redis 7.2's from kvserver, 7.0.15's from redis-server (differences_test.go).
func nopermCmd(user, cmd string) string {
	if targetRedis {
		return "NOPERM this user has no permissions to run the '" + cmd + "' command"
	}
	return "NOPERM User " + user + " has no permissions to run the '" + cmd + "' command"
}

func nopermKey() string {
	if targetRedis {
		return "NOPERM this user has no permissions to access one of the keys used as arguments"
	}
	return "NOPERM No permissions to access a key"
}

func nopermChannel() string {
	if targetRedis {
		return "NOPERM this user has no permissions to access one of the channels used as arguments"
	}
	return "NOPERM No permissions to access a channel"
}

// expectClosed fails the test unless the server closes c: reading ends in EOF (or a reset)
// within ioTimeout, with no reply before it.
func expectClosed(t *testing.T, c *rawConn, what string) {
	t.Helper()
	r, err := c.TryReadReply(ioTimeout)
	switch {
	case err == nil:
		t.Errorf("%s: got %s, want the connection closed", what, formatReply(r, false))
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET):
	default:
		t.Errorf("%s: %v, want the connection closed", what, err)
	}
}

// wantReply fails the test unless r prints as want (redis-cli's form, without the newline).
func wantReply(t *testing.T, what string, r *Reply, want string) {
	t.Helper()
	if got := strings.TrimSuffix(formatReply(r, false), "\n"); got != want {
		t.Errorf("%s: got %s, want %s", what, got, want)
	}
}

// TestACLReadOnlyAppUser: a user `on >pw ~app:* +@read` reads keys of app:* and nothing else;
// a write, a command outside @read and another key answer NOPERM; each denial is an ACL LOG
// entry (reason command or key, context toplevel, the object, the username), the same denial
// again counts in the same entry, a failed AUTH is an `auth` entry, and ACL LOG RESET empties it.
func TestACLReadOnlyAppUser(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	requireACL(t, s)
	adm := s.RawConn(t)
	mustOK(t, adm, "ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+@read")
	mustOK(t, adm, "MSET", "app:1", "one", "other", "x")

	c := s.RawConn(t)
	mustOK(t, c, "AUTH", "app", "pw")
	wantReply(t, "GET app:1", c.Do("GET", "app:1"), `"one"`)
	wantReply(t, "MGET app:1 app:2", c.Do("MGET", "app:1", "app:2"), "1) \"one\"\n2) (nil)")
	wantReply(t, "STRLEN app:1", c.Do("STRLEN", "app:1"), "(integer) 3")
	wantReply(t, "SET app:1", c.Do("SET", "app:1", "v"), "(error) "+nopermCmd("app", "set"))
	wantReply(t, "GET other", c.Do("GET", "other"), "(error) "+nopermKey())
	wantReply(t, "GET other again", c.Do("GET", "other"), "(error) "+nopermKey())
	wantReply(t, "MGET app:1 other", c.Do("MGET", "app:1", "other"), "(error) "+nopermKey())
	wantReply(t, "FLUSHALL", c.Do("FLUSHALL"), "(error) "+nopermCmd("app", "flushall"))
	wantReply(t, "AUTH app nope", c.Do("AUTH", "app", "nope"),
		"(error) WRONGPASS invalid username-password pair or user is disabled.")
	// The failed AUTH leaves the connection app's.
	wantReply(t, "DEL app:1 after a failed AUTH", c.Do("DEL", "app:1"), "(error) "+nopermCmd("app", "del"))
	// Nothing was written.
	wantReply(t, "GET app:1 (default user)", adm.Do("GET", "app:1"), `"one"`)

	log := aclLog(t, adm)
	want := []map[string]string{
		{"reason": "command", "object": "del", "count": "1"},
		{"reason": "auth", "object": "AUTH", "count": "1"},
		{"reason": "command", "object": "flushall", "count": "1"},
		{"reason": "key", "object": "other", "count": "3"}, // GET twice and MGET: one entry
		{"reason": "command", "object": "set", "count": "1"},
	}
	if len(log) != len(want) {
		t.Fatalf("ACL LOG: %d entries, want %d: %v", len(log), len(want), log)
	}
	for i, w := range want {
		w["context"] = "toplevel"
		w["username"] = "app"
		checkLogEntry(t, i, log[i], w)
		if !strings.Contains(log[i]["client-info"], "user=app") && w["reason"] != "auth" {
			t.Errorf("entry %d: client-info %q does not say user=app", i, log[i]["client-info"])
		}
	}
	if !targetRedis {
		// entry-id counts up from 0 in the order the entries were made.
		for i := range log {
			if got, want := log[i]["entry-id"], strconv.Itoa(len(log)-1-i); got != want {
				t.Errorf("entry %d: entry-id %s, want %s", i, got, want)
			}
		}
	}
	if r := adm.Do("ACL", "LOG", "2"); len(r.Elems) != 2 {
		t.Errorf("ACL LOG 2: %d entries, want 2", len(r.Elems))
	}

	// Inside MULTI (with @transaction granted) the context is `multi`; the denied command is
	// refused when queued.
	mustOK(t, adm, "ACL", "LOG", "RESET")
	mustOK(t, adm, "ACL", "SETUSER", "app", "+@transaction")
	mustOK(t, c, "MULTI")
	wantReply(t, "SET in MULTI", c.Do("SET", "app:1", "v"), "(error) "+nopermCmd("app", "set"))
	wantReply(t, "EXEC", c.Do("EXEC"), "(error) EXECABORT Transaction discarded because of previous errors.")
	log = aclLog(t, adm)
	if len(log) != 1 {
		t.Fatalf("ACL LOG after MULTI: %v", log)
	}
	checkLogEntry(t, 0, log[0], map[string]string{"reason": "command", "context": "multi", "object": "set", "username": "app"})

	mustOK(t, adm, "ACL", "LOG", "RESET")
	if log := aclLog(t, adm); len(log) != 0 {
		t.Errorf("ACL LOG after RESET: %v", log)
	}
}

// TestACLChannels: a user with `resetchannels &news:*` may publish and subscribe to news:*
// only; a denied SUBSCRIBE answers NOPERM and leaves an ACL LOG entry of reason channel.
func TestACLChannels(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	requireACL(t, s)
	adm := s.RawConn(t)
	mustOK(t, adm, "ACL", "SETUSER", "news", "on", "nopass", "~*", "resetchannels", "&news:*", "+@all")
	c := s.RawConn(t)
	mustOK(t, c, "AUTH", "news", "x")
	wantReply(t, "PUBLISH news:1", c.Do("PUBLISH", "news:1", "m"), "(integer) 0")
	wantReply(t, "PUBLISH sport", c.Do("PUBLISH", "sport", "m"), "(error) "+nopermChannel())
	wantReply(t, "SUBSCRIBE sport", c.Do("SUBSCRIBE", "sport"), "(error) "+nopermChannel())
	wantReply(t, "PSUBSCRIBE *", c.Do("PSUBSCRIBE", "*"), "(error) "+nopermChannel())
	wantReply(t, "SUBSCRIBE news:1", c.Do("SUBSCRIBE", "news:1"), "1) \"subscribe\"\n2) \"news:1\"\n3) (integer) 1")
	log := aclLog(t, adm) // PUBLISH and SUBSCRIBE of sport make one entry
	if len(log) != 2 {
		t.Fatalf("ACL LOG: %v", log)
	}
	checkLogEntry(t, 0, log[0], map[string]string{"reason": "channel", "object": "*", "username": "news", "context": "toplevel"})
	checkLogEntry(t, 1, log[1], map[string]string{"reason": "channel", "object": "sport", "count": "2"})
}

// TestACLDisconnectOnChange: what changing a user does to its connected clients, as Redis
// does it (7.2 and 7.0.15 alike): a command taken away answers NOPERM from the next command
// on; `off` refuses new AUTHs but leaves authenticated connections working; a subscriber whose
// channels the new rules no longer allow is disconnected (another, still allowed, is not); ACL
// DELUSER disconnects every client of the user.
func TestACLDisconnectOnChange(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	requireACL(t, s)
	adm := s.RawConn(t)
	mustOK(t, adm, "ACL", "SETUSER", "k", "on", ">p", "~*", "&*", "+@all")
	c := s.RawConn(t)
	mustOK(t, c, "AUTH", "k", "p")
	if r := adm.Do("CLIENT", "LIST"); !strings.Contains(r.Str, " user=k ") {
		t.Errorf("CLIENT LIST has no user=k:\n%s", r.Str)
	}

	mustOK(t, adm, "ACL", "SETUSER", "k", "-ping")
	wantReply(t, "PING after -ping", c.Do("PING"), "(error) "+nopermCmd("k", "ping"))

	// Subscribers: one to a channel the next rules drop, one to a channel they keep.
	subA := s.RawConn(t)
	mustOK(t, subA, "AUTH", "k", "p")
	wantReply(t, "SUBSCRIBE a", subA.Do("SUBSCRIBE", "a"), "1) \"subscribe\"\n2) \"a\"\n3) (integer) 1")
	subB := s.RawConn(t)
	mustOK(t, subB, "AUTH", "k", "p")
	wantReply(t, "SUBSCRIBE b", subB.Do("SUBSCRIBE", "b"), "1) \"subscribe\"\n2) \"b\"\n3) (integer) 1")
	mustOK(t, adm, "ACL", "SETUSER", "k", "resetchannels", "&b")
	expectClosed(t, subA, "the subscriber to a, no longer allowed")
	wantReply(t, "PUBLISH b", adm.Do("PUBLISH", "b", "m"), "(integer) 1")
	wantReply(t, "subscriber to b", subB.ReadReply(), "1) \"message\"\n2) \"b\"\n3) \"m\"")

	mustOK(t, adm, "ACL", "SETUSER", "k", "off")
	wantReply(t, "GET after off", c.Do("GET", "x"), "(nil)")
	wantReply(t, "AUTH k p after off", s.RawConn(t).Do("AUTH", "k", "p"),
		"(error) WRONGPASS invalid username-password pair or user is disabled.")

	other := s.RawConn(t) // a client of the default user is left alone
	wantReply(t, "ACL DELUSER k", adm.Do("ACL", "DELUSER", "k"), "(integer) 1")
	expectClosed(t, c, "k's client after ACL DELUSER k")
	expectClosed(t, subB, "k's subscriber after ACL DELUSER k")
	wantReply(t, "PING of the default user's client", other.Do("PING"), "PONG")
	if r := adm.Do("CLIENT", "LIST"); strings.Contains(r.Str, " user=k ") {
		t.Errorf("CLIENT LIST after ACL DELUSER k:\n%s", r.Str)
	}
}

// TestACLDeniedCounters: INFO stats' acl_access_denied_auth, _cmd, _key and _channel count
// failed AUTHs and NOPERM denials (Redis 7.2; 7.0.15 has no such fields).
func TestACLDeniedCounters(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "redis-server 7.0.15 has no acl_access_denied_* fields (7.2 has)")
	s := startServer(t)
	requireACL(t, s)
	adm := s.RawConn(t)
	mustOK(t, adm, "ACL", "SETUSER", "app", "on", ">pw", "~app:*", "resetchannels", "+@read", "+publish")
	c := s.RawConn(t)
	c.Do("AUTH", "app", "wrong")
	c.Do("AUTH", "nosuch", "pw")
	mustOK(t, c, "AUTH", "app", "pw")
	c.Do("SET", "app:1", "v")
	c.Do("GET", "k1")
	c.Do("GET", "k2")
	c.Do("MGET", "k3", "k4")
	c.Do("PUBLISH", "ch", "m")
	info := s.Info(t, "stats")
	for name, want := range map[string]string{
		"acl_access_denied_auth": "2", "acl_access_denied_cmd": "1",
		"acl_access_denied_key": "3", "acl_access_denied_channel": "1",
	} {
		if info[name] != want {
			t.Errorf("INFO stats %s = %q, want %s", name, info[name], want)
		}
	}
	mustOK(t, adm, "CONFIG", "RESETSTAT")
	if got := s.Info(t, "stats")["acl_access_denied_key"]; got != "0" {
		t.Errorf("acl_access_denied_key after CONFIG RESETSTAT = %q, want 0", got)
	}
}

// TestACLGoRedisUsername: go-redis logs in with a username and password, in RESP2 (AUTH user
// pass) and RESP3 (HELLO 3 AUTH user pass); a wrong password fails the connection with
// WRONGPASS, and a denied command returns the NOPERM error.
func TestACLGoRedisUsername(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	requireACL(t, s)
	ctx := context.Background()
	adm := s.RawConn(t)
	mustOK(t, adm, "ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+@read", "+@write", "+@connection")
	mustOK(t, adm, "SET", "app:1", "v")
	for _, proto := range []int{2, 3} {
		t.Run("resp"+strconv.Itoa(proto), func(t *testing.T) {
			login := func(o *redis.Options) { o.Username, o.Password = "app", "pw" }
			c := s.Client(t, withProtocol(proto), login)
			if v, err := c.Get(ctx, "app:1").Result(); err != nil || v != "v" {
				t.Fatalf("GET app:1 = %q, %v", v, err)
			}
			if err := c.Set(ctx, "app:2", "w", 0).Err(); err != nil {
				t.Errorf("SET app:2: %v", err)
			}
			if err := c.Get(ctx, "other").Err(); err == nil || err.Error() != nopermKey() {
				t.Errorf("GET other: %v, want %s", err, nopermKey())
			}
			if err := c.ConfigGet(ctx, "maxmemory").Err(); err == nil || err.Error() != nopermCmd("app", "config|get") {
				t.Errorf("CONFIG GET: %v, want %s", err, nopermCmd("app", "config|get"))
			}
			if who, err := c.Do(ctx, "ACL", "WHOAMI").Text(); err == nil || who != "" {
				t.Errorf("ACL WHOAMI of a user without @admin/@slow acl: %q, %v, want NOPERM", who, err)
			}
			bad := s.Client(t, withProtocol(proto), func(o *redis.Options) { o.Username, o.Password = "app", "nope" })
			if err := bad.Ping(ctx).Err(); err == nil || !strings.HasPrefix(err.Error(), "WRONGPASS invalid username-password pair") {
				t.Errorf("PING with a wrong password: %v, want WRONGPASS", err)
			}
		})
	}
}

// TestACLLogLengthAndRepeats: failed AUTHs are not logged one by one: repeats of the same
// denial (same reason, object and user, within a minute) count in one ACL LOG entry, from any
// connection; acllog-max-len caps the entries, dropping the oldest; a denial inside a script
// is logged with context lua.
func TestACLLogLengthAndRepeats(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	requireACL(t, s)
	adm := s.RawConn(t)
	mustOK(t, adm, "ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+@read", "+eval")
	for range 20 {
		wantReply(t, "AUTH app bad", s.RawConn(t).Do("AUTH", "app", "bad"),
			"(error) WRONGPASS invalid username-password pair or user is disabled.")
	}
	log := aclLog(t, adm)
	if len(log) != 1 {
		t.Fatalf("ACL LOG after 20 failed AUTHs: %d entries, want 1: %v", len(log), log)
	}
	checkLogEntry(t, 0, log[0], map[string]string{"reason": "auth", "object": "AUTH", "username": "app", "count": "20"})

	mustOK(t, adm, "CONFIG", "SET", "acllog-max-len", "2")
	c := s.RawConn(t)
	mustOK(t, c, "AUTH", "app", "pw")
	c.Do("GET", "k1")
	c.Do("SET", "app:1", "v")
	c.Do("EVAL", "return redis.call('get', 'k2')", "0")
	log = aclLog(t, adm)
	want := []map[string]string{
		{"reason": "key", "context": "lua", "object": "k2", "count": "1"},
		{"reason": "command", "context": "toplevel", "object": "set", "count": "1"},
	}
	if len(log) != len(want) {
		t.Fatalf("ACL LOG with acllog-max-len 2: %d entries, want %d: %v", len(log), len(want), log)
	}
	for i, w := range want {
		w["username"] = "app"
		checkLogEntry(t, i, log[i], w)
	}
	mustOK(t, adm, "CONFIG", "SET", "acllog-max-len", "0")
	c.Do("GET", "k3")
	if log := aclLog(t, adm); len(log) != 0 {
		t.Errorf("ACL LOG with acllog-max-len 0: %v", log)
	}
}
