package tests

import (
	"flag"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/internal/cmdfile"
)

// The data-driven command tests: testdata/commands/<family>.txt, in the format and run by the
// driver of internal/cmdfile (its package comment describes the format). Here each file gets
// its own kvserver binary, or redis-server with KVSERVER_TARGET=redis, reached over TCP; the
// server package runs the same files in process on a fake clock (server/commandfiles_test.go).
//
// `go test ./tests -run TestCommands -rewrite` rewrites the expectations from the server's
// replies (with KVSERVER_TARGET=redis, from Redis's), leaving the blocks it skips as they are.
var rewrite = flag.Bool("rewrite", false, "rewrite testdata/commands expectations from the server's replies")

func cmdFiles(t *testing.T) []string {
	return cmdfile.Files(t, filepath.Join("testdata", "commands"))
}

func TestCommands(t *testing.T) {
	for _, path := range cmdFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			t.Parallel()
			srv := startServer(t)
			cmdfile.RunFile(t, path, cmdfile.Target{
				Redis:   targetRedis,
				Dial:    func(t testing.TB) net.Conn { return srv.RawConn(t).Conn },
				Timeout: ioTimeout,
				Rewrite: *rewrite,
			})
		})
	}
}

// TestCommandsViaRedisCLI pipes each block's commands into `redis-cli --no-raw` (with -3
// for resp3 blocks) and compares what redis-cli prints with the same expectations: it keeps
// the driver's formatting honest, and drives the server through redis-cli's own connection
// handling. Blocks in `types` mode have no literal expectation and are left out; `sorted`
// blocks have none in the order redis-cli prints, and are run (later blocks may need what
// they do) without comparing.
func TestCommandsViaRedisCLI(t *testing.T) {
	for _, path := range cmdFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			t.Parallel()
			f, _ := cmdfile.Load(t, path)
			srv := startServer(t)
			tg := cmdfile.Target{Redis: targetRedis, Dial: func(t testing.TB) net.Conn { return srv.RawConn(t).Conn }, Timeout: ioTimeout}
			if name := cmdfile.Lacking(t, f, tg); name != "" {
				t.Skipf("%s: %s", path, cmdfile.LackingMessage(f, name))
			}
			if out := srv.CLI(t, "FLUSHALL"); out != "OK\n" {
				t.Fatalf("FLUSHALL: %q", out)
			}
			for _, b := range f.Blocks {
				if b.Skipped(targetRedis) != "" || b.Has("types") {
					continue
				}
				args := []string{"--no-raw"}
				if b.Has("resp3") {
					args = append(args, "-3")
				}
				got := srv.CLIInput(t, strings.NewReader(strings.Join(b.Cmds, "\n")+"\n"), args...)
				if got != b.Expected && !b.Has("sorted") {
					t.Errorf("%s:%d: redis-cli printed\n%s\n%s\nwant:\n%s", path, b.Line, cmdfile.FirstDiff(got, b.Expected), got, b.Expected)
				}
			}
		})
	}
}
