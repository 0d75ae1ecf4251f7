package tests

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRedisBenchmark runs `redis-benchmark -t ping,set,get -n 100000 -q`: every test must
// report a rate and no error may be printed. Rates are logged, never asserted.
func TestRedisBenchmark(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "redis-benchmark", "-h", "127.0.0.1", "-p", strconv.Itoa(srv.Port),
		"-t", "ping,set,get", "-n", "100000", "-q")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("redis-benchmark: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	// -q prints progress lines ended by \r and one final line per test.
	rate := regexp.MustCompile(`^([A-Z_]+): ([0-9.]+) requests per second`)
	rates := map[string]string{}
	for _, line := range strings.FieldsFunc(stdout.String()+"\n"+stderr.String(), func(r rune) bool { return r == '\r' || r == '\n' }) {
		line = strings.TrimSpace(line)
		lower := strings.ToLower(line)
		if strings.Contains(lower, "error") || strings.Contains(lower, "err ") || strings.HasPrefix(line, "WARNING") {
			t.Errorf("redis-benchmark printed: %s", line)
		}
		if m := rate.FindStringSubmatch(line); m != nil {
			rates[m[1]] = m[2]
			t.Log(line)
		}
	}
	for _, test := range []string{"PING_INLINE", "PING_MBULK", "SET", "GET"} {
		if v, ok := rates[test]; !ok {
			t.Errorf("no rate reported for %s; output:\n%s", test, stdout.String())
		} else if f, err := strconv.ParseFloat(v, 64); err != nil || f <= 0 {
			t.Errorf("%s: rate %q", test, v)
		}
	}
	// The SET test wrote its fixed key (no -r) with a 3-byte value (the default -d).
	if r := srv.RawConn(t).Do("GET", "key:__rand_int__"); r.Kind != '$' || len(r.Str) != 3 {
		t.Errorf("GET key:__rand_int__ after the benchmark = %s, want a 3-byte string", formatReply(r, false))
	}
}

// pipeKeys is how many keys TestPipeLoad loads (env KVSERVER_PIPE_KEYS overrides it).
const pipeKeys = 1_000_000

// TestPipeLoad loads 1,000,000 keys of 18 bytes with 85-byte values through
// `redis-cli --pipe`, then checks DBSIZE and spot values, and logs the bytes per key from
// INFO's used_memory_dataset and from the process's RSS. Only loose sanity is asserted.
func TestPipeLoad(t *testing.T) {
	t.Parallel()
	n := pipeKeys
	if s := os.Getenv("KVSERVER_PIPE_KEYS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n <= 0 {
			t.Fatalf("KVSERVER_PIPE_KEYS=%q", s)
		}
	}
	srv := startServer(t)
	key := func(i int) string { return fmt.Sprintf("key:%014d", i) }
	val := func(i int) string {
		v := fmt.Sprintf("value:%014d:", i)
		return v + strings.Repeat("v", 85-len(v))
	}
	if len(key(0)) != 18 || len(val(0)) != 85 {
		t.Fatalf("key or value of the wrong size: %d, %d", len(key(0)), len(val(0)))
	}

	datasetBefore := infoInt(t, srv, "memory", "used_memory_dataset")
	rssBefore := vmRSS(t, srv.Pid())

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "redis-cli", "-h", "127.0.0.1", "-p", strconv.Itoa(srv.Port), "--pipe")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	writeErr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(stdin, 1<<20)
		var buf []byte
		for i := 0; i < n; i++ {
			buf = buf[:0]
			buf = append(buf, "*3\r\n$3\r\nSET\r\n$18\r\n"...)
			buf = append(buf, key(i)...)
			buf = append(buf, "\r\n$85\r\n"...)
			buf = append(buf, val(i)...)
			buf = append(buf, "\r\n"...)
			if _, err := w.Write(buf); err != nil {
				writeErr <- err
				stdin.Close()
				return
			}
		}
		err := w.Flush()
		if cerr := stdin.Close(); err == nil {
			err = cerr
		}
		writeErr <- err
	}()
	start := time.Now()
	runErr := cmd.Wait()
	elapsed := time.Since(start)
	if err := <-writeErr; err != nil && err != io.ErrClosedPipe {
		t.Errorf("writing redis-cli's input: %v", err)
	}
	if runErr != nil {
		t.Fatalf("redis-cli --pipe: %v\n%s", runErr, out.String())
	}
	if want := fmt.Sprintf("errors: 0, replies: %d", n); !strings.Contains(out.String(), want) {
		t.Fatalf("redis-cli --pipe output lacks %q:\n%s", want, out.String())
	}
	t.Logf("redis-cli --pipe loaded %d keys in %v", n, elapsed.Round(time.Millisecond))

	c := srv.RawConn(t)
	if r := c.Do("DBSIZE"); r.Kind != ':' || r.Int != int64(n) {
		t.Fatalf("DBSIZE = %s, want %d", formatReply(r, false), n)
	}
	for _, i := range []int{0, 1, n / 3, n / 2, n - 1} {
		if r := c.Do("GET", key(i)); r.Str != val(i) {
			t.Errorf("GET %s = %s, want %q", key(i), formatReply(r, false), val(i))
		}
	}

	dataset := infoInt(t, srv, "memory", "used_memory_dataset") - datasetBefore
	rss := vmRSS(t, srv.Pid()) - rssBefore
	perKeyDataset := float64(dataset) / float64(n)
	perKeyRSS := float64(rss) / float64(n)
	t.Logf("%s: %d keys (18-byte keys, 85-byte values): used_memory_dataset +%d bytes = %.1f bytes/key; VmRSS +%d bytes = %.1f bytes/key",
		targetName(), n, dataset, perKeyDataset, rss, perKeyRSS)
	// Key and value alone take 103 bytes: the dataset cannot be smaller. 400 is far above
	// Redis's figure; above it something is badly wrong.
	if perKeyDataset < 103 || perKeyDataset >= 400 {
		t.Errorf("used_memory_dataset: %.1f bytes/key, want within [103, 400)", perKeyDataset)
	}
	if perKeyRSS <= 0 || perKeyRSS >= 400 {
		t.Errorf("RSS: %.1f bytes/key, want within (0, 400)", perKeyRSS)
	}
}

// targetName names the server under test.
func targetName() string {
	if targetRedis {
		return "redis-server"
	}
	return "kvserver"
}

// infoInt reads one integer field of an INFO section.
func infoInt(t testing.TB, srv *server, section, field string) int64 {
	t.Helper()
	s, ok := srv.Info(t, section)[field]
	if !ok {
		t.Fatalf("INFO %s has no %s", section, field)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("INFO %s: %s = %q", section, field, s)
	}
	return v
}

// vmRSS reads a process's resident set size from /proc/PID/status, in bytes.
func vmRSS(t testing.TB, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("reading the server's RSS: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest) // "123456 kB"
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb * 1024
				}
			}
		}
	}
	t.Fatalf("no VmRSS line in /proc/%d/status", pid)
	return 0
}
