package tests

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLatencyMonitor: with latency-monitor-threshold set, a command at least that slow (DEBUG
// SLEEP, not a fast command) is a "command" event: LATENCY LATEST, HISTORY, GRAPH and DOCTOR
// show it, RESET drops it; with the threshold 0 nothing is recorded and DOCTOR says the monitor
// is off. Run against redis-server too.
func TestLatencyMonitor(t *testing.T) {
	srv := startServer(t)
	c := srv.RawConn(t)
	if r := c.Do("LATENCY", "DOCTOR"); !strings.HasPrefix(r.Str, "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance.") {
		t.Errorf("DOCTOR with the monitor off: %q", r.Str)
	}
	c.Do("DEBUG", "SLEEP", "0.02")
	if r := c.Do("LATENCY", "LATEST"); r.Kind != '*' || len(r.Elems) != 0 {
		t.Errorf("LATEST with the monitor off: %s", formatReply(r, false))
	}

	if r := c.Do("CONFIG", "SET", "latency-monitor-threshold", "10"); r.Str != "OK" {
		t.Fatal(formatReply(r, false))
	}
	c.Do("DEBUG", "SLEEP", "0.03")
	c.Do("PING") // fast, and quick: not an event
	r := c.Do("LATENCY", "LATEST")
	if len(r.Elems) != 1 || len(r.Elems[0].Elems) != 4 {
		t.Fatalf("LATEST: %s", formatReply(r, false))
	}
	ev := r.Elems[0].Elems
	if ev[0].Str != "command" || ev[1].Int <= 0 || ev[2].Int < 30 || ev[3].Int < ev[2].Int {
		t.Errorf("LATEST: %s", formatReply(r, false))
	}
	h := c.Do("LATENCY", "HISTORY", "command")
	if len(h.Elems) != 1 || h.Elems[0].Elems[0].Int != ev[1].Int || h.Elems[0].Elems[1].Int != ev[2].Int {
		t.Errorf("HISTORY command: %s", formatReply(h, false))
	}
	if h := c.Do("LATENCY", "HISTORY", "nosuch"); h.Kind != '*' || len(h.Elems) != 0 {
		t.Errorf("HISTORY nosuch: %s", formatReply(h, false))
	}

	g := c.Do("LATENCY", "GRAPH", "command")
	lines := strings.Split(g.Str, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "command - high ") || lines[1] != strings.Repeat("-", 80) {
		t.Errorf("GRAPH command: %q", g.Str)
	}
	if g := c.Do("LATENCY", "GRAPH", "nosuch"); g.Kind != '-' || g.Str != "ERR No samples available for event 'nosuch'" {
		t.Errorf("GRAPH nosuch: %s", formatReply(g, false))
	}
	d := c.Do("LATENCY", "DOCTOR").Str
	for _, want := range []string{
		"Dave, I have observed latency spikes in this Redis instance. You don't mind talking about it, do you Dave?\n\n1. command: 1 latency spikes (average ",
		"- Check your Slow Log to understand what are the commands you are running which are too slow to execute.",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("DOCTOR lacks %q:\n%s", want, d)
		}
	}

	if r := c.Do("LATENCY", "RESET", "nosuch"); r.Int != 0 {
		t.Errorf("RESET nosuch: %s", formatReply(r, false))
	}
	if r := c.Do("LATENCY", "RESET"); r.Int != 1 {
		t.Errorf("RESET: %s", formatReply(r, false))
	}
	if r := c.Do("LATENCY", "LATEST"); len(r.Elems) != 0 {
		t.Errorf("LATEST after RESET: %s", formatReply(r, false))
	}
	if r := c.Do("LATENCY", "HELP"); len(r.Elems) < 10 || r.Elems[0].Str != "LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:" {
		t.Errorf("LATENCY HELP: %s", formatReply(r, false))
	}
	if r := c.Do("LATENCY", "NOSUCH"); r.Kind != '-' || !strings.HasPrefix(r.Str, "ERR unknown subcommand") {
		t.Errorf("LATENCY NOSUCH: %s", formatReply(r, false))
	}
}

// TestLatencyExpireCycle: the active expiry cycle is the "expire-cycle" event. 200,000 keys
// due at once keep the cron's cycles busy up to their time budget (1 ms in kvserver, up to
// 25 ms in Redis), so with latency-monitor-threshold 1 the event is recorded. Run against
// redis-server too.
func TestLatencyExpireCycle(t *testing.T) {
	srv := startServer(t)
	c := srv.RawConn(t)
	c.Do("CONFIG", "SET", "latency-monitor-threshold", "1")
	const n = 200_000
	sendPipelined(t, srv.Addr, n, func(dst []byte, i int) []byte {
		return appendCommand(dst, "SET", "exp:"+strconv.Itoa(i), "v", "PX", "50")
	})
	deadline := time.Now().Add(30 * time.Second)
	for c.Do("DBSIZE").Int > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := c.Do("DBSIZE").Int; got != 0 {
		t.Fatalf("%d keys left after 30 s", got)
	}
	h := c.Do("LATENCY", "HISTORY", "expire-cycle")
	if len(h.Elems) == 0 {
		t.Fatalf("no expire-cycle event; LATENCY LATEST: %s", formatReply(c.Do("LATENCY", "LATEST"), false))
	}
	for _, s := range h.Elems {
		if s.Elems[1].Int < 1 {
			t.Errorf("a sample below the threshold: %s", formatReply(s, false))
		}
	}
}
