package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The rules of rewriteConfig, checked against what redis-server 7.0.15 writes for the same
// file and changes (7.2 differs only in the default user's line, which gains
// sanitize-payload).
func TestRewriteContent(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "inc.conf")
	if err := os.WriteFile(inc, []byte("# included\nmaxmemory 1mb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := "# top comment\nport 7397\ninclude " + inc + "\nrename-command FLUSHALL \"\"\n" +
		"save 900 1\nsave 300 10\nhz 20\nhz 30\n  # indented comment\nslave-read-only no\n" +
		"maxmemory 2mb\ntimeout 0\nrequirepass \"old\"\nclient-output-buffer-limit pubsub 32mb 8mb 60\n"
	path := filepath.Join(dir, "r.conf")
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newPermissive()
	if err := c.LoadFile(path, [][]string{{"dir", dir}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Set([2]string{"hz", "15"}, [2]string{"maxclients", "100"}, [2]string{"loglevel", "verbose"},
		[2]string{"requirepass", ""}, [2]string{"save", "60 5"}); err != nil {
		t.Fatal(err)
	}
	want := "# top comment\nport 7397\ninclude " + inc + "\nrename-command FLUSHALL \"\"\nsave 60 5\n\nhz 15\n\n" +
		"# indented comment\nreplica-read-only no\nmaxmemory 2mb\ntimeout 0\n\n" +
		"client-output-buffer-limit normal 0 0 0\n\n" + rewriteSignature + "\n" +
		"loglevel verbose\ndir \"" + dir + "\"\nmaxclients 100\nlatency-tracking-info-percentiles 50 99 99.9\n"
	got := c.rewriteContent(old, nil)
	if got != sortedTail(want, got) {
		t.Fatalf("rewrite:\n%s\nwant:\n%s", got, want)
	}

	// A second rewrite with a new password appends it below the signature, and no user line
	// (kvserver has no ACL: it would refuse the line); nothing else moves.
	if err := c.Set([2]string{"requirepass", `a b"c`}); err != nil {
		t.Fatal(err)
	}
	got2 := c.rewriteContent(got, nil)
	if !strings.HasSuffix(got2, "\n\nrequirepass \"a b\\\"c\"\n") {
		t.Fatalf("second rewrite does not end with the password:\n%s", got2)
	}
	if strings.Contains(got2, "user ") {
		t.Fatalf("user line written:\n%s", got2)
	}
	if strings.Count(got2, rewriteSignature) != 1 {
		t.Fatalf("signature repeated:\n%s", got2)
	}
	// Rewriting again changes nothing but adds one trailing blank line, once.
	got3 := c.rewriteContent(got2, nil)
	if got3 != got2+"\n" || c.rewriteContent(got3, nil) != got3 {
		t.Fatalf("rewrite is not stable:\n%q\n%q", got2, got3)
	}
}

// sortedTail returns got when it equals want up to the order of the appended lines (Redis
// appends them in its dict order, kvserver in table order), else want.
func sortedTail(want, got string) string {
	w, g := strings.SplitN(want, rewriteSignature, 2), strings.SplitN(got, rewriteSignature, 2)
	if len(w) != 2 || len(g) != 2 || w[0] != g[0] {
		return want
	}
	wl, gl := strings.Split(w[1], "\n"), strings.Split(g[1], "\n")
	if len(wl) != len(gl) {
		return want
	}
	seen := map[string]int{}
	for _, l := range wl {
		seen[l]++
	}
	for _, l := range gl {
		if seen[l] == 0 {
			return want
		}
		seen[l]--
	}
	return got
}

func TestRewriteValues(t *testing.T) {
	c := newPermissive()
	if err := c.Load([][]string{{"dir", t.TempDir()}, {"save", ""}, {"syslog-ident", ""}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Set([2]string{"maxmemory", "1000"}, [2]string{"maxmemory-clients", "5%"},
		[2]string{"client-output-buffer-limit", "normal 1mb 0 0 pubsub 1024 0 0"},
		[2]string{"notify-keyspace-events", "KEA"}, [2]string{"shutdown-on-sigterm", "nosave now"},
		[2]string{"proto-max-bulk-len", "1gb"}); err != nil {
		t.Fatal(err)
	}
	got := c.rewriteContent("bind 127.0.0.1 -::1\npidfile \"\"\nunknown-thing 1\nlist-max-ziplist-entries 5\n\"unbalanced\n", nil)
	for _, want := range []string{
		"\n\n", // bind at its default and an empty pidfile lose their lines
		"# ??? unknown-thing 1\n",
		"list-max-ziplist-entries 5\n",
		"# ??? \"unbalanced\n",
		"save \"\"\n",
		"maxmemory 1000\n",
		"maxmemory-clients 5%\n",
		"client-output-buffer-limit normal 1mb 0 0\n",
		"client-output-buffer-limit pubsub 1kb 0 0\n",
		"notify-keyspace-events \"AKE\"\n",
		"shutdown-on-sigterm nosave now\n",
		"proto-max-bulk-len 1gb\n",
		"syslog-ident \"\"\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	for _, bad := range []string{"bind", "pidfile", "slave 256mb"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q should not be written:\n%s", bad, got)
		}
	}
}

func TestRewriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.conf")
	c := New()
	if err := c.Set([2]string{"hz", "42"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Rewrite(path, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), rewriteSignature+"\nhz 42\n") {
		t.Fatalf("new file: %q, %v", b, err)
	}
	c2 := New()
	if err := c2.LoadFile(path, nil); err != nil {
		t.Fatalf("loading the rewritten file: %v", err)
	}
	if v, _ := c2.Value("hz"); v != "42" {
		t.Fatalf("hz after reload: %s", v)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
	if err := c.Rewrite(filepath.Join(dir, "missing", "x.conf"), nil); err == nil {
		t.Fatal("rewrite into a missing directory succeeded")
	}
}

// The ACL's users take the places of the old user lines (an extra old one goes, an extra user
// is appended); with an aclfile no user line is written and the old ones go.
func TestRewriteUsers(t *testing.T) {
	c := newPermissive()
	if err := c.Load([][]string{{"dir", t.TempDir()}}); err != nil {
		t.Fatal(err)
	}
	users := []string{"user a on nopass ~* +@all", "user default on nopass ~* &* +@all"}
	got := c.rewriteContent("# head\nuser x on\nhz 10\nuser y on\nuser z on\n", users)
	if !strings.HasPrefix(got, "# head\nuser a on nopass ~* +@all\nhz 10\nuser default on nopass ~* &* +@all\n\n") {
		t.Errorf("rewritten:\n%s", got)
	}
	if strings.Contains(got, "user z") || strings.Count(got, "user ") != 2 {
		t.Errorf("old user lines kept:\n%s", got)
	}
	if err := c.Set([2]string{"aclfile", "/tmp/users.acl"}); err == nil {
		t.Fatal("CONFIG SET aclfile is immutable")
	}
	c2 := newPermissive()
	if err := c2.Load([][]string{{"dir", t.TempDir()}, {"aclfile", "/tmp/users.acl"}}); err != nil {
		t.Fatal(err)
	}
	if got := c2.rewriteContent("user x on\nhz 10\n", users); strings.Contains(got, "user ") || !strings.Contains(got, "aclfile \"/tmp/users.acl\"\n") {
		t.Errorf("with an aclfile:\n%s", got)
	}
}
