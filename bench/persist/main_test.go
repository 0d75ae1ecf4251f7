package main

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeServer answers PING with -LOADING until loadingReplies have been sent, then +PONG; BGSAVE
// starts a "save" that INFO persistence reports in progress for saveFor. It returns its address.
func fakeServer(t *testing.T, loadingReplies int, saveFor time.Duration) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var loading atomic.Int64
	loading.Store(int64(loadingReplies))
	var saveEnd, saves atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					args, err := readCommand(br)
					if err != nil {
						return
					}
					var reply string
					switch strings.ToUpper(args[0]) {
					case "PING":
						if loading.Add(-1) >= 0 {
							reply = "-LOADING Redis is loading the dataset in memory\r\n"
						} else {
							reply = "+PONG\r\n"
						}
					case "BGSAVE":
						saves.Add(1)
						saveEnd.Store(time.Now().Add(saveFor).UnixNano())
						reply = "+Background saving started\r\n"
					case "INFO":
						inProgress := "0"
						if time.Now().UnixNano() < saveEnd.Load() {
							inProgress = "1"
						}
						text := "# Persistence\r\nrdb_bgsave_in_progress:" + inProgress +
							"\r\nrdb_last_bgsave_status:ok\r\nrdb_last_cow_size:4096\r\nrdb_saves:" + strconv.FormatInt(saves.Load(), 10) + "\r\n# Stats\r\ntotal_commands_processed:10\r\n"
						reply = "$" + strconv.Itoa(len(text)) + "\r\n" + text + "\r\n"
					default:
						reply = "-ERR unknown command\r\n"
					}
					if _, err := c.Write([]byte(reply)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// readCommand reads one RESP array of bulk strings.
func readCommand(br *bufio.Reader) ([]string, error) {
	line, err := br.ReadString('\n')
	if err != nil {
		return nil, err
	}
	n := 0
	for _, ch := range strings.TrimSpace(line[1:]) {
		n = n*10 + int(ch-'0')
	}
	args := make([]string, n)
	for i := range args {
		if _, err := br.ReadString('\n'); err != nil { // $len
			return nil, err
		}
		a, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		args[i] = strings.TrimSuffix(a, "\r\n")
	}
	return args, nil
}

// load keeps polling through -LOADING replies and stops at the first PONG.
func TestLoadWaitsOutLoading(t *testing.T) {
	addr := fakeServer(t, 5, 0)
	out := captureStdout(t, func() error {
		return load(addr, 0, time.Now(), time.Millisecond, 10*time.Second)
	})
	if !strings.Contains(out, "loading_replies=5") || !strings.HasPrefix(out, "load_s=") {
		t.Errorf("output %q: want load_s= and loading_replies=5", out)
	}
}

// load fails at once when the server it waits for has exited, instead of polling until the
// timeout.
func TestLoadServerExited(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	began := time.Now()
	// A closed port and a pid that no longer runs.
	err := load("127.0.0.1:1", cmd.Process.Pid, time.Now(), time.Millisecond, 10*time.Second)
	if err == nil || time.Since(began) > 5*time.Second {
		t.Errorf("load = %v after %v, want an error at once", err, time.Since(began))
	}
}

// bgsave times the save from BGSAVE to rdb_bgsave_in_progress:0 and reads the memory of the
// process it is given.
func TestBgsave(t *testing.T) {
	addr := fakeServer(t, 0, 100*time.Millisecond)
	out := captureStdout(t, func() error {
		return bgsave(addr, os.Getpid(), 0, 5*time.Millisecond, 20*time.Millisecond, 10*time.Second)
	})
	f := map[string]string{}
	for kv := range strings.FieldsSeq(out) {
		k, v, _ := strings.Cut(kv, "=")
		f[k] = v
	}
	if s, err := strconv.ParseFloat(f["save_s"], 64); err != nil || s < 0.1 || s > 5 {
		t.Errorf("save_s=%s for a save of 100 ms", f["save_s"])
	}
	if f["rdb_last_cow_size"] != "4096" {
		t.Errorf("rdb_last_cow_size=%s, want 4096", f["rdb_last_cow_size"])
	}
	if f["rss_peak"] == "" || f["rss_peak"] == "0" || f["rss_before"] == "0" {
		t.Errorf("no memory readings of this process in %q", out)
	}
}

// children finds a child process, and sample counts its private dirty memory.
func TestChildren(t *testing.T) {
	cmd := exec.Command("sleep", "10")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep(1):", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if got := children(os.Getpid()); !slices.Contains(got, cmd.Process.Pid) {
		t.Errorf("children = %v, want %d among them", got, cmd.Process.Pid)
	}
	m, err := sample(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if m.rss <= 0 || m.childDirty <= 0 {
		t.Errorf("sample = %+v: want the RSS and the child's dirty pages", m)
	}
}

// captureStdout runs f with os.Stdout redirected and returns what it printed.
func captureStdout(t *testing.T, f func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	ferr := f()
	os.Stdout = old
	w.Close()
	b := make([]byte, 4096)
	n, _ := r.Read(b)
	r.Close()
	if ferr != nil {
		t.Fatal(ferr)
	}
	return string(b[:n])
}
