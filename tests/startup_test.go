package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// What the server writes when it starts, when it cannot, and in which log format: a start-up
// failure is one line on standard error (the configuration's, Redis's FATAL CONFIG FILE ERROR
// block) and exit status 1; log lines are Redis's by default, Valkey's logfmt or JSON.

// failedStart is what a server that did not start left behind.
type failedStart struct {
	stdout, stderr string
	code           int
}

// runFailingServer runs the binary with exactly args (nothing added), expecting it to exit
// within startTimeout, and returns its outputs, kept apart, and its exit status.
func runFailingServer(t *testing.T, args ...string) failedStart {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, serverBin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%q still running after %v\nstdout:\n%s\nstderr:\n%s", args, startTimeout, stdout.String(), stderr.String())
	}
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return failedStart{stdout.String(), stderr.String(), code}
}

// checkOneLine asserts exit status 1 and exactly one non-empty line on standard error, with
// no Go stack frame and no JSON, and returns that line.
func (f failedStart) checkOneLine(t *testing.T) string {
	t.Helper()
	if f.code != 1 {
		t.Errorf("exit status %d, want 1", f.code)
	}
	var lines []string
	for _, l := range strings.Split(f.stderr, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 {
		t.Errorf("%d lines on stderr, want 1:\n%s", len(lines), f.stderr)
	}
	f.checkNoTrace(t)
	if strings.HasPrefix(strings.TrimSpace(f.stderr), "{") {
		t.Errorf("stderr is JSON: %s", f.stderr)
	}
	if len(lines) == 0 {
		return ""
	}
	return lines[0]
}

// checkNoTrace asserts that neither output holds a Go stack trace.
func (f failedStart) checkNoTrace(t *testing.T) {
	t.Helper()
	for _, out := range []string{f.stdout, f.stderr} {
		if strings.Contains(out, "goroutine ") || strings.Contains(out, ".go:") || strings.Contains(out, "stacktrace") {
			t.Errorf("stack trace in the output:\n%s", out)
		}
	}
}

// fatalConfigBlock asserts Redis's FATAL CONFIG FILE ERROR block on stderr, ending with
// reason, and exit status 1.
func (f failedStart) fatalConfigBlock(t *testing.T, reason string) {
	t.Helper()
	if f.code != 1 {
		t.Errorf("exit status %d, want 1", f.code)
	}
	// redis-server writes an empty line before and after the block.
	if block := strings.TrimSpace(f.stderr); !strings.HasPrefix(block, "*** FATAL CONFIG FILE ERROR (Redis ") || !strings.HasSuffix(block, "\n"+reason) {
		t.Errorf("stderr:\n%s\nwant the FATAL CONFIG FILE ERROR block ending %q", f.stderr, reason)
	}
	f.checkNoTrace(t)
}

// TestStartupPortInUse: a port that another socket holds stops the server with one line on
// stderr naming the port, exit status 1 (Redis: "Failed listening on port N (TCP), aborting."
// in its log).
func TestStartupPortInUse(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "redis-server writes the failure to its log on standard output")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	f := runFailingServer(t, "--port", port, "--bind", "127.0.0.1", "--save", "", "--dir", t.TempDir())
	line := f.checkOneLine(t)
	if !strings.Contains(line, "Failed listening on port "+port+" (TCP), aborting") || !strings.Contains(strings.ToLower(line), "address already in use") {
		t.Errorf("stderr line %q: want the port and the reason", line)
	}
}

// TestStartupPortInUseLogFile: with a log file, the failure is written there too, in the
// log's format.
func TestStartupPortInUseLogFile(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "redis-server writes the failure to its log only")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	logfile := filepath.Join(t.TempDir(), "kv.log")
	f := runFailingServer(t, "--port", port, "--bind", "127.0.0.1", "--save", "", "--dir", t.TempDir(), "--logfile", logfile)
	line := f.checkOneLine(t)
	if f.stdout != "" {
		t.Errorf("stdout with a log file: %q", f.stdout)
	}
	b, _ := os.ReadFile(logfile)
	if !strings.Contains(string(b), "# "+line+"\n") {
		t.Errorf("log file does not end with the failure %q:\n%s", line, b)
	}
}

// TestStartupBadDir: a dir that does not exist is refused as Redis 7.0.15 refuses it — its
// FATAL CONFIG FILE ERROR block (the configuration checks dir), exit status 1.
func TestStartupBadDir(t *testing.T) {
	t.Parallel()
	f := runFailingServer(t, "--port", "0", "--save", "", "--dir", "/nonexistent/x")
	f.fatalConfigBlock(t, "No such file or directory")
	if !strings.Contains(f.stderr, `'dir "/nonexistent/x"'`) {
		t.Errorf("the block does not name the directive:\n%s", f.stderr)
	}
}

