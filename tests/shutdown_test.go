package tests

import (
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A shutdown is bounded: SIGTERM, SIGINT and SHUTDOWN stop accepting at once, and the process
// exits within shutdown-timeout seconds even while a command still runs (exit status 0, with a
// warning naming the clients left); a second signal during that wait exits at once (status 1).

// shutdownSlack is what the bound allows beyond shutdown-timeout: the process's own exit and
// a loaded test machine.
const shutdownSlack = 3 * time.Second

// startSleeper starts a server with --shutdown-timeout secs and a client running DEBUG SLEEP
// 1000 on it, and waits until the command runs (the server answers others meanwhile).
func startSleeper(t *testing.T, secs string) *server {
	t.Helper()
	srv := startServer(t, "--shutdown-timeout", secs)
	srv.mu.Lock()
	srv.stopping = true // the test stops it
	srv.mu.Unlock()
	sleeper := srv.RawConn(t)
	sleeper.Send(encodeCommand("DEBUG", "SLEEP", "1000"))
	// The sleep has begun when CLIENT LIST shows the command (set before it runs).
	c := srv.RawConn(t)
	deadline := time.Now().Add(ioTimeout)
	for !strings.Contains(c.Do("CLIENT", "LIST").Str, " cmd=debug ") {
		if time.Now().After(deadline) {
			t.Fatal("DEBUG SLEEP not seen running")
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.Close()
	return srv
}

// waitExit waits up to bound for the process to exit and returns its exit status (-1 if it
// was still running, then killed) and how long it took from start.
func waitExit(t *testing.T, srv *server, start time.Time, bound time.Duration) (int, time.Duration) {
	t.Helper()
	select {
	case <-srv.done:
	case <-time.After(bound - time.Since(start)):
		t.Errorf("still running %v after the shutdown began", bound)
		srv.kill()
		return -1, time.Since(start)
	}
	took := time.Since(start)
	if srv.exitErr == nil {
		return 0, took
	}
	if ee, ok := srv.exitErr.(interface{ ExitCode() int }); ok {
		return ee.ExitCode(), took
	}
	t.Fatalf("exit: %v", srv.exitErr)
	return -1, took
}

// expectRefused asserts that the port refuses connections within a second, well before
// shutdown-timeout: the listeners close when the shutdown begins.
func expectRefused(t *testing.T, srv *server) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for {
		c, err := net.DialTimeout("tcp", srv.Addr, 100*time.Millisecond)
		if err != nil {
			return
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Errorf("connections still accepted a second after the shutdown began")
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkTimedOut asserts a timed-out shutdown: status 0 within the bound, the warning naming
// the running client, and the exit line.
func checkTimedOut(t *testing.T, srv *server, code int, took time.Duration) {
	t.Helper()
	if code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
	out := srv.Output()
	if !strings.Contains(out, "shutdown-timeout (2 seconds) passed with 1 clients still running a command") {
		t.Errorf("no warning naming the running client:\n%s", out)
	}
	if !strings.Contains(out, "ready to exit, bye bye...") {
		t.Errorf("no exit line:\n%s", out)
	}
	t.Logf("exited %v after the shutdown began", took)
}

func testShutdownTimeoutSignal(t *testing.T, sig syscall.Signal, name string) {
	requireKvserver(t, "Redis runs DEBUG SLEEP to its end before it handles a signal")
	srv := startSleeper(t, "2")
	start := time.Now()
	if err := srv.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	expectRefused(t, srv)
	code, took := waitExit(t, srv, start, 2*time.Second+shutdownSlack)
	checkTimedOut(t, srv, code, took)
	if !strings.Contains(srv.Output(), "Received "+name+" scheduling shutdown...") {
		t.Errorf("no signal line:\n%s", srv.Output())
	}
}

// TestShutdownTimeoutSIGTERM: SIGTERM during DEBUG SLEEP 1000 exits within
// --shutdown-timeout 2 (and slack), status 0.
func TestShutdownTimeoutSIGTERM(t *testing.T) {
	t.Parallel()
	testShutdownTimeoutSignal(t, syscall.SIGTERM, "SIGTERM")
}

// TestShutdownTimeoutSIGINT: the same for SIGINT.
func TestShutdownTimeoutSIGINT(t *testing.T) {
	t.Parallel()
	testShutdownTimeoutSignal(t, syscall.SIGINT, "SIGINT")
}

// TestShutdownTimeoutCommand: SHUTDOWN from another client during DEBUG SLEEP 1000 closes that
// client without a reply and exits within the bound, status 0.
func TestShutdownTimeoutCommand(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis runs DEBUG SLEEP to its end before SHUTDOWN")
	srv := startSleeper(t, "2")
	c := srv.RawConn(t)
	start := time.Now()
	c.Send(encodeCommand("SHUTDOWN", "NOSAVE"))
	if b := c.ReadUntilClose(); len(b) != 0 {
		t.Errorf("SHUTDOWN answered %q", b)
	}
	expectRefused(t, srv)
	code, took := waitExit(t, srv, start, 2*time.Second+shutdownSlack)
	checkTimedOut(t, srv, code, took)
}

// TestShutdownSecondSignal: a second signal while the shutdown waits for a running command
// exits at once with status 1 (Redis's "You insist... exiting now."), long before
// shutdown-timeout; the pid file is still removed.
func TestShutdownSecondSignal(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis runs DEBUG SLEEP to its end before it handles a signal")
	pidfile := t.TempDir() + "/kv.pid"
	srv := startServer(t, "--shutdown-timeout", "60", "--pidfile", pidfile)
	srv.mu.Lock()
	srv.stopping = true
	srv.mu.Unlock()
	srv.RawConn(t).Send(encodeCommand("DEBUG", "SLEEP", "1000"))
	time.Sleep(200 * time.Millisecond) // running or not, the second signal must not wait
	start := time.Now()
	srv.cmd.Process.Signal(syscall.SIGTERM)
	time.Sleep(300 * time.Millisecond)
	srv.cmd.Process.Signal(syscall.SIGINT)
	code, _ := waitExit(t, srv, start, shutdownSlack+time.Second)
	if code != 1 {
		t.Errorf("exit status %d after a second signal, want 1", code)
	}
	if !strings.Contains(srv.Output(), "You insist... exiting now.") {
		t.Errorf("no line for the second signal:\n%s", srv.Output())
	}
	if _, err := os.Stat(pidfile); !os.IsNotExist(err) {
		t.Errorf("pid file left: %v", err)
	}
}

// TestShutdownIdleIsClean: with nothing running, SIGTERM exits at once, status 0, without
// the timeout's warning.
func TestShutdownIdleIsClean(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "--shutdown-timeout", "30")
	pingOK(srv.RawConn(t))
	start := time.Now()
	if err := srv.Stop(stopTimeout); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	if took := time.Since(start); took > shutdownSlack {
		t.Errorf("idle server took %v to exit", took)
	}
	if strings.Contains(srv.Output(), "still running") {
		t.Errorf("timeout warning on a clean shutdown:\n%s", srv.Output())
	}
}
