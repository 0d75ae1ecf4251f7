package command

import (
	"testing"

	"github.com/kvserver/kvserver/acl"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// aclRows are GET, SET, FLUSHALL and PUBLISH rows (their metadata, key specs and categories
// are Redis's, by name) answering OK.
func aclRows() []*Command {
	ok := func(ctx *Ctx) { ctx.W.OK() }
	return []*Command{
		{Name: "get", Handler: ok},
		{Name: "set", Handler: ok},
		{Name: "flushall", Locking: LockNone, Handler: ok},
		{Name: "publish", Locking: LockNone, Handler: ok},
	}
}

// aclHarness is a pipeline over aclRows with the ACL step, and a connection of user name
// (created by rules unless it is default).
func aclHarness(t testing.TB, name string, rules ...string) (*Pipeline, *Ctx, *resp.Writer, *Table) {
	ks, err := keyspace.New(keyspace.Options{Shards: 16, Databases: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	tab := New(aclRows())
	reg := acl.NewRegistry(ACLCatalog(tab))
	if name != "default" && name != "" {
		rs := make([][]byte, len(rules))
		for i, r := range rules {
			rs[i] = []byte(r)
		}
		if err := reg.SetUser(name, rs); err != nil {
			t.Fatal(err)
		}
	}
	p := &Pipeline{KS: ks}
	p.SetACL(&ACL{Reg: reg, Log: acl.NewLog()})
	w := &resp.Writer{}
	ref := &UserRef{}
	ref.Set(reg.User(name), reg.Generation())
	return p, &Ctx{W: w, KS: ks, Stats: &KeyStats{}, User: ref}, w, tab
}

func runLine(t testing.TB, p *Pipeline, ctx *Ctx, tab *Table, parser *querybuf.Parser, line string) string {
	parser.ResetCommands()
	if _, err := parser.Parse([]byte(line + "\r\n")); err != nil {
		t.Fatal(err)
	}
	args := parser.Command(0)
	cmd, errText := tab.Lookup(args)
	ctx.Args, ctx.Cmd = args, cmd
	ctx.W.Reset()
	p.RunRecovered(ctx, &fakeConn{}, errText, false)
	return string(ctx.W.Bytes())
}

// TestACLStep: the step denies a command, a key (by the access its key spec declares) and a
// channel with Redis's texts, counts and logs each; a SETUSER is seen by the connection's next
// command; a deleted user is denied everything.
func TestACLStep(t *testing.T) {
	p, ctx, _, tab := aclHarness(t, "app", "on", "nopass", "%R~app:*", "~rw:*", "&news", "+get", "+set", "+publish")
	parser := querybuf.NewParser(querybuf.DefaultLimits())
	for _, tc := range []struct{ line, want string }{
		{"get app:1", "+OK\r\n"},
		{"set app:1 v", "-NOPERM No permissions to access a key\r\n"}, // %R: read only
		{"set rw:1 v", "+OK\r\n"},
		{"get other", "-NOPERM No permissions to access a key\r\n"},
		{"flushall", "-NOPERM User app has no permissions to run the 'flushall' command\r\n"},
		{"publish news m", "+OK\r\n"},
		{"publish sports m", "-NOPERM No permissions to access a channel\r\n"},
	} {
		if got := runLine(t, p, ctx, tab, parser, tc.line); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.line, got, tc.want)
		}
	}
	a := p.ACL()
	if a.DeniedCmd.Load() != 1 || a.DeniedKey.Load() != 2 || a.DeniedChannel.Load() != 1 {
		t.Errorf("counters cmd %d key %d channel %d", a.DeniedCmd.Load(), a.DeniedKey.Load(), a.DeniedChannel.Load())
	}
	es := a.Log.Entries(10)
	if len(es) != 4 || es[0].Object != "sports" || es[1].Object != "flushall" || es[2].Object != "other" || es[3].Object != "app:1" || es[3].Reason != acl.Key {
		t.Errorf("log %+v", es)
	}
	if err := a.Reg.SetUser("app", [][]byte{[]byte("-get")}); err != nil {
		t.Fatal(err)
	}
	p.ACLChanged()
	if got := runLine(t, p, ctx, tab, parser, "get app:1"); got != "-NOPERM User app has no permissions to run the 'get' command\r\n" {
		t.Errorf("after -get: %q", got)
	}
	if _, err := a.Reg.DelUser("app"); err != nil {
		t.Fatal(err)
	}
	p.ACLChanged()
	if got := runLine(t, p, ctx, tab, parser, "set rw:1 v"); got != "-NOPERM User default has no permissions to run the 'set' command\r\n" {
		t.Errorf("deleted user: %q", got)
	}
}

// TestACLStepOff: with only the default user (on nopass ~* &* +@all) the step is off.
func TestACLStepOff(t *testing.T) {
	p, ctx, _, tab := aclHarness(t, "default")
	if p.aclOn.Load() {
		t.Fatal("the step is on with the default user alone")
	}
	if got := runLine(t, p, ctx, tab, querybuf.NewParser(querybuf.DefaultLimits()), "flushall"); got != "+OK\r\n" {
		t.Fatalf("flushall: %q", got)
	}
}

// BenchmarkACLStep is one GET through the pipeline: without an ACL, as the default user (the
// step off: one atomic load), and as a user with ~app:* +@read +@write.
func BenchmarkACLStep(b *testing.B) {
	for _, bc := range []struct {
		name, user string
		rules      []string
	}{
		{"none", "", nil},
		{"default", "default", nil},
		{"restricted", "app", []string{"on", "nopass", "~app:*", "+@read", "+@write"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, ctx, _, tab := aclHarness(b, bc.user, bc.rules...)
			if bc.user == "" {
				p.SetACL(nil)
				ctx.User = nil
			}
			parser := querybuf.NewParser(querybuf.DefaultLimits())
			parser.Parse([]byte("GET app:1\r\n"))
			args := parser.Command(0)
			cmd, _ := tab.Lookup(args)
			ctx.Args, ctx.Cmd = args, cmd
			conn := &fakeConn{}
			for b.Loop() {
				ctx.W.Reset()
				p.RunRecovered(ctx, conn, "", false)
			}
		})
	}
}
