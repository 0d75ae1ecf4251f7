package tests

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The redis-py tests run the scripts of testdata/py with Debian's python3-redis (installed by
// scripts/deps.sh into /usr/bin/python3; a python3 earlier on the PATH, such as pyenv's, does
// not see it) against a fresh server per case: redis-py's default pipeline() (MULTI/EXEC),
// pipeline(transaction=False), transaction() with its WATCH retry, and pub/sub. The scripts
// check the values they get back themselves; kvcheck.py describes how they report.
//
// KVSERVER_PYTHON names another interpreter, e.g. a virtualenv's with redis-py 5 or later, whose
// RESP3 (protocol=3) case Debian's 4.3.4 skips.

// debianPython is the interpreter python3-redis is installed for.
const debianPython = "/usr/bin/python3"

// pythonBin is the interpreter the scripts run with: KVSERVER_PYTHON, or Debian's.
func pythonBin() string {
	if p := os.Getenv("KVSERVER_PYTHON"); p != "" {
		return p
	}
	return debianPython
}

// pySkipStatus is the exit status of a script case that cannot run here (kvcheck.SKIP_STATUS).
const pySkipStatus = 77

// pyTimeout bounds one script case, which waits at most 10 s for any single reply.
const pyTimeout = 2 * time.Minute

// TestRedisPyTransactions: redis-py's pipeline() with and without transaction=True, and
// transaction(func, 'key') retried after another client touched the watched key.
func TestRedisPyTransactions(t *testing.T) {
	requireRedisPy(t)
	for _, tc := range []struct {
		name  string
		needs bool // MULTI and WATCH
	}{{"pipeline", true}, {"pipeline_no_transaction", false}, {"transaction_watch", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t)
			if tc.needs {
				skipWithoutCommand(t, s, "MULTI")
				skipWithoutCommand(t, s, "WATCH", "probe")
			}
			runPyCase(t, s, "tx.py", tc.name)
		})
	}
}

// TestRedisPyPubSub: redis-py's pubsub() — subscribe and get_message, psubscribe, handlers run
// by run_in_thread with several publishers, PUBSUB's introspection, and RESP3 pushes when the
// installed redis-py speaks RESP3 (5.0 and later; Debian bookworm has 4.3.4).
func TestRedisPyPubSub(t *testing.T) {
	requireRedisPy(t)
	for _, name := range []string{"subscribe", "psubscribe", "handlers", "resp3"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t)
			skipWithoutCommand(t, s, "SUBSCRIBE", "probe")
			runPyCase(t, s, "pubsub.py", name)
		})
	}
}

// requireRedisPy skips the test when the interpreter cannot import redis.
func requireRedisPy(t *testing.T) {
	t.Helper()
	out, err := exec.Command(pythonBin(), "-c", "import redis; print(redis.__version__)").CombinedOutput()
	if err != nil {
		t.Skipf("%s cannot import redis (install python3-redis: scripts/deps.sh): %v\n%s", pythonBin(), err, out)
	}
	t.Logf("redis-py %s", strings.TrimSpace(string(out)))
}

// skipWithoutCommand skips the test when the server answers args with "unknown command": a
// feature not implemented yet. The probe runs on a connection of its own, closed afterwards
// (a SUBSCRIBE probe leaves it in the subscribed state).
func skipWithoutCommand(t *testing.T, s *server, args ...string) {
	t.Helper()
	c := s.RawConn(t)
	defer c.Close()
	if r := c.Do(args...); r.Kind == '-' && strings.HasPrefix(r.Str, "ERR unknown command") {
		t.Skipf("%s: %s", args[0], r.Str)
	}
}

// runPyCase runs `python3 testdata/py/script PORT name` against s and fails the test with the
// script's output unless it exits 0; exit status 77 skips the test with the script's reason.
func runPyCase(t *testing.T, s *server, script, name string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "py"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), pyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, pythonBin(), script, strconv.Itoa(s.Port), name)
	cmd.Dir = dir
	// No __pycache__ in testdata; no user site-packages shadowing Debian's redis.
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		if got := strings.TrimSpace(stdout.String()); got != "ok" {
			t.Fatalf("%s %s: exit 0 but printed %q, want \"ok\"", script, name, got)
		}
	case errors.As(err, &exit) && exit.ExitCode() == pySkipStatus:
		t.Skip(strings.TrimSpace(stdout.String()))
	default:
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", script, name, err, stdout.String(), stderr.String())
	}
}
