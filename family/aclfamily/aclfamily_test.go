package aclfamily

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/acl"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/internal/familytest"
)

// fakeHost is a server with a registry over the harness's table.
type fakeHost struct {
	reg     *acl.Registry
	log     *acl.Log
	tab     *command.Table
	file    string
	changed int
	clients []string // the users with clients
	killed  []string
	// narrowed are the users whose channels a change narrowed.
	narrowed []string
}

func (f *fakeHost) Registry() *acl.Registry  { return f.reg }
func (f *fakeHost) Log() *acl.Log            { return f.log }
func (f *fakeHost) Commands() *command.Table { return f.tab }
func (f *fakeHost) ACLFile() string          { return f.file }
func (f *fakeHost) Changed()                 { f.changed++ }
func (f *fakeHost) UserChanged(_ *command.Ctx, old, u *acl.User) {
	if old != nil && u.ChannelsNarrowedFrom(old) {
		f.narrowed = append(f.narrowed, u.Name())
	}
}
func (f *fakeHost) KillUsers(_ *command.Ctx, gone func(string) bool) {
	for _, n := range f.clients {
		if gone(n) {
			f.killed = append(f.killed, n)
		}
	}
}

func newHarness(t *testing.T) (*familytest.Harness, *fakeHost) {
	host := &fakeHost{log: acl.NewLog()}
	h := familytest.New(t, Commands(host), stringfamily.Commands())
	host.tab = h.Tab
	host.reg = acl.NewRegistry(command.ACLCatalog(h.Tab))
	return h, host
}

// bulk is a RESP bulk string.
func bulk(s string) string { return "$" + strconv.Itoa(len(s)) + "\r\n" + s + "\r\n" }

func hash(p string) string {
	s := sha256.Sum256([]byte(p))
	return hex.EncodeToString(s[:])
}

// TestSetUserGetUser: GETUSER's 7.2 shape in RESP2 (flat arrays) and RESP3 (maps, a set of
// flags), selectors included; a bad rule changes nothing.
func TestSetUserGetUser(t *testing.T) {
	h, host := newHarness(t)
	h.Expect("+OK\r\n", "ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+get")
	if host.changed != 1 {
		t.Fatalf("Changed called %d times", host.changed)
	}
	h.Expect("$-1\r\n", "ACL", "GETUSER", "nosuch")
	body := "$5\r\nflags\r\n*2\r\n$2\r\non\r\n$16\r\nsanitize-payload\r\n" +
		"$9\r\npasswords\r\n*1\r\n$64\r\n" + hash("pw") + "\r\n" +
		"$8\r\ncommands\r\n$10\r\n-@all +get\r\n$4\r\nkeys\r\n$6\r\n~app:*\r\n$8\r\nchannels\r\n$0\r\n\r\n" +
		"$9\r\nselectors\r\n*0\r\n"
	h.Expect("*12\r\n"+body, "ACL", "GETUSER", "app")
	h.W.SetProto(3)
	body3 := strings.Replace(body, "*2\r\n$2\r\non", "~2\r\n$2\r\non", 1)
	h.Expect("%6\r\n"+body3, "ACL", "GETUSER", "app")
	h.W.SetProto(2)
	got := h.Do("ACL", "SETUSER", "app", "+set", "bogus")
	if !strings.HasPrefix(got, "-ERR Error in ACL SETUSER modifier 'bogus'") {
		t.Fatalf("bad rule: %q", got)
	}
	h.Expect("+OK\r\n", "ACL", "SETUSER", "app", "(~sel:* +set)")
	if g := h.Do("ACL", "GETUSER", "app"); !strings.HasSuffix(g, "$9\r\nselectors\r\n*1\r\n*6\r\n$8\r\ncommands\r\n$10\r\n-@all +set\r\n$4\r\nkeys\r\n$6\r\n~sel:*\r\n$8\r\nchannels\r\n$0\r\n\r\n") {
		t.Fatalf("selector: %q", g)
	}
	h.Expect("-ERR Usernames can't contain spaces or null characters\r\n", "ACL", "SETUSER", "a b")
}

// TestUsersListDelUser: USERS, LIST, DELUSER (its count, the default user refused, the
// deleted users' clients killed), WHOAMI without a user.
func TestUsersListDelUser(t *testing.T) {
	h, host := newHarness(t)
	host.clients = []string{"default", "ops"}
	h.Expect("+OK\r\n", "ACL", "SETUSER", "ops", "on", "nopass", "+@all", "~*")
	h.Expect("*2\r\n$7\r\ndefault\r\n$3\r\nops\r\n", "ACL", "USERS")
	h.Expect("*2\r\n"+bulk("user default on nopass sanitize-payload ~* &* +@all")+bulk("user ops on nopass sanitize-payload ~* resetchannels +@all"), "ACL", "LIST")
	if got := h.Do("ACL", "DELUSER", "default"); !strings.Contains(got, "'default' user cannot be removed") {
		t.Fatalf("DELUSER default: %q", got)
	}
	h.Expect(":1\r\n", "ACL", "DELUSER", "ops", "nosuch")
	if strings.Join(host.killed, ",") != "ops" {
		t.Fatalf("killed %v", host.killed)
	}
	h.Expect(":0\r\n", "ACL", "DELUSER", "ops")
	h.Expect("$7\r\ndefault\r\n", "ACL", "WHOAMI")
}