// TestStartupBadLogfile: a log file that cannot be opened (here a directory: the tests may run
// as root, for whom permissions do not stop a write) stops the server with Redis's block
// "Can't open the log file: Is a directory", exit status 1.
func TestStartupBadLogfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := runFailingServer(t, "--port", "0", "--save", "", "--dir", dir, "--logfile", dir)
	f.fatalConfigBlock(t, "Can't open the log file: Is a directory")
	f = runFailingServer(t, "--port", "0", "--save", "", "--dir", dir, "--logfile", filepath.Join(dir, "no", "such.log"))
	f.fatalConfigBlock(t, "Can't open the log file: No such file or directory")
}

// TestStartupBadDirective: an unknown directive is Redis's FATAL CONFIG FILE ERROR block,
// exit status 1, nothing on standard output.
func TestStartupBadDirective(t *testing.T) {
	t.Parallel()
	f := runFailingServer(t, "--port", "0", "--save", "", "--no-such-directive", "1")
	f.fatalConfigBlock(t, "Bad directive or wrong number of arguments")
	if f.stdout != "" {
		t.Errorf("stdout: %q", f.stdout)
	}
}

// legacyLine is Redis's log line: pid:role dd Mon yyyy hh:mm:ss.mmm mark message.
var legacyLine = regexp.MustCompile(`^(\d+):[MSCX] \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2}\.\d{3} [.\-*#] (.*)$`)

// logLines starts a server logging to a file with extra arguments, stops it with SIGTERM and
// returns the file's lines and the server.
func logLines(t *testing.T, extra ...string) ([]string, *server) {
	t.Helper()
	logfile := filepath.Join(t.TempDir(), "kv.log")
	srv := startServer(t, append([]string{"--logfile", logfile}, extra...)...)
	c := srv.RawConn(t)
	if r := c.Do("DEBUG", "LOG", `a "quoted" message`); r.Str != "OK" {
		t.Fatalf("DEBUG LOG: %s", formatReply(r, false))
	}
	if err := srv.Stop(stopTimeout); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	b, err := os.ReadFile(logfile)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"), srv
}

// TestLogLegacyFormat: by default every log line is Redis's, with the server's pid, and the
// start and the shutdown say what redis-server says.
func TestLogLegacyFormat(t *testing.T) {
	t.Parallel()
	lines, srv := logLines(t)
	// Redis 7.0 writes its signal handler's line in a format of its own, and says "Ready to
	// accept connections" without 7.2's " tcp".
	signalLine := regexp.MustCompile(`^\d+:signal-handler \(\d+\) (.*)$`)
	ready := "Ready to accept connections tcp"
	if targetRedis {
		ready = "Ready to accept connections"
	}
	var msgs []string
	for _, l := range lines {
		if m := signalLine.FindStringSubmatch(l); m != nil && targetRedis {
			msgs = append(msgs, m[1])
			continue
		}
		m := legacyLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("not a Redis log line: %q", l)
			continue
		}
		if m[1] != strconv.Itoa(srv.Pid()) {
			t.Errorf("pid %s in %q, want %d", m[1], l, srv.Pid())
		}
		msgs = append(msgs, m[2])
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{ready, `DEBUG LOG: a "quoted" message`,
		"Received SIGTERM scheduling shutdown...", "is now ready to exit, bye bye..."} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in the log:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

// parseLogfmt splits a logfmt line into its keys and values (bare words, or quoted with Go's
// escapes), or fails.
func parseLogfmt(line string) (map[string]string, error) {
	kv := map[string]string{}
	for rest := line; rest != ""; {
		rest = strings.TrimLeft(rest, " ")
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 || strings.ContainsAny(rest[:eq], " \"") {
			return nil, errors.New("no key at " + strconv.Quote(rest))
		}
		key := rest[:eq]
		rest = rest[eq+1:]
		if strings.HasPrefix(rest, `"`) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, err
			}
			kv[key], _ = strconv.Unquote(q)
			rest = rest[len(q):]
		} else {
			end := strings.IndexByte(rest, ' ')
			if end < 0 {
				end = len(rest)
			}
			kv[key] = rest[:end]
			rest = rest[end:]
		}
		if rest != "" && rest[0] != ' ' {
			return nil, errors.New("no space after the value of " + key)
		}
	}
	return kv, nil
}

