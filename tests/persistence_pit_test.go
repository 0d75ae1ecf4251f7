package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPersistPointInTime: BGSAVE writes the keyspace as it was the instant it began, though
// kvserver does not fork. While a slow save runs (rdb-key-save-delay), the test overwrites keys
// (SET, APPEND, INCR, EXPIRE, PERSIST), deletes some, creates new ones, empties a database with
// FLUSHDB, swaps two with SWAPDB and lets keys expire; the file must hold every key of the
// start once, with its value and expire of the start, and no key created later. A server loading
// the file agrees.
func TestPersistPointInTime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A save of some 2 s at 1 ms per key (per encoding core), of which the writes take a fraction. The
	// keys the test changes are written out by the changes themselves, without the delay, so
	// the time comes from 2,000 keys that no one touches, spread over every shard.
	srv := restart(t, dir, "--rdb-key-save-delay", saveDelay(1000), "--hz", "100")
	c := srv.RawConn(t)

	hour := time.Now().Add(time.Hour).UnixMilli()
	before := pdata{}
	for i := 0; i < 1000; i++ {
		v, exp := "v0", int64(-1)
		if i%5 == 2 {
			v = "100" // INCR's keys hold integers
		}
		if i%5 == 4 || i%10 == 0 {
			exp = hour + int64(i)
		}
		before.set(0, fmt.Sprintf("k:%04d", i), v, exp)
	}
	for i := 0; i < 200; i++ {
		before.set(1, fmt.Sprintf("f:%03d", i), "v0", -1)
	}
	for i := 0; i < 100; i++ {
		before.set(2, fmt.Sprintf("a:%03d", i), "v0", -1)
		before.set(3, fmt.Sprintf("b:%03d", i), "v0", hour)
	}
	for i := 0; i < 2000; i++ {
		before.set(8, fmt.Sprintf("untouched:%04d", i), "v0", -1)
	}
	// Keys that expire while the save runs.
	soon := time.Now().Add(800 * time.Millisecond).UnixMilli()
	for i := 0; i < 50; i++ {
		before.set(4, fmt.Sprintf("x:%02d", i), "v0", soon)
	}
	writeData(t, c, before)

	expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
	var buf []byte
	n := 0
	cmd := func(args ...string) {
		buf = appendCommand(buf, args...)
		n++
	}
	cmd("SELECT", "0")
	for i := 0; i < 1000; i++ {
		k := fmt.Sprintf("k:%04d", i)
		switch {
		case i%50 == 1:
			cmd("DEL", k)
		case i%5 == 0:
			cmd("SET", k, "v1")
		case i%5 == 1:
			cmd("APPEND", k, "+appended")
		case i%5 == 2:
			cmd("INCR", k)
		case i%5 == 3:
			cmd("EXPIRE", k, "100")
		case i%5 == 4:
			cmd("PERSIST", k)
		}
	}
	for i := 0; i < 200; i++ {
		cmd("SET", fmt.Sprintf("new:%03d", i), "created during the save")
	}
	cmd("SELECT", "1")
	cmd("FLUSHDB")
	cmd("SET", "f:000", "after the flush")
	cmd("SWAPDB", "2", "3")
	cmd("SELECT", "2")
	cmd("SET", "a:000", "in db 2 after the swap")
	c.Send(buf)
	for i := 0; i < n; i++ {
		if r := c.ReadReply(); r.Kind == '-' {
			t.Fatalf("write %d during the save: %s", i, formatReply(r, false))
		}
	}
	// Let db 4's keys expire (active expiry, or GET's lazy one).
	waitFor(t, 5*time.Second, "db 4's keys to expire", func() bool {
		c.Do("SELECT", "4")
		c.Do("GET", "x:00")
		return c.Do("DBSIZE").Int == 0
	})
	if n := infoInt(t, srv, "persistence", "rdb_bgsave_in_progress"); n != 1 {
		t.Fatalf("the save ended before the writes did (rdb_bgsave_in_progress:%d): nothing was tested; raise rdb-key-save-delay", n)
	}
	if r := c.Do("DBSIZE"); r.Int != 0 {
		t.Fatalf("db 4 still holds %d keys", r.Int)
	}
	waitSaved(t, srv)
	if s := srv.Info(t, "persistence")["rdb_last_bgsave_status"]; s != "ok" {
		t.Fatalf("rdb_last_bgsave_status:%s", s)
	}
	file, _ := decodeFile(t, filepath.Join(dir, "dump.rdb"))
	diffData(t, "the file of a BGSAVE with writes during it", file, before)

	// The server's keyspace did change: the test wrote what it thinks it wrote.
	c.Do("SELECT", "0")
	if r := c.Do("GET", "k:0000"); r.Str != "v1" {
		t.Errorf("GET k:0000 after the save = %s, want v1", formatReply(r, false))
	}
	if r := c.Do("GET", "k:0002"); r.Str != "101" {
		t.Errorf("GET k:0002 after the save = %s, want 101", formatReply(r, false))
	}

	// A server loading the file: the same keys less db 4's, expired since.
	copyDir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(dir, "dump.rdb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(copyDir, "dump.rdb"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	loaded := restart(t, copyDir)
	want := pdata{}
	for k, v := range before {
		if k.db != 4 {
			want[k] = v
		}
	}
	diffData(t, "a server loading the file", readData(t, loaded), want)
	if got := loaded.Info(t, "persistence")["rdb_last_load_keys_expired"]; got != strconv.Itoa(50) {
		t.Errorf("rdb_last_load_keys_expired:%s, want 50", got)
	}
}

