package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// ACL users from files (issue 24): an aclfile loaded at start-up, changed with ACL SETUSER,
// written by ACL SAVE and read back by a restart and by ACL LOAD; a bad aclfile, a bad `user`
// directive and both at once refuse the start with Redis's errors; `user` directives in the
// configuration file. Skipped while kvserver lacks ACL SETUSER.

var (
	aclProbeOnce sync.Once
	aclProbeErr  string // non-empty: the binary lacks ACL SETUSER, and its answer
)

// requireACLBinary skips the test when the binary under test lacks ACL SETUSER, probed once
// on a server of its own (the tests here start theirs with arguments a binary without ACL
// refuses).
func requireACLBinary(t *testing.T) {
	t.Helper()
	aclProbeOnce.Do(func() {
		s := startServer(t)
		c := s.RawConn(t)
		if r := c.Do("ACL", "SETUSER"); r.Kind == '-' && strings.HasPrefix(r.Str, "ERR unknown") {
			aclProbeErr = r.Str
		}
		c.Close()
		if err := s.Stop(stopTimeout); err != nil {
			t.Fatalf("stopping the probe server: %v", err)
		}
	})
	if aclProbeErr != "" {
		t.Skipf("kvserver lacks ACL SETUSER (issue 24): %s", aclProbeErr)
	}
}

// aclList returns ACL LIST's lines.
func aclList(t *testing.T, c *rawConn) []string {
	t.Helper()
	r := c.Do("ACL", "LIST")
	if r.Kind != '*' {
		t.Fatalf("ACL LIST: %s", formatReply(r, false))
	}
	var out []string
	for _, e := range r.Elems {
		out = append(out, e.Str)
	}
	return out
}

// sp is the sanitize-payload flag as ACL LIST shows it after on/off and nopass: Redis 7.2 gives
// it to every new user (redis#11279), 7.0.15 does not (differences_test.go).
func sp() string {
	if targetRedis {
		return ""
	}
	return " sanitize-payload"
}

// sha256 of "pw" and of "b", as ACL LIST and the aclfile show the passwords.
const (
	pwHash = "30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4"
	bHash  = "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d"
)

// TestACLFileRoundTrip: users of an aclfile are there at start-up; ACL SETUSER then ACL SAVE
// writes the file (Redis's lines, passwords as hashes), a restart reads the same users back,
// and ACL LOAD replaces the users with the file's — all or nothing: a bad line leaves them as
// they were and answers Redis's error naming the file and line.
func TestACLFileRoundTrip(t *testing.T) {
	t.Parallel()
	requireACLBinary(t)
	acl := writeFile(t, filepath.Join(t.TempDir(), "users.acl"),
		"user default on nopass ~* &* +@all\nuser app on >pw ~app:* +@read\n")
	s := startServer(t, "--aclfile", acl)
	c := s.RawConn(t)
	want := []string{
		"user app on" + sp() + " #" + pwHash + " ~app:* resetchannels -@all +@read",
		"user default on nopass" + sp() + " ~* &* +@all",
	}
	if got := aclList(t, c); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("ACL LIST from the aclfile:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	mustOK(t, s.RawConn(t), "AUTH", "app", "pw")

	mustOK(t, c, "ACL", "SETUSER", "bob", "on", ">b", "~b:*", "+get")
	mustOK(t, c, "ACL", "SAVE")
	data, err := os.ReadFile(acl)
	if err != nil {
		t.Fatal(err)
	}
	wantFile := "user app on" + sp() + " #" + pwHash + " ~app:* resetchannels -@all +@read\n" +
		"user bob on" + sp() + " #" + bHash + " ~b:* resetchannels -@all +get\n" +
		"user default on nopass" + sp() + " ~* &* +@all\n"
	if string(data) != wantFile {
		t.Errorf("the aclfile after ACL SAVE:\n%s\nwant:\n%s", data, wantFile)
	}
	before := aclList(t, c)
	c.Close()
	if err := s.Stop(stopTimeout); err != nil {
		t.Fatalf("stop: %v", err)
	}

	s2 := startServer(t, "--aclfile", acl)
	c2 := s2.RawConn(t)
	if got := aclList(t, c2); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("ACL LIST after the restart:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
	}
	bob := s2.RawConn(t)
	mustOK(t, bob, "AUTH", "bob", "b")
	wantReply(t, "bob's GET b:1", bob.Do("GET", "b:1"), "(nil)")

	// ACL LOAD: a bad file changes nothing; a good one replaces every user.
	writeFile(t, acl, "user default on nopass ~* &* +@all\nuser carol on >c ~c:* +@nosuch\n")
	wantReply(t, "ACL LOAD of a bad file", c2.Do("ACL", "LOAD"), "(error) ERR "+acl+
		":2: Error in applying operation '+@nosuch': Unknown command or category name in ACL. "+
		"WARNING: ACL errors detected, no change to the previously active ACL rules was performed")
	if got := aclList(t, c2); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("ACL LIST after a failed ACL LOAD:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
	}
	writeFile(t, acl, "user default on nopass ~* &* +@all\nuser carol on nopass ~c:* +@read\n")
	mustOK(t, c2, "ACL", "LOAD")
	wantReply(t, "ACL USERS after ACL LOAD", c2.Do("ACL", "USERS"), "1) \"carol\"\n2) \"default\"")
	// bob is gone, and so is his connection (as after ACL DELUSER).
	expectClosed(t, bob, "bob's client after ACL LOAD dropped bob")
}

// TestACLFileBadAtStartup: an aclfile with an unknown category, a line that is not a user, or
// no file at all stops the server with exit status 1 and Redis's message.
func TestACLFileBadAtStartup(t *testing.T) {
	t.Parallel()
	requireACLBinary(t)
	dir := t.TempDir()
	for _, tc := range []struct{ name, content, want string }{
		{"unknown category", "user default on nopass ~* &* +@all\nuser app on >pw ~app:* +@nosuch\n",
			"bad.acl:2: Error in applying operation '+@nosuch': Unknown command or category name in ACL"},
		{"not a user line", "user default on nopass ~* &* +@all\nnotauser x\n",
			"bad.acl:2 should start with user keyword followed by the username"},
		{"missing file", "", "Error loading ACLs, opening file '"},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"), "bad.acl")
			if tc.content != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, path, tc.content)
			}
			out, err := runServerExpectFailure(t, "--aclfile", path)
			var ee *exec.ExitError
			if !asExitError(err, &ee) || ee.ExitCode() != 1 {
				t.Errorf("exit: %v, want status 1; output:\n%s", err, out)
			}
			if !strings.Contains(out, "Aborting Redis startup because of ACL errors: ") || !strings.Contains(out, tc.want) {
				t.Errorf("output:\n%s\nwant \"Aborting Redis startup because of ACL errors: …%s…\"", out, tc.want)
			}
		})
	}
}