// TestLogLogfmtFormat: with --log-format logfmt every line is Valkey 8.1's logfmt (pid, role,
// timestamp, level, message), the message's double quotes turned into single ones.
func TestLogLogfmtFormat(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "log-format is Valkey 8.1's")
	lines, srv := logLines(t, "--log-format", "logfmt")
	levels := map[string]bool{"debug": true, "info": true, "notice": true, "warning": true}
	var msgs []string
	for _, l := range lines {
		kv, err := parseLogfmt(l)
		if err != nil {
			t.Errorf("not logfmt: %q: %v", l, err)
			continue
		}
		if kv["pid"] != strconv.Itoa(srv.Pid()) || kv["role"] != "primary" || !levels[kv["level"]] ||
			!regexp.MustCompile(`^\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2}\.\d{3}$`).MatchString(kv["timestamp"]) {
			t.Errorf("keys of %q: %v", l, kv)
		}
		msgs = append(msgs, kv["message"])
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"Ready to accept connections tcp", "DEBUG LOG: a 'quoted' message", "Received SIGTERM scheduling shutdown..."} {
		if !strings.Contains(all, want) {
			t.Errorf("no message %q in:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

// TestLogJSONFormat: with --log-format json every line is a JSON object with zap's keys and
// the call sites' fields, and no stack trace.
func TestLogJSONFormat(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "log-format json is kvserver's")
	lines, _ := logLines(t, "--log-format", "json")
	ready := false
	for _, l := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			t.Errorf("not JSON: %q: %v", l, err)
			continue
		}
		if obj["msg"] == nil || obj["level"] == nil || obj["ts"] == nil || obj["stacktrace"] != nil {
			t.Errorf("keys of %q", l)
		}
		if obj["msg"] == "Ready to accept connections tcp" {
			ready = obj["addresses"] != nil
		}
	}
	if !ready {
		t.Errorf("no ready line with its addresses:\n%s", strings.Join(lines, "\n"))
	}
}

// TestLogFormatConfigSet: CONFIG SET log-format changes the format of the next line.
func TestLogFormatConfigSet(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "log-format is Valkey 8.1's")
	logfile := filepath.Join(t.TempDir(), "kv.log")
	srv := startServer(t, "--logfile", logfile)
	c := srv.RawConn(t)
	if r := c.Do("CONFIG", "SET", "log-format", "json"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	c.Do("DEBUG", "LOG", "in json")
	if r := c.Do("CONFIG", "GET", "log-format"); len(r.Elems) != 2 || r.Elems[1].Str != "json" {
		t.Errorf("CONFIG GET log-format: %s", formatReply(r, false))
	}
	b, _ := os.ReadFile(logfile)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	last := lines[len(lines)-1]
	var obj map[string]any
	if err := json.Unmarshal([]byte(last), &obj); err != nil || obj["msg"] != "DEBUG LOG: in json" {
		t.Errorf("last line after CONFIG SET log-format json: %q (%v)", last, err)
	}
	if !legacyLine.MatchString(lines[0]) {
		t.Errorf("first line not legacy: %q", lines[0])
	}
}

// TestLogDebugLogBounded: DEBUG LOG of a 1 MB message, 50 times in a row, grows the log by at
// most 64 KiB: a call logs at most Redis's LOG_MAX_LEN (1023 bytes of message), and the
// calls are rate-limited (a burst of 10, then 10 a second), so about 10 short lines.
func TestLogDebugLogBounded(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "Redis cuts each message at 1 KiB but does not rate-limit DEBUG LOG")
	logfile := filepath.Join(t.TempDir(), "kv.log")
	srv := startServer(t, "--logfile", logfile)
	st, err := os.Stat(logfile)
	if err != nil {
		t.Fatal(err)
	}
	before := st.Size()
	c := srv.RawConn(t)
	msg := strings.Repeat("x", 1<<20)
	start := time.Now()
	for i := 0; i < 50; i++ {
		if r := c.Do("DEBUG", "LOG", msg); r.Str != "OK" {
			t.Fatalf("DEBUG LOG %d: %s", i, formatReply(r, false))
		}
	}
	elapsed := time.Since(start)
	st, err = os.Stat(logfile)
	if err != nil {
		t.Fatal(err)
	}
	grown := st.Size() - before
	if grown > 64<<10 {
		t.Errorf("50 DEBUG LOG of 1 MB grew the log by %d bytes, want at most 64 KiB", grown)
	}
	b, _ := os.ReadFile(logfile)
	n := strings.Count(string(b), "DEBUG LOG: ")
	if most := 10 + int(elapsed.Seconds()*10) + 2; n < 1 || n > most {
		t.Errorf("%d DEBUG LOG lines for 50 calls in %v, want 1..%d", n, elapsed, most)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if len(l) > 1100 {
			t.Errorf("a line of %d bytes", len(l))
			break
		}
	}
}
