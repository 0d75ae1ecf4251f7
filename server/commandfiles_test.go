package server

import (
	"flag"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kvserver/kvserver/config"
	"github.com/kvserver/kvserver/internal/cmdfile"
)

// commandFilesDir holds the end-to-end tests' command files, whose expectations hold for
// kvserver and (but for the blocks marked) for redis-server.
var commandFilesDir = filepath.Join("..", "tests", "testdata", "commands")

var rewriteFakeClock = flag.Bool("rewrite", false, "rewrite testdata/fakeclock expectations from the server's replies")

// fakeClock is a clock that moves only when told: the server's Options.Clock reads it and
// DEBUG SLEEP (Options.Sleep) advances it, so that nothing sleeps.
type fakeClock struct{ ns atomic.Int64 }

// fakeEpoch is where a fake clock starts: 2024-01-01T00:00:00Z, well before the absolute
// expire times of the command files (2100) and well after the ones they mean as past.
const fakeEpoch = 1704067200000

func newFakeClock() *fakeClock {
	c := &fakeClock{}
	c.ns.Store(fakeEpoch * int64(time.Millisecond))
	return c
}

// Now is the time in unix ms (Options.Clock).
func (c *fakeClock) Now() int64 { return c.ns.Load() / int64(time.Millisecond) }

// Sleep advances the clock by d (Options.Sleep).
func (c *fakeClock) Sleep(d time.Duration) { c.ns.Add(int64(d)) }

// newFakeClockServer makes a Server that runs on clock, configured as the end-to-end tests
// start the binary (no save rules, no AOF, DEBUG allowed). It is not started: nothing listens, and there is no cron (so no active
// expiry and no cached LRU clock — keys expire when read, as on kvserver with DEBUG
// SET-ACTIVE-EXPIRE 0, and the LRU clock is read from the fake clock itself); connections come
// through accept(net.Conn).
func newFakeClockServer(t testing.TB, clock *fakeClock) *Server {
	t.Helper()
	cfg := config.New()
	if err := cfg.Load([][]string{{"save", ""}, {"appendonly", "no"}, {"enable-debug-command", "yes"}}); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Config: cfg, Clock: clock.Now, Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Shutdown()
		s.Wait()
		s.Close()
	})
	return s
}

// pipeDial returns a Dial for the command-file driver: each connection is a net.Pipe whose
// server end the server accepts (a connection without an fd, served by a goroutine).
func pipeDial(s *Server) func(testing.TB) net.Conn {
	return func(t testing.TB) net.Conn {
		srv, cli := net.Pipe()
		s.accept(srv)
		t.Cleanup(func() { cli.Close() })
		return cli
	}
}

// TestCommandFiles runs every file of tests/testdata/commands in process, through the whole
// command path (connection, parser, pipeline, families), each file on its own server on a
// fake clock: DEBUG SLEEP advances the clock, so the files run in milliseconds. The driver,
// the format and the expectations are the end-to-end tests' (internal/cmdfile); blocks marked
// redis-only are skipped.
//
// The encodings' limits (hash-max-listpack-entries, set-max-intset-entries …) are process-wide
// in packages hashval and setval, as Redis's are server-wide: a file that changes one runs
// alone, before the others start, so that it does not move another file's conversion points.
func TestCommandFiles(t *testing.T) {
	for _, path := range cmdfile.Files(t, commandFilesDir) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			if !setsEncodingLimits(t, path) {
				t.Parallel()
			}
			clock := newFakeClock()
			s := newFakeClockServer(t, clock)
			start := time.Now()
			ran := cmdfile.RunFile(t, path, cmdfile.Target{Dial: pipeDial(s), Timeout: 10 * time.Second})
			t.Logf("%s: %d blocks in %v; the fake clock moved %v", path, ran, time.Since(start).Round(time.Microsecond),
				time.Duration(clock.ns.Load()-fakeEpoch*int64(time.Millisecond)))
			if ran == 0 {
				t.Errorf("%s: no block ran", path)
			}
		})
	}
}

// TestFakeClockFiles runs testdata/fakeclock/*.txt, blocks that need the fake clock (TIME,
// TTLs over minutes, OBJECT IDLETIME), with the same driver. `-rewrite` rewrites them.
func TestFakeClockFiles(t *testing.T) {
	for _, path := range cmdfile.Files(t, filepath.Join("testdata", "fakeclock")) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			t.Parallel()
			s := newFakeClockServer(t, newFakeClock())
			cmdfile.RunFile(t, path, cmdfile.Target{Dial: pipeDial(s), Timeout: 10 * time.Second, Rewrite: *rewriteFakeClock})
		})
	}
}

// TestFakeClockActiveExpiry drives the cron's active expiry by hand on the fake clock: a key
// due on the fake clock (long past on the real one) stays until the clock passes its time, and
// one keyspace cron step then removes it without anything reading it.
func TestFakeClockActiveExpiry(t *testing.T) {
	clock := newFakeClock()
	s := newFakeClockServer(t, clock)
	tg := cmdfile.Target{Dial: pipeDial(s), Timeout: 10 * time.Second}
	run := func(cmds ...string) string { return cmdfile.RunBlock(t, &cmdfile.Block{Cmds: cmds}, tg) }
	if got := run("SET ae:due v PX 100", "SET ae:keep v"); got != "OK\nOK\n" {
		t.Fatalf("SET: %q", got)
	}
	s.keyspaceCron()
	if got := run("DBSIZE"); got != "(integer) 2\n" {
		t.Fatalf("before the fake clock passes the key's time, DBSIZE after a cron step: %q", got)
	}
	clock.Sleep(100 * time.Millisecond) // at its very millisecond the key is not yet due
	s.keyspaceCron()
	if got := run("DBSIZE"); got != "(integer) 2\n" {
		t.Fatalf("at the key's time, DBSIZE after a cron step: %q", got)
	}
	clock.Sleep(time.Millisecond)
	s.keyspaceCron()
	if got, n := run("DBSIZE"), s.ks.ExpiredKeys(); got != "(integer) 1\n" || n != 1 {
		t.Fatalf("after: DBSIZE %q, expired_keys %d; want 1 and 1", got, n)
	}
}

// encodingLimitSet matches a CONFIG SET of an encoding's limit.
var encodingLimitSet = regexp.MustCompile(`(?i)config\s+set\s+(hash|set|zset|list)-max-`)

// setsEncodingLimits reports whether the command file at path changes an encoding's limit.
func setsEncodingLimits(t *testing.T, path string) bool {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return encodingLimitSet.Match(text)
}