// TestPersistPointInTimeEvictions: keys evicted by maxmemory (volatile-random) while a BGSAVE
// runs are in its file all the same, as they were when it began, and the keys written after it
// began are not. Only the 1,500 keys with an expire can be evicted: the save's time comes from
// the 2,000 others, which nothing touches (a key that a write or an eviction changes is written
// out by that change, without rdb-key-save-delay).
func TestPersistPointInTimeEvictions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir, "--rdb-key-save-delay", saveDelay(1000), "--maxmemory-policy", "volatile-random")
	c := srv.RawConn(t)
	before := pdata{}
	val := strings.Repeat("e", 1000)
	hour := time.Now().Add(time.Hour).UnixMilli()
	for i := 0; i < 1500; i++ {
		before.set(i%3, fmt.Sprintf("e:%04d", i), fmt.Sprintf("%04d%s", i, val), hour)
	}
	for i := 0; i < 2000; i++ {
		before.set(3, fmt.Sprintf("untouched:%04d", i), "v0", -1)
	}
	writeData(t, c, before)
	used := infoInt(t, srv, "memory", "used_memory")
	limit := used + 256<<10
	expectStatus(t, "CONFIG SET maxmemory", c.Do("CONFIG", "SET", "maxmemory", strconv.FormatInt(limit, 10)), "+OK")
	expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
	// 1,000 new keys of 1 KB, some 750 KB over the limit: hundreds of evictions.
	var buf []byte
	for i := 0; i < 1000; i++ {
		buf = appendCommand(buf, "SET", fmt.Sprintf("n:%04d", i), val)
	}
	c.Send(buf)
	for i := 0; i < 1000; i++ {
		if r := c.ReadReply(); r.Kind == '-' && !strings.HasPrefix(r.Str, "OOM") {
			t.Fatalf("SET %d during the save: %s", i, formatReply(r, false))
		}
	}
	evicted := infoInt(t, srv, "stats", "evicted_keys")
	if evicted == 0 {
		t.Fatalf("no key evicted (used_memory %d, maxmemory %d)", infoInt(t, srv, "memory", "used_memory"), limit)
	}
	if n := infoInt(t, srv, "persistence", "rdb_bgsave_in_progress"); n != 1 {
		t.Fatalf("the save ended before the evictions did (rdb_bgsave_in_progress:%d)", n)
	}
	waitSaved(t, srv)
	if s := srv.Info(t, "persistence")["rdb_last_bgsave_status"]; s != "ok" {
		t.Fatalf("rdb_last_bgsave_status:%s", s)
	}
	t.Logf("%d keys evicted during the save", evicted)
	file, _ := decodeFile(t, filepath.Join(dir, "dump.rdb"))
	diffData(t, "the file of a BGSAVE with evictions during it", file, before)
}

