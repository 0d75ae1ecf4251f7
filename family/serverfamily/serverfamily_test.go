package serverfamily

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/resp"
)

// fakeHost is a server whose descriptor limit allows up to maxFDs clients.
type fakeHost struct {
	tab     *command.Table
	file    string
	resets  int
	maxFDs  int64
	nowTime time.Time
}

func (h *fakeHost) Commands() *command.Table { return h.tab }
func (h *fakeHost) ConfigFile() string       { return h.file }
func (h *fakeHost) ResetStats()              { h.resets++ }
func (h *fakeHost) ACLUserLines() []string   { return []string{"user default on nopass ~* &* +@all"} }
func (h *fakeHost) Now() time.Time           { return h.nowTime }
func (h *fakeHost) Log() *zap.Logger         { return zap.NewNop() }
func (h *fakeHost) MaxClientsRefusal(n int64) string {
	if n > h.maxFDs {
		return fmt.Sprintf("try with %d", h.maxFDs)
	}
	return ""
}

// conn is an authenticated connection, local or not.
type conn struct{ local bool }

func (conn) AuthRequired() bool { return false }
func (conn) DebugAllowed() bool { return true }
func (c conn) IsLocal() bool    { return c.local }

type world struct {
	h   *fakeHost
	cfg *config.Config
	ks  *keyspace.Keyspace
	p   *command.Pipeline
}

func newWorld(t *testing.T) *world {
	ks, err := keyspace.New(keyspace.Options{Shards: 4, ArenaReserve: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ks.Close)
	h := &fakeHost{maxFDs: 20000, nowTime: time.Unix(1_700_000_000, 123_456_000)}
	h.tab = command.New(Commands(h))
	return &world{h: h, cfg: config.New(), ks: ks, p: &command.Pipeline{KS: ks}}
}

// do runs one command (arguments split on spaces) from c and returns the raw reply.
func (wd *world) do(t *testing.T, c conn, line string) string {
	t.Helper()
	args := strings.Fields(line)
	var req strings.Builder
	fmt.Fprintf(&req, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&req, "$%d\r\n%s\r\n", len(a), a)
	}
	p := querybuf.NewParser(querybuf.DefaultLimits())
	if _, err := p.Parse([]byte(req.String())); err != nil || p.NumCommands() != 1 {
		t.Fatalf("parse %q: %v", line, err)
	}
	var w resp.Writer
	var stats command.KeyStats
	ctx := &command.Ctx{W: &w, KS: wd.ks, Cfg: wd.cfg, Stats: &stats, Conn: c}
	ctx.Args = p.Command(0)
	cmd, lookupErr := wd.h.tab.Lookup(ctx.Args)
	ctx.Cmd = cmd
	wd.p.RunRecovered(ctx, c, lookupErr, false)
	return string(w.Bytes())
}

func TestServerFamily(t *testing.T) {
	wd := newWorld(t)
	remote, local := conn{}, conn{local: true}
	cases := []struct {
		c          conn
		line, want string
	}{
		{remote, "TIME", "*2\r\n$10\r\n1700000000\r\n$6\r\n123456\r\n"},
		{remote, "COMMAND COUNT", fmt.Sprintf(":%d\r\n", wd.h.tab.Count())},
		{remote, "CONFIG SET hz", "-ERR wrong number of arguments for 'config|set' command\r\n"},
		{remote, "CONFIG SET hz 20 maxmemory-samples", "-ERR syntax error\r\n"},
		{remote, "CONFIG SET hz 20", "+OK\r\n"},
		{remote, "CONFIG GET hz", "*2\r\n$2\r\nhz\r\n$2\r\n20\r\n"},
		// The descriptor limit cannot take 30000 clients: every value of the command goes back.
		{remote, "CONFIG SET hz 30 maxclients 30000", "-ERR CONFIG SET failed (possibly related to argument 'maxclients') - try with 20000\r\n"},
		{remote, "CONFIG GET hz", "*2\r\n$2\r\nhz\r\n$2\r\n20\r\n"},
		{remote, "CONFIG SET maxclients 15000", "+OK\r\n"},
		{remote, "CONFIG REWRITE", "-ERR The server is running without a config file\r\n"},
		{remote, "CONFIG RESETSTAT", "+OK\r\n"},
	}
	for _, tc := range cases {
		if got := wd.do(t, tc.c, tc.line); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.line, got, tc.want)
		}
	}
	if wd.h.resets != 1 {
		t.Errorf("CONFIG RESETSTAT reset the host's statistics %d times, want 1", wd.h.resets)
	}
	// With enable-protected-configs local, a protected setting is refused from a remote
	// connection and taken from a local one.
	if err := wd.cfg.Load([][]string{{"enable-protected-configs", "local"}}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if got := wd.do(t, remote, "CONFIG SET dir "+dir); !strings.HasPrefix(got, "-ERR") {
		t.Errorf("remote CONFIG SET of a protected setting: %q, want an error", got)
	}
	if got := wd.do(t, local, "CONFIG SET dir "+dir); got != "+OK\r\n" {
		t.Errorf("local CONFIG SET of a protected setting: %q, want +OK", got)
	}
}