// TestACLUserDirectives: `user` lines of the configuration file define users as ACL SETUSER
// would; a bad one stops the start — an unknown command or category when the users are
// loaded, naming the rule and the user, a syntax error while the file is read, in the FATAL
// CONFIG FILE ERROR block; `user` lines together with an
// aclfile are refused, as Redis refuses them.
func TestACLUserDirectives(t *testing.T) {
	t.Parallel()
	requireACLBinary(t)
	dir := t.TempDir()
	conf := writeFile(t, filepath.Join(dir, "users.conf"),
		"user app on >pw ~app:* +@read\nuser ops on nopass ~* &* +@all -flushall\n")
	s := startServerCmd(t, nil, conf)
	c := s.RawConn(t)
	want := []string{
		"user app on" + sp() + " #" + pwHash + " ~app:* resetchannels -@all +@read",
		"user default on nopass" + sp() + " ~* &* +@all",
		"user ops on nopass" + sp() + " ~* &* +@all -flushall",
	}
	if got := aclList(t, c); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ACL LIST:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	app := s.RawConn(t)
	mustOK(t, app, "AUTH", "app", "pw")
	wantReply(t, "app's SET", app.Do("SET", "app:1", "v"), "(error) "+nopermCmd("app", "set"))
	ops := s.RawConn(t)
	mustOK(t, ops, "AUTH", "ops", "x")
	wantReply(t, "ops's FLUSHALL", ops.Do("FLUSHALL"), "(error) "+nopermCmd("ops", "flushall"))

	t.Run("bad_rule", func(t *testing.T) {
		bad := writeFile(t, filepath.Join(dir, "bad.conf"), "user app on >pw ~app:* +@nosuch\n")
		out, err := runServerExpectFailure(t, bad)
		var ee *exec.ExitError
		if !asExitError(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("exit: %v, want status 1; output:\n%s", err, out)
		}
		if !strings.Contains(out, "Error loading ACL rule '+@nosuch' for the user named 'app': Unknown command or category name in ACL") {
			t.Errorf("output:\n%s\nwant Redis's \"Error loading ACL rule '+@nosuch' for the user named 'app': …\"", out)
		}
	})
	t.Run("bad_syntax", func(t *testing.T) {
		// A rule that is not one is refused while the file is read (ACLAppendUserForLoading), in
		// the FATAL CONFIG FILE ERROR block; its text names argv[j], j counted among the rules —
		// here the user's name, as Redis prints it.
		bad := writeFile(t, filepath.Join(dir, "badsyntax.conf"), "user app on badrule\n")
		out, err := runServerExpectFailure(t, bad)
		var ee *exec.ExitError
		if !asExitError(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("exit: %v, want status 1; output:\n%s", err, out)
		}
		msg := "Error in user declaration 'app': Syntax error"
		if !strings.Contains(out, "*** FATAL CONFIG FILE ERROR (Redis ") || !strings.Contains(out, msg) {
			t.Errorf("output:\n%s\nwant Redis's FATAL CONFIG FILE ERROR block with %q", out, msg)
		}
		block := "Reading the configuration file, at line 1\n>>> 'user app on badrule'\n" + msg + "\n"
		if !strings.Contains(out, block) {
			t.Errorf("output:\n%s\nwant the block to end\n%s", out, block)
		}
	})
	t.Run("with_aclfile", func(t *testing.T) {
		acl := writeFile(t, filepath.Join(dir, "both.acl"), "user default on nopass ~* &* +@all\n")
		both := writeFile(t, filepath.Join(dir, "both.conf"), "user app on >pw ~app:* +@read\naclfile "+acl+"\n")
		out, err := runServerExpectFailure(t, both)
		var ee *exec.ExitError
		if !asExitError(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("exit: %v, want status 1; output:\n%s", err, out)
		}
		if !strings.Contains(out, "Configuring Redis with users defined in redis.conf and at the same setting an ACL file path is invalid.") {
			t.Errorf("output:\n%s\nwant Redis's \"Configuring Redis with users defined in redis.conf and at the same setting an ACL file path is invalid. …\"", out)
		}
	})
}