// TestPersistFlushallAbortsBgsave: FLUSHALL during a BGSAVE ends the save without a file, as
// Redis kills its saving child (a dump of the keys just flushed would bring them back on the
// next start); the abandoned save is not a failed one (rdb_last_bgsave_status stays ok).
func TestPersistFlushallAbortsBgsave(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir, "--rdb-key-save-delay", saveDelay(2000))
	c := srv.RawConn(t)
	expectStatus(t, "DEBUG POPULATE", c.Do("DEBUG", "POPULATE", "1000"), "+OK")
	expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
	expectStatus(t, "FLUSHALL", c.Do("FLUSHALL"), "+OK")
	waitSaved(t, srv)
	if _, err := os.Stat(filepath.Join(dir, "dump.rdb")); !os.IsNotExist(err) {
		t.Errorf("the BGSAVE interrupted by FLUSHALL wrote dump.rdb (stat: %v)", err)
	}
	info := srv.Info(t, "persistence")
	if info["rdb_last_bgsave_status"] != "ok" {
		t.Errorf("rdb_last_bgsave_status:%s after an aborted save, want ok", info["rdb_last_bgsave_status"])
	}
	// The next BGSAVE starts at once and writes the empty keyspace.
	expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
	waitSaved(t, srv)
	file, _ := decodeFile(t, filepath.Join(dir, "dump.rdb"))
	diffData(t, "the file after FLUSHALL", file, pdata{})
}

// TestPersistFlushallSaves: with save points, FLUSHALL writes the empty dump at once (Redis's
// rdbSave after a flush), so that a crash that follows does not bring the flushed keys back.
func TestPersistFlushallSaves(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir, "--save", "3600 1")
	c := srv.RawConn(t)
	expectStatus(t, "SET", c.Do("SET", "a", "1"), "+OK")
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")
	expectStatus(t, "FLUSHALL", c.Do("FLUSHALL"), "+OK")
	if n := infoInt(t, srv, "persistence", "rdb_changes_since_last_save"); n != 0 {
		t.Errorf("rdb_changes_since_last_save = %d after FLUSHALL with save points, want 0", n)
	}
	file, _ := decodeFile(t, filepath.Join(dir, "dump.rdb"))
	diffData(t, "dump.rdb after FLUSHALL", file, pdata{})
	markStopping(srv)
	srv.cmd.Process.Signal(syscall.SIGKILL)
	<-srv.done
	diffData(t, "after FLUSHALL, SIGKILL and a restart", readData(t, restart(t, dir)), pdata{})
}

// TestPersistBgsaveInstant: the instant of a BGSAVE precedes its reply, as Redis forks before it
// answers: a SET pipelined right behind BGSAVE on the same connection is never in that save's
// file. Twenty rounds, since a snapshot that begins a little after the reply shows only now
// and then.
func TestPersistBgsaveInstant(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir)
	c := srv.RawConn(t)
	expectStatus(t, "DEBUG POPULATE", c.Do("DEBUG", "POPULATE", "1000"), "+OK")
	for i := 1; i <= 20; i++ {
		before, after := strconv.Itoa(i-1), strconv.Itoa(i)
		expectStatus(t, "SET", c.Do("SET", "marker", before), "+OK")
		c.Send(append(appendCommand(nil, "BGSAVE"), appendCommand(nil, "SET", "marker", after)...))
		expectStatus(t, "BGSAVE", c.ReadReply(), "+Background saving started")
		expectStatus(t, "SET after BGSAVE", c.ReadReply(), "+OK")
		waitSaved(t, srv)
		file, _ := decodeFile(t, filepath.Join(dir, "dump.rdb"))
		if got := file[pkey{0, "marker"}].val; got != before {
			t.Fatalf("round %d: the file has marker=%q, want %q: the SET sent after BGSAVE is in its snapshot", i, got, before)
		}
	}
}