// TestCatGenpassDryrunLog: CAT, GENPASS's sizes and errors, DRYRUN's answers, LOG's count and
// RESET, LOAD and SAVE without an aclfile, HELP.
func TestCatGenpassDryrunLog(t *testing.T) {
	h, host := newHarness(t)
	if got := h.Do("ACL", "CAT"); !strings.HasPrefix(got, "*21\r\n$8\r\nkeyspace\r\n") {
		t.Fatalf("CAT: %q", got)
	}
	if got := h.Do("ACL", "CAT", "string"); !strings.Contains(got, "$3\r\nget\r\n") || strings.Contains(got, "$4\r\nhset\r\n") {
		t.Fatalf("CAT string: %q", got)
	}
	h.Expect("-ERR Unknown category 'nosuch'\r\n", "ACL", "CAT", "nosuch")
	if got := h.Do("ACL", "GENPASS"); len(got) != len("$64\r\n\r\n")+64 {
		t.Fatalf("GENPASS: %q", got)
	}
	if got := h.Do("ACL", "GENPASS", "5"); len(got) != len("$2\r\n\r\n")+2 {
		t.Fatalf("GENPASS 5: %q", got)
	}
	h.Expect("-"+errGenpass.Error()+"\r\n", "ACL", "GENPASS", "0")
	h.Expect("-"+errGenpass.Error()+"\r\n", "ACL", "GENPASS", "4097")
	h.Expect("+OK\r\n", "ACL", "SETUSER", "app", "on", "nopass", "~app:*", "+get")
	h.Expect("+OK\r\n", "ACL", "DRYRUN", "app", "get", "app:1")
	h.Expect(bulk("User app has no permissions to access the 'other' key"), "ACL", "DRYRUN", "app", "get", "other")
	h.Expect(bulk("User app has no permissions to run the 'set' command"), "ACL", "DRYRUN", "app", "set", "app:1", "v")
	h.Expect("-ERR User 'nosuch' not found\r\n", "ACL", "DRYRUN", "nosuch", "get", "x")
	h.Expect("-ERR Command 'nosuch' not found\r\n", "ACL", "DRYRUN", "app", "nosuch")
	h.Expect("-ERR wrong number of arguments for 'get' command\r\n", "ACL", "DRYRUN", "app", "get")
	host.log.Add(acl.Entry{Reason: acl.Key, Context: "toplevel", Object: "k", Username: "app"})
	host.log.Add(acl.Entry{Reason: acl.Cmd, Context: "toplevel", Object: "set", Username: "app"})
	if got := h.Do("ACL", "LOG", "1"); !strings.HasPrefix(got, "*1\r\n*20\r\n$5\r\ncount\r\n:1\r\n$6\r\nreason\r\n$7\r\ncommand\r\n$7\r\ncontext\r\n$8\r\ntoplevel\r\n$6\r\nobject\r\n$3\r\nset\r\n") || !strings.Contains(got, "$8\r\nentry-id\r\n:1\r\n$17\r\ntimestamp-created\r\n:") {
		t.Fatalf("LOG 1: %q", got)
	}
	if got := h.Do("ACL", "LOG"); !strings.HasPrefix(got, "*2\r\n") {
		t.Fatalf("LOG: %q", got)
	}
	h.Expect("-ERR value is not an integer or out of range\r\n", "ACL", "LOG", "x")
	h.Expect("+OK\r\n", "ACL", "LOG", "RESET")
	h.Expect("*0\r\n", "ACL", "LOG")
	h.Expect("-"+errNoFile.Error()+"\r\n", "ACL", "SAVE")
	h.Expect("-"+errNoFile.Error()+"\r\n", "ACL", "LOAD")
	if got := h.Do("ACL", "HELP"); !strings.Contains(got, "ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:") {
		t.Fatalf("HELP: %q", got)
	}
}

// TestSaveLoad: ACL SAVE writes the users, ACL LOAD brings them back and kills the clients
// of users no longer there; a bad file changes nothing.
func TestSaveLoad(t *testing.T) {
	h, host := newHarness(t)
	host.file = filepath.Join(t.TempDir(), "users.acl")
	host.clients = []string{"app", "ops"}
	h.Expect("+OK\r\n", "ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+get")
	h.Expect("+OK\r\n", "ACL", "SAVE")
	text, _ := os.ReadFile(host.file)
	if !strings.Contains(string(text), "user app on sanitize-payload #"+hash("pw")+" ~app:* resetchannels -@all +get\n") {
		t.Fatalf("saved: %q", text)
	}
	h.Expect("+OK\r\n", "ACL", "SETUSER", "ops", "on")
	h.Expect("+OK\r\n", "ACL", "LOAD")
	h.Expect("*2\r\n$3\r\napp\r\n$7\r\ndefault\r\n", "ACL", "USERS")
	if strings.Join(host.killed, ",") != "ops" {
		t.Fatalf("killed %v", host.killed)
	}
	if err := os.WriteFile(host.file, []byte("user app on bogus\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := h.Do("ACL", "LOAD"); !strings.HasPrefix(got, "-ERR ") {
		t.Fatalf("bad file: %q", got)
	}
	h.Expect("*2\r\n$3\r\napp\r\n$7\r\ndefault\r\n", "ACL", "USERS")
}
