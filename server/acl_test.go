package server

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/kvserver/kvserver/config"
)

// aclConn is one connection of rdb's server (a pool would spread AUTH over connections).
func aclConn(t *testing.T, rdb *redis.Client) *redis.Conn {
	t.Helper()
	c := rdb.Conn()
	t.Cleanup(func() { c.Close() })
	return c
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestACLDenials: a user limited to ~app:* +@read +@write -@dangerous and &news is denied a command, a
// key and a channel with Redis's exact errors; each denial is an ACL LOG entry and counted in
// INFO.
func TestACLDenials(t *testing.T) {
	_, rdb := startInProcess(t)
	ctx := t.Context()
	if err := rdb.Do(ctx, "ACL", "SETUSER", "app", "on", ">pw", "~app:*", "&news", "+@read", "+@write", "-@dangerous", "+publish").Err(); err != nil {
		t.Fatal(err)
	}
	c := aclConn(t, rdb)
	if err := c.Do(ctx, "AUTH", "app", "pw").Err(); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Do(ctx, "ACL", "WHOAMI").Text(); err == nil || v != "" {
		// ACL WHOAMI is @slow, not in @read/@write: denied to app.
		t.Fatalf("ACL WHOAMI as app: %q %v", v, err)
	}
	if err := c.Do(ctx, "SET", "app:1", "v").Err(); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Do(ctx, "GET", "app:1").Text(); err != nil || v != "v" {
		t.Fatalf("GET app:1: %q %v", v, err)
	}
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{"FLUSHALL"}, "NOPERM User app has no permissions to run the 'flushall' command"},
		{[]any{"GET", "other"}, "NOPERM No permissions to access a key"},
		{[]any{"MSET", "app:2", "x", "other", "y"}, "NOPERM No permissions to access a key"},
		{[]any{"PUBLISH", "sports", "m"}, "NOPERM No permissions to access a channel"},
		{[]any{"CONFIG", "GET", "port"}, "NOPERM User app has no permissions to run the 'config|get' command"},
	} {
		if got := errText(c.Do(ctx, tc.args...).Err()); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
	}
	if err := c.Do(ctx, "PUBLISH", "news", "m").Err(); err != nil {
		t.Fatalf("PUBLISH news: %v", err)
	}
	if v, _ := rdb.Do(ctx, "EXISTS", "other").Int(); v != 0 {
		t.Fatal("a denied MSET wrote")
	}
	log, err := rdb.Do(ctx, "ACL", "LOG").Slice()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range log {
		m := e.(map[any]any)
		got = append(got, m["reason"].(string)+":"+m["object"].(string)+":"+m["username"].(string)+":"+m["context"].(string))
		if ci := m["client-info"].(string); !strings.Contains(ci, "user=app") {
			t.Errorf("client-info %q", ci)
		}
	}
	want := "command:config|get:app:toplevel channel:sports:app:toplevel key:other:app:toplevel command:flushall:app:toplevel command:acl|whoami:app:toplevel"
	if strings.Join(got, " ") != want {
		t.Errorf("ACL LOG:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	info, _ := rdb.Info(ctx, "stats").Result()
	for _, w := range []string{"acl_access_denied_cmd:3", "acl_access_denied_key:2", "acl_access_denied_channel:1"} {
		if !strings.Contains(info, w+"\r\n") {
			t.Errorf("INFO lacks %s", w)
		}
	}
	// CLIENT LIST names each connection's user.
	list, _ := rdb.Do(ctx, "CLIENT", "LIST").Text()
	if !strings.Contains(list, "user=app ") || !strings.Contains(list, "user=default ") {
		t.Errorf("CLIENT LIST:\n%s", list)
	}
}

// TestACLMulti: a denied command inside MULTI is refused when queued, logged in the multi
// context, and EXEC answers EXECABORT; a permission taken away after queueing is checked again
// by EXEC.
func TestACLMulti(t *testing.T) {
	_, rdb := startInProcess(t)
	ctx := t.Context()
	rdb.Do(ctx, "ACL", "SETUSER", "app", "on", "nopass", "~*", "+@all", "-flushall")
	c := aclConn(t, rdb)
	c.Do(ctx, "AUTH", "app", "x")
	c.Do(ctx, "MULTI")
	if got := errText(c.Do(ctx, "FLUSHALL").Err()); got != "NOPERM User app has no permissions to run the 'flushall' command" {
		t.Fatalf("queued FLUSHALL: %q", got)
	}
	if got := errText(c.Do(ctx, "EXEC").Err()); !strings.HasPrefix(got, "EXECABORT") {
		t.Fatalf("EXEC: %q", got)
	}
	entry := rdb.Do(ctx, "ACL", "LOG", "1").Val().([]any)[0].(map[any]any)
	if entry["context"] != "multi" || entry["object"] != "flushall" {
		t.Fatalf("log entry %v", entry)
	}
	c.Do(ctx, "MULTI")
	c.Do(ctx, "INCR", "n")
	rdb.Do(ctx, "ACL", "SETUSER", "app", "-incr")
	// go-redis reports the array's first error element as the error.
	if err := errText(c.Do(ctx, "EXEC").Err()); !strings.HasPrefix(err, "NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. This command is no longer allowed for the following reason: no permission to execute the command or subcommand") {
		t.Fatalf("EXEC after -incr: %q", err)
	}
	if v, _ := rdb.Do(ctx, "EXISTS", "n").Int(); v != 0 {
		t.Fatal("EXEC ran the INCR the rules now deny")
	}
}

// TestACLScripts: a script's redis.call is checked as its caller's user (context lua), and
// redis.acl_check_cmd answers for that user.
func TestACLScripts(t *testing.T) {
	_, rdb := startInProcess(t)
	ctx := t.Context()
	rdb.Do(ctx, "ACL", "SETUSER", "app", "on", "nopass", "~app:*", "+@all", "-incr")
	c := aclConn(t, rdb)
	c.Do(ctx, "AUTH", "app", "x")
	err := errText(c.Do(ctx, "EVAL", "return redis.call('incr', 'app:n')", "0").Err())
	if !strings.Contains(err, "ACL failure in script: User app has no permissions to run the 'incr' command") {
		t.Fatalf("EVAL incr: %q", err)
	}
	err = errText(c.Do(ctx, "EVAL", "return redis.call('get', 'other')", "0").Err())
	if !strings.Contains(err, "ACL failure in script: No permissions to access a key") {
		t.Fatalf("EVAL get other: %q", err)
	}
	entry := rdb.Do(ctx, "ACL", "LOG", "2").Val().([]any)
	last := entry[1].(map[any]any)
	if last["context"] != "lua" || last["object"] != "incr" || !strings.Contains(last["client-info"].(string), "cmd=eval") {
		t.Fatalf("log entry %v", last)
	}
	v, err2 := c.Do(ctx, "EVAL", "return {redis.acl_check_cmd('incr','app:n') and 1 or 0, redis.acl_check_cmd('get','app:n') and 1 or 0, redis.acl_check_cmd('get','x') and 1 or 0}", "0").Slice()
	if err2 != nil || len(v) != 3 || v[0].(int64) != 0 || v[1].(int64) != 1 || v[2].(int64) != 0 {
		t.Fatalf("acl_check_cmd: %v %v", v, err2)
	}
}

// TestACLAuth: AUTH user pass, AUTH pass (the default user), HELLO AUTH, WRONGPASS with its
// log entry and counter, requirepass as the default user's password, and DELUSER closing the
// user's clients.
func TestACLAuth(t *testing.T) {
	s, rdb := startInProcess(t)
	ctx := t.Context()
	rdb.Do(ctx, "ACL", "SETUSER", "app", "on", ">pw", "~*", "+@all")
	c := aclConn(t, rdb)
	const wrong = "WRONGPASS invalid username-password pair or user is disabled."
	if got := errText(c.Do(ctx, "AUTH", "app", "bad").Err()); got != wrong {
		t.Fatalf("AUTH app bad: %q", got)
	}
	if got := errText(c.Do(ctx, "AUTH", "nosuch", "pw").Err()); got != wrong {
		t.Fatalf("AUTH nosuch: %q", got)
	}
	entry := rdb.Do(ctx, "ACL", "LOG", "1").Val().([]any)[0].(map[any]any)
	if entry["reason"] != "auth" || entry["object"] != "AUTH" || entry["username"] != "nosuch" {
		t.Fatalf("auth entry %v", entry)
	}
	if info, _ := rdb.Info(ctx, "stats").Result(); !strings.Contains(info, "acl_access_denied_auth:2\r\n") {
		t.Fatal("acl_access_denied_auth is not 2")
	}
	if err := c.Do(ctx, "HELLO", "3", "AUTH", "app", "pw").Err(); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.Do(ctx, "ACL", "WHOAMI").Text(); v != "app" {
		t.Fatalf("WHOAMI %q", v)
	}
	rdb.Do(ctx, "ACL", "SETUSER", "app", "off")
	if err := c.Do(ctx, "PING").Err(); err != nil {
		t.Fatalf("off keeps the connection (Redis 7.2): %v", err)
	}
	if got := errText(rdb.Conn().Do(ctx, "AUTH", "app", "pw").Err()); got != wrong {
		t.Fatalf("AUTH as an off user: %q", got)
	}
	if n, _ := rdb.Do(ctx, "ACL", "DELUSER", "app").Int(); n != 1 {
		t.Fatal("DELUSER")
	}
	if err := c.Do(ctx, "PING").Err(); err == nil {
		t.Fatal("the deleted user's connection still answers")
	}
	// requirepass is the default user's password.
	if err := rdb.Do(ctx, "CONFIG", "SET", "requirepass", "s3cret").Err(); err != nil {
		t.Fatal(err)
	}
	fresh := redis.NewClient(&redis.Options{Addr: s.Addrs()[0], PoolSize: 1})
	defer fresh.Close()
	d := fresh.Conn()
	defer d.Close()
	if got := errText(d.Do(ctx, "GET", "k").Err()); !strings.HasPrefix(got, "NOAUTH") {
		t.Fatalf("GET before AUTH: %q", got)
	}
	if err := d.Do(ctx, "AUTH", "s3cret").Err(); err != nil {
		t.Fatal(err)
	}
	if err := d.Do(ctx, "AUTH", "default", "s3cret").Err(); err != nil {
		t.Fatal(err)
	}
	if err := d.Do(ctx, "CONFIG", "SET", "requirepass", "").Err(); err != nil {
		t.Fatal(err)
	}
	if got := errText(d.Do(ctx, "AUTH", "x").Err()); !strings.Contains(got, "without any password configured") {
		t.Fatalf("AUTH x without a password: %q", got)
	}
}

// TestACLUserDirectives: `user` lines create users at start-up; a bad one, or users beside an
// aclfile, refuse the start; an aclfile is loaded, and ACL SAVE / LOAD round-trip.
func TestACLUserDirectives(t *testing.T) {
	s, rdb := startInProcess(t, []string{"user", "app", "on", ">pw", "~app:*", "+get"}, []string{"acllog-max-len", "2"})
	ctx := t.Context()
	if v, _ := rdb.Do(ctx, "ACL", "LIST").StringSlice(); len(v) != 2 || !strings.HasPrefix(v[0], "user app on ") {
		t.Fatalf("ACL LIST %q", v)
	}
	if got := errText(rdb.Do(ctx, "ACL", "SAVE").Err()); !strings.Contains(got, "not configured to use an ACL file") {
		t.Fatalf("ACL SAVE: %q", got)
	}
	_ = s
	bad := func(directives ...[]string) error {
		cfg := config.New()
		if err := cfg.Load(append([][]string{{"port", "0"}, {"save", ""}}, directives...)); err != nil {
			return err
		}
		srv, err := New(Options{Config: cfg})
		if err == nil {
			srv.Close()
		}
		return err
	}
	var le *config.LoadError
	if err := bad([]string{"user", "app", "bogus"}); !errors.As(err, &le) || le.Reason != "Error in user declaration 'user': Syntax error" { // Redis names argv[j] for rule j
		t.Fatalf("bad user line: %v", err)
	}
	if err := bad([]string{"user", "app", "on"}, []string{"aclfile", "/nonexistent.acl"}); !errors.As(err, &le) || le.Reason != errUsersAndFile {
		t.Fatalf("user and aclfile: %v", err)
	}
	path := filepath.Join(t.TempDir(), "users.acl")
	if err := os.WriteFile(path, []byte("user default on nopass ~* &* +@all\nuser ops on #"+strings.Repeat("a", 64)+" ~* +@all\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, rdb2 := startInProcess(t, []string{"aclfile", path})
	if v, _ := rdb2.Do(ctx, "ACL", "USERS").StringSlice(); strings.Join(v, ",") != "default,ops" {
		t.Fatalf("users from the file: %q", v)
	}
	rdb2.Do(ctx, "ACL", "SETUSER", "new", "on", "nopass", "+get")
	if err := rdb2.Do(ctx, "ACL", "SAVE").Err(); err != nil {
		t.Fatal(err)
	}
	rdb2.Do(ctx, "ACL", "DELUSER", "new")
	if err := rdb2.Do(ctx, "ACL", "LOAD").Err(); err != nil {
		t.Fatal(err)
	}
	if v, _ := rdb2.Do(ctx, "ACL", "USERS").StringSlice(); strings.Join(v, ",") != "default,new,ops" {
		t.Fatalf("users after SAVE, DELUSER, LOAD: %q", v)
	}
}

// TestACLPubsubRevocation: a change that takes a channel away closes the user's clients
// subscribed to it, and only those (Redis 7.2's ACLKillPubsubClientsIfNeeded); a change that
// takes a command away closes nothing.
func TestACLPubsubRevocation(t *testing.T) {
	s, rdb := startInProcess(t)
	ctx := t.Context()
	rdb.Do(ctx, "ACL", "SETUSER", "sub", "on", ">pw", "&news*", "&other", "+@all")
	dial := func(channel string) (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", s.Addrs()[0])
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		r := bufio.NewReader(c)
		fmt.Fprintf(c, "AUTH sub pw\r\nSUBSCRIBE %s\r\n", channel)
		for _, want := range []string{"+OK", "*3", "$9", "subscribe", "$", channel, ":1"} {
			line, err := r.ReadString('\n')
			if err != nil || !strings.HasPrefix(line, want) {
				t.Fatalf("%s: %q %v, want %q", channel, line, err, want)
			}
		}
		return c, r
	}
	news, newsR := dial("news1")
	other, otherR := dial("other")
	if err := rdb.Do(ctx, "ACL", "SETUSER", "sub", "-get").Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.Do(ctx, "ACL", "SETUSER", "sub", "resetchannels", "&other").Err(); err != nil {
		t.Fatal(err)
	}
	news.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := newsR.ReadString('\n'); err == nil {
		t.Fatal("the client subscribed to a revoked channel is still connected")
	}
	fmt.Fprintf(other, "PING\r\n")
	other.SetReadDeadline(time.Now().Add(5 * time.Second))
	for _, want := range []string{"*2", "$4", "pong", "$0", ""} {
		if line, err := otherR.ReadString('\n'); err != nil || !strings.HasPrefix(line, want) {
			t.Fatalf("the client of an allowed channel: %q %v", line, err)
		}
	}
}

// TestACLPubsubRevocationWaitsForBusyClient: a subscriber whose lock is held when the
// change comes (its server thread finishing the batch that answered SUBSCRIBE, descheduled on
// a loaded machine) is checked once the lock comes free, not closed for being busy: its
// channel is still allowed, so it stays connected.
func TestACLPubsubRevocationWaitsForBusyClient(t *testing.T) {
	s, rdb := startInProcess(t)
	ctx := t.Context()
	rdb.Do(ctx, "ACL", "SETUSER", "sub", "on", ">pw", "&news", "&other", "+@all")
	c, err := net.Dial("tcp", s.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	fmt.Fprintf(c, "AUTH sub pw\r\nSUBSCRIBE other\r\n")
	for _, want := range []string{"+OK", "*3", "$9", "subscribe", "$5", "other", ":1"} {
		if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, want) {
			t.Fatalf("subscribing: %q %v, want %q", line, err, want)
		}
	}
	var sub *client
	for _, o := range s.clientsSnapshot() {
		if subs := o.subs.Load(); subs != nil && subs.nsub.Load() == 1 {
			sub = o
		}
	}
	if sub == nil {
		t.Fatal("the subscriber is not among the server's clients")
	}
	sub.mu.Lock() // as its own batch would hold it
	go func() {
		time.Sleep(20 * time.Millisecond)
		sub.mu.Unlock()
	}()
	if err := rdb.Do(ctx, "ACL", "SETUSER", "sub", "resetchannels", "&other").Err(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "PING\r\n")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	for _, want := range []string{"*2", "$4", "pong", "$0", ""} {
		if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, want) {
			t.Fatalf("the subscriber to an allowed channel: %q %v", line, err)
		}
	}
}

// TestACLClientKillUser: CLIENT KILL USER closes the user's clients only; an unknown user is
// an error.
func TestACLClientKillUser(t *testing.T) {
	_, rdb := startInProcess(t)
	ctx := t.Context()
	rdb.Do(ctx, "ACL", "SETUSER", "app", "on", "nopass", "+@all", "~*")
	c := aclConn(t, rdb)
	c.Do(ctx, "AUTH", "app", "x")
	if got := errText(rdb.Do(ctx, "CLIENT", "KILL", "USER", "nosuch").Err()); got != "ERR No such user 'nosuch'" {
		t.Fatalf("unknown user: %q", got)
	}
	if n, err := rdb.Do(ctx, "CLIENT", "KILL", "USER", "app").Int(); err != nil || n != 1 {
		t.Fatalf("CLIENT KILL USER app: %d %v", n, err)
	}
	if err := c.Do(ctx, "PING").Err(); err == nil {
		t.Fatal("the app client still answers")
	}
}