// TestACLConfigRewriteUsers: CONFIG REWRITE writes every user as a `user` line (ACL LIST's),
// the first in place of the file's old user line, the rest under the signature, and a restart
// from the file has the same users; with an aclfile the file's user lines are not written
// (the users live in the aclfile).
func TestACLConfigRewriteUsers(t *testing.T) {
	t.Parallel()
	requireACLBinary(t)
	dir := t.TempDir()
	conf := writeFile(t, filepath.Join(dir, "users.conf"), "# users\nuser app on >pw ~app:* +@read\nhz 11\n")
	s := startServerCmd(t, nil, conf)
	c := s.RawConn(t)
	mustOK(t, c, "ACL", "SETUSER", "app", "+@write")
	mustOK(t, c, "ACL", "SETUSER", "ops", "on", ">b", "~*", "+@all", "-flushall")
	users := aclList(t, c)
	mustOK(t, c, "CONFIG", "REWRITE")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if !strings.HasPrefix(got, "# users\n"+users[0]+"\nhz 11\n") {
		t.Errorf("rewritten file:\n%s\nwant the old user line replaced by %q", got, users[0])
	}
	for _, u := range users {
		if strings.Count(got, u+"\n") != 1 {
			t.Errorf("rewritten file has %q %d times, want once:\n%s", u, strings.Count(got, u+"\n"), got)
		}
	}
	if err := s.Stop(stopTimeout); err != nil {
		t.Fatal(err)
	}
	again := startServerCmd(t, nil, conf)
	c2 := again.RawConn(t)
	after := aclList(t, c2)
	if targetRedis && len(after) == 3 && after[1] == "user default on nopass sanitize-payload ~* &* +@all" {
		// 7.0.15's `user default …` line resets the user, and its reset adds sanitize-payload
		// (7.2 gives the flag to every user, so its default user has it already).
		after[1] = users[1]
	}
	if got := after; strings.Join(got, "\n") != strings.Join(users, "\n") {
		t.Errorf("ACL LIST after a restart from the rewritten file:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(users, "\n"))
	}
	app := again.RawConn(t)
	mustOK(t, app, "AUTH", "app", "pw")
	mustOK(t, app, "SET", "app:1", "v")

	// With an aclfile the users are not written into the configuration file.
	aclPath := writeFile(t, filepath.Join(dir, "users.acl"), "user default on nopass ~* &* +@all\nuser a2 on >pw ~* +@all\n")
	conf2 := writeFile(t, filepath.Join(dir, "withfile.conf"), "aclfile "+aclPath+"\n")
	s3 := startServerCmd(t, nil, conf2)
	c3 := s3.RawConn(t)
	mustOK(t, c3, "CONFIG", "REWRITE")
	if b, err := os.ReadFile(conf2); err != nil || strings.Contains(string(b), "\nuser ") || strings.HasPrefix(string(b), "user ") {
		t.Errorf("rewritten file with an aclfile (%v):\n%s\nwant no user lines", err, b)
	}
}
