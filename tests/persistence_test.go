package tests

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kvserver/kvserver/rdb"
)

// RDB persistence end to end (issue 18): SAVE, BGSAVE, save points, SHUTDOWN and signals,
// loading at start-up, DEBUG RELOAD, INFO persistence and the dir/dbfilename rules. Every test
// starts the real binary on a temporary --dir and restarts it there, or reads the file it wrote
// with package rdb. They hold for redis-server 7.0.15 too (KVSERVER_TARGET=redis), except where
// requireKvserver says otherwise.

// pkey is a key of a given database.
type pkey struct {
	db  int
	key string
}

// pval is a key's value and its absolute expire time in Unix milliseconds (-1 for none).
type pval struct {
	val      string
	expireMs int64
}

// pdata is the whole keyspace of a server or a file.
type pdata map[pkey]pval

func (d pdata) set(db int, key, val string, expireMs int64) { d[pkey{db, key}] = pval{val, expireMs} }

// sortedKeys returns d's keys by database, then name.
func (d pdata) sortedKeys() []pkey {
	keys := make([]pkey, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].db != keys[j].db {
			return keys[i].db < keys[j].db
		}
		return keys[i].key < keys[j].key
	})
	return keys
}

// clip quotes s, cut to 40 bytes, for messages about values of 200 KB.
func clip(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%q…(%d bytes)", s[:40], len(s))
	}
	return strconv.Quote(s)
}

// numDBs is the databases setting of the servers these tests start (the default).
const numDBs = 16

// writeData stores d through c, pipelined: SET key value [PXAT ms] in each key's database. Every
// reply must be +OK. It leaves c in database 0.
func writeData(t testing.TB, c *rawConn, d pdata) {
	t.Helper()
	var buf []byte
	n := 0
	flush := func() {
		c.Send(buf)
		for i := 0; i < n; i++ {
			if r := c.ReadReply(); r.Kind != '+' || r.Str != "OK" {
				t.Fatalf("writing the data set: reply %d of %d: %s", i, n, formatReply(r, false))
			}
		}
		buf, n = buf[:0], 0
	}
	db := -1
	for _, k := range d.sortedKeys() {
		if k.db != db {
			db = k.db
			buf = appendCommand(buf, "SELECT", strconv.Itoa(db))
			n++
		}
		v := d[k]
		if v.expireMs >= 0 {
			buf = appendCommand(buf, "SET", k.key, v.val, "PXAT", strconv.FormatInt(v.expireMs, 10))
		} else {
			buf = appendCommand(buf, "SET", k.key, v.val)
		}
		n++
		if n >= 500 || len(buf) > 1<<20 {
			flush()
		}
	}
	buf = appendCommand(buf, "SELECT", "0")
	n++
	flush()
}

// readData reads the whole keyspace of srv: SCAN of every database, then GET and PEXPIRETIME of
// each key (pipelined). A key that expires between SCAN and GET is left out.
func readData(t testing.TB, srv *server) pdata {
	t.Helper()
	c := srv.RawConn(t)
	defer c.Close()
	out := pdata{}
	for db := 0; db < numDBs; db++ {
		if r := c.Do("SELECT", strconv.Itoa(db)); r.Str != "OK" {
			t.Fatalf("SELECT %d: %s", db, formatReply(r, false))
		}
		seen := map[string]bool{}
		var keys []string
		for cursor := "0"; ; {
			r := c.Do("SCAN", cursor, "COUNT", "1000")
			if r.Kind != '*' || len(r.Elems) != 2 {
				hint := ""
				if strings.HasPrefix(r.Str, "LOADING") {
					hint = " (after PING had answered PONG: the server served before its load began)"
				}
				t.Fatalf("SCAN %s in db %d: %s%s", cursor, db, formatReply(r, false), hint)
			}
			for _, k := range r.Elems[1].Elems {
				if !seen[k.Str] { // SCAN may return a key twice
					seen[k.Str] = true
					keys = append(keys, k.Str)
				}
			}
			if cursor = r.Elems[0].Str; cursor == "0" {
				break
			}
		}
		for i := 0; i < len(keys); i += 500 {
			batch := keys[i:min(i+500, len(keys))]
			var buf []byte
			for _, k := range batch {
				buf = appendCommand(buf, "GET", k)
				buf = appendCommand(buf, "PEXPIRETIME", k)
			}
			c.Send(buf)
			for _, k := range batch {
				v, e := c.ReadReply(), c.ReadReply()
				if v.Kind == '_' {
					continue
				}
				if v.Kind != '$' || e.Kind != ':' {
					t.Fatalf("GET/PEXPIRETIME %s in db %d: %s %s", clip(k), db, formatReply(v, false), formatReply(e, false))
				}
				out.set(db, k, v.Str, e.Int)
			}
		}
	}
	return out
}

// diffData reports every difference between got and want (at most 20), naming what got is.
func diffData(t testing.TB, what string, got, want pdata) {
	t.Helper()
	n := 0
	report := func(format string, args ...any) {
		if n++; n <= 20 {
			t.Errorf(what+": "+format, args...)
		}
	}
	for _, k := range want.sortedKeys() {
		g, ok := got[k]
		w := want[k]
		switch {
		case !ok:
			report("db %d key %s missing (want %s, expire %d)", k.db, clip(k.key), clip(w.val), w.expireMs)
		case g.val != w.val:
			report("db %d key %s = %s, want %s", k.db, clip(k.key), clip(g.val), clip(w.val))
		case g.expireMs != w.expireMs:
			report("db %d key %s expires at %d, want %d", k.db, clip(k.key), g.expireMs, w.expireMs)
		}
	}
	for _, k := range got.sortedKeys() {
		if _, ok := want[k]; !ok {
			report("db %d key %s = %s should not be there", k.db, clip(k.key), clip(got[k].val))
		}
	}
	if n > 20 {
		t.Errorf("%s: %d differences in all (%d keys, want %d)", what, n, len(got), len(want))
	}
}

// decodeFile reads an RDB file with package rdb; a key found twice fails the test (Redis refuses
// such a file).
func decodeFile(t testing.TB, path string) (pdata, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := rdb.NewDecoder(f)
	out := pdata{}
	for {
		e, err := d.Next()
		if err != nil {
			if err == io.EOF {
				break
			}
			t.Fatalf("decoding %s: %v", path, err)
		}
		k := pkey{e.DB, string(e.Key)}
		if _, dup := out[k]; dup {
			t.Errorf("%s: db %d key %s written twice", path, e.DB, clip(k.key))
		}
		out[k] = pval{string(e.Value), e.ExpireMs}
	}
	return out, d.Version()
}

// craftVersion is the RDB version of the files these tests write themselves: 11 as Redis 7.2
// writes, or 10 for redis-server 7.0.15, which refuses 11.
func craftVersion() int {
	if targetRedis {
		return 10
	}
	return rdb.Version
}

// craftFile writes d as an RDB file at path with package rdb (compression and checksum on).
func craftFile(t testing.TB, path string, d pdata, compress bool) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e := rdb.NewEncoder(f)
	e.Version = craftVersion()
	e.Compress = compress
	e.WriteHeader()
	e.WriteStandardAux("7.2.0", time.Now().Unix(), 1<<20)
	keys := d.sortedKeys()
	for i := 0; i < len(keys); {
		db := keys[i].db
		j, expires := i, 0
		for ; j < len(keys) && keys[j].db == db; j++ {
			if d[keys[j]].expireMs >= 0 {
				expires++
			}
		}
		e.SelectDB(db)
		e.ResizeDB(uint64(j-i), uint64(expires))
		for _, k := range keys[i:j] {
			v := d[k]
			e.WriteString(rdb.Entry{DB: db, Key: []byte(k.key), Value: []byte(v.val), ExpireMs: v.expireMs, Idle: -1, Freq: -1})
		}
		i = j
	}
	if err := e.Finish(); err != nil {
		t.Fatal(err)
	}
}

// saveDelay and loadDelay are values of rdb-key-save-delay and key-load-delay (microseconds per
// key) that make a background save or a load last about as long on kvserver as on redis-server,
// which saves and loads with one process: kvserver's background saves encode with half the
// cores, its loads with all.
func saveDelay(us int) string {
	if targetRedis {
		return strconv.Itoa(us)
	}
	return strconv.Itoa(us * max(1, runtime.NumCPU()/2))
}

func loadDelay(us int) string {
	if targetRedis {
		return strconv.Itoa(us)
	}
	return strconv.Itoa(us * runtime.NumCPU())
}

// waitSaved waits until no background save runs (rdb_bgsave_in_progress:0).
func waitSaved(t *testing.T, srv *server) {
	t.Helper()
	waitFor(t, 30*time.Second, "background save still in progress", func() bool {
		return srv.Info(t, "persistence")["rdb_bgsave_in_progress"] == "0"
	})
}

// expectStatus fails the test unless r is the status or error reply want ("+OK", "-ERR …").
func expectStatus(t testing.TB, what string, r *Reply, want string) {
	t.Helper()
	got := string(r.Kind) + r.Str
	if got != want {
		t.Errorf("%s: got %s, want %s", what, formatReply(r, false), want)
	}
}

// markStopping tells the harness that the process is going to exit.
func markStopping(srv *server) {
	srv.mu.Lock()
	srv.stopping = true
	srv.mu.Unlock()
}

// kill9 kills the server with SIGKILL, as a crash would, and waits for it to be gone.
func kill9(t testing.TB, srv *server) {
	t.Helper()
	markStopping(srv)
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-srv.done
}

// waitExitCode waits up to stopTimeout for the process to exit and returns its exit status.
func waitExitCode(t testing.TB, srv *server) int {
	t.Helper()
	select {
	case <-srv.done:
		return exitCode(srv.exitErr)
	case <-time.After(stopTimeout):
		srv.kill()
		t.Fatalf("still running %v after it should have exited", stopTimeout)
		return -1
	}
}

// shutdown sends SHUTDOWN args and expects the process to exit with status 0 without a reply.
func shutdown(t testing.TB, srv *server, args ...string) {
	t.Helper()
	markStopping(srv)
	c := srv.RawConn(t)
	c.Send(encodeCommand(append([]string{"SHUTDOWN"}, args...)...))
	if b := c.ReadUntilClose(); len(b) != 0 {
		t.Fatalf("SHUTDOWN %s answered %q", strings.Join(args, " "), b)
	}
	if code := waitExitCode(t, srv); code != 0 {
		t.Fatalf("SHUTDOWN %s: exit status %d, want 0", strings.Join(args, " "), code)
	}
}

// restart starts a server on dir with extra arguments, loading dir's dump.rdb.
func restart(t testing.TB, dir string, args ...string) *server {
	t.Helper()
	return startServer(t, append([]string{"--dir", dir}, args...)...)
}

// roundTripData is the data set of TestPersistRoundTrip: strings, integers (8, 16, 32 bit and
// not encodable), values over 20 bytes (LZF), a 200 KB value, binary keys and values, empty
// values, and future expires, in databases 0, 3 and 15.
func roundTripData() pdata {
	rng := rand.New(rand.NewSource(18))
	random := func(n int) string {
		b := make([]byte, n)
		rng.Read(b)
		return string(b)
	}
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	future := time.Now().Add(time.Hour).UnixMilli()
	d := pdata{}
	d.set(0, "str", "hello", -1)
	d.set(0, "empty", "", -1)
	for i, v := range []string{"0", "7", "-1", "127", "-128", "300", "-32768", "65535", "2147483647", "-2147483648",
		"4294967296", "9223372036854775807", "-9223372036854775808", "007", "+1", "1.5", " 12"} {
		d.set(0, "int:"+strconv.Itoa(i), v, -1)
	}
	d.set(0, "lzf:21", strings.Repeat("a", 21), -1)
	d.set(0, "lzf:text", strings.Repeat("the quick brown fox ", 30), -1)
	d.set(0, "random:50", random(50), -1)
	d.set(0, "big:random", random(200<<10), -1)
	d.set(0, "big:text", strings.Repeat("0123456789abcdef", 200<<10/16), -1)
	d.set(0, "bin\x00\xff\r\nkey", string(all), -1)
	d.set(0, string(all), "binary key", -1)
	d.set(0, "ttl:hour", "kept", future)
	d.set(0, "ttl:int", "42", future+1)
	for i := 0; i < 50; i++ {
		d.set(3, fmt.Sprintf("db3:%03d", i), strings.Repeat(strconv.Itoa(i), 1+i), -1)
	}
	d.set(3, "ttl:day", "db3 expire", time.Now().Add(24*time.Hour).UnixMilli())
	d.set(15, "last", "db 15", -1)
	d.set(15, "n", "12345678", future+2)
	return d
}

// TestPersistRoundTrip: SAVE writes every database, value encoding and expire; a server started
// on the same dir holds the same keys, values and expire times (to the millisecond), without
// the keys whose expire passed before the restart, which INFO counts as expired on load.
// LASTSAVE, rdb_saves and rdb_changes_since_last_save follow the saves and writes.
func TestPersistRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir)
	c := srv.RawConn(t)
	if n := infoInt(t, srv, "persistence", "rdb_changes_since_last_save"); n != 0 {
		t.Errorf("rdb_changes_since_last_save = %d on a fresh server, want 0", n)
	}
	saves0 := infoInt(t, srv, "persistence", "rdb_saves")
	last0 := c.Do("LASTSAVE")
	if last0.Kind != ':' {
		t.Fatalf("LASTSAVE: %s", formatReply(last0, false))
	}

	want := roundTripData()
	writeData(t, c, want)
	// Keys that are in the file but expire before the restart.
	gone := pdata{}
	soon := time.Now().Add(1500 * time.Millisecond).UnixMilli()
	for i := 0; i < 3; i++ {
		gone.set(0, "gone:"+strconv.Itoa(i), "v", soon)
	}
	gone.set(3, "gone:db3", "12", soon)
	writeData(t, c, gone)
	if n, w := infoInt(t, srv, "persistence", "rdb_changes_since_last_save"), int64(len(want)+len(gone)); n != w {
		t.Errorf("rdb_changes_since_last_save = %d after %d SETs, want %d", n, w, w)
	}
	// LASTSAVE counts seconds: let one pass since the last one so that the save moves it.
	waitFor(t, 2*time.Second, "a new second", func() bool { return time.Now().Unix() > last0.Int })
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")
	if r := c.Do("LASTSAVE"); r.Kind != ':' || r.Int <= last0.Int {
		t.Errorf("LASTSAVE after SAVE = %s, want more than %d", formatReply(r, false), last0.Int)
	}
	if n := infoInt(t, srv, "persistence", "rdb_saves"); n != saves0+1 {
		t.Errorf("rdb_saves = %d after one SAVE, want %d", n, saves0+1)
	}
	if n := infoInt(t, srv, "persistence", "rdb_changes_since_last_save"); n != 0 {
		t.Errorf("rdb_changes_since_last_save = %d after SAVE, want 0", n)
	}
	if s := srv.Info(t, "persistence")["rdb_last_save_time"]; s != strconv.FormatInt(c.Do("LASTSAVE").Int, 10) {
		t.Errorf("rdb_last_save_time:%s is not LASTSAVE", s)
	}
	// Writes count, a no-op does not (DEL of a missing key), as Redis's dirty counter.
	c.Do("SET", "scratch", "1")
	c.Do("INCR", "scratch")
	c.Do("APPEND", "scratch", "0")
	c.Do("DEL", "no-such-key")
	c.Do("DEL", "scratch")
	if n := infoInt(t, srv, "persistence", "rdb_changes_since_last_save"); n != 4 {
		t.Errorf("rdb_changes_since_last_save = %d after 4 writes and a no-op DEL, want 4", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "dump.rdb")); err != nil {
		t.Fatalf("SAVE left no dump.rdb: %v", err)
	}
	file, _ := decodeFile(t, filepath.Join(dir, "dump.rdb"))
	inFile := pdata{}
	for k, v := range want {
		inFile[k] = v
	}
	for k, v := range gone {
		inFile[k] = v
	}
	diffData(t, "the file SAVE wrote", file, inFile)
	shutdown(t, srv, "NOSAVE")

	// Restart after the short expires have passed.
	waitFor(t, 3*time.Second, "the short expires to pass", func() bool { return time.Now().UnixMilli() > soon+10 })
	srv2 := restart(t, dir)
	diffData(t, "after the restart", readData(t, srv2), want)
	info := srv2.Info(t, "persistence")
	if got := info["rdb_last_load_keys_loaded"]; got != strconv.Itoa(len(want)) {
		t.Errorf("rdb_last_load_keys_loaded:%s, want %d", got, len(want))
	}
	if got := info["rdb_last_load_keys_expired"]; got != strconv.Itoa(len(gone)) {
		t.Errorf("rdb_last_load_keys_expired:%s, want %d", got, len(gone))
	}
	if got := info["rdb_changes_since_last_save"]; got != "0" {
		t.Errorf("rdb_changes_since_last_save:%s after loading, want 0", got)
	}
}

// TestPersistKill9AfterSave: once SAVE has answered +OK its data survives a SIGKILL that
// follows at once: the file is complete (written, synced and renamed before the reply).
func TestPersistKill9AfterSave(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir)
	c := srv.RawConn(t)
	want := pdata{}
	exp := time.Now().Add(time.Hour).UnixMilli()
	for i := 0; i < 3000; i++ {
		e := int64(-1)
		if i%7 == 0 {
			e = exp + int64(i)
		}
		want.set(i%3, fmt.Sprintf("key:%05d", i), fmt.Sprintf("value %d %s", i, strings.Repeat("x", i%40)), e)
	}
	writeData(t, c, want)
	// A first save, then changes, then the save whose acknowledgement is tested.
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")
	for i := 0; i < 3000; i += 2 {
		k := pkey{i % 3, fmt.Sprintf("key:%05d", i)}
		want.set(k.db, k.key, "second "+strconv.Itoa(i), -1)
	}
	want.set(5, "new", "in the second save", -1)
	writeData(t, c, want)
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")
	kill9(t, srv)
	diffData(t, "after SIGKILL and a restart", readData(t, restart(t, dir)), want)
}

// TestPersistBgsave: BGSAVE's replies (started; already in progress for BGSAVE, BGSAVE SCHEDULE
// and SAVE while one runs), INFO while it runs and after, the file it writes, and a write made
// during the save still counted in rdb_changes_since_last_save. rdb-key-save-delay makes the
// save last about a second.
func TestPersistBgsave(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir, "--rdb-key-save-delay", saveDelay(1000))
	c := srv.RawConn(t)
	expectStatus(t, "DEBUG POPULATE", c.Do("DEBUG", "POPULATE", "1000"), "+OK")
	saves0 := infoInt(t, srv, "persistence", "rdb_saves")
	expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
	if n := infoInt(t, srv, "persistence", "rdb_bgsave_in_progress"); n != 1 {
		t.Errorf("rdb_bgsave_in_progress = %d right after BGSAVE, want 1", n)
	}
	expectStatus(t, "BGSAVE while one runs", c.Do("BGSAVE"), "-ERR Background save already in progress")
	// SCHEDULE waits only for another kind of child (an AOF rewrite); during an RDB save Redis
	// answers the same error.
	expectStatus(t, "BGSAVE SCHEDULE while one runs", c.Do("BGSAVE", "SCHEDULE"), "-ERR Background save already in progress")
	expectStatus(t, "SAVE while BGSAVE runs", c.Do("SAVE"), "-ERR Background save already in progress")
	expectStatus(t, "SET during the save", c.Do("SET", "during", "x"), "+OK")
	if n := infoInt(t, srv, "persistence", "rdb_bgsave_in_progress"); n != 1 {
		t.Fatalf("the save ended before the test could observe it (rdb_bgsave_in_progress:%d)", n)
	}
	waitSaved(t, srv)
	info := srv.Info(t, "persistence")
	if info["rdb_last_bgsave_status"] != "ok" {
		t.Errorf("rdb_last_bgsave_status:%s, want ok", info["rdb_last_bgsave_status"])
	}
	if s, err := strconv.Atoi(info["rdb_last_bgsave_time_sec"]); err != nil || s < 0 {
		t.Errorf("rdb_last_bgsave_time_sec:%s after a save", info["rdb_last_bgsave_time_sec"])
	}
	if info["rdb_saves"] != strconv.FormatInt(saves0+1, 10) {
		t.Errorf("rdb_saves:%s, want %d", info["rdb_saves"], saves0+1)
	}
	if info["rdb_changes_since_last_save"] != "1" {
		t.Errorf("rdb_changes_since_last_save:%s after a save with one write during it, want 1", info["rdb_changes_since_last_save"])
	}
	file, _ := decodeFile(t, filepath.Join(dir, "dump.rdb"))
	if len(file) != 1000 {
		t.Errorf("the file holds %d keys, want the 1000 of DEBUG POPULATE", len(file))
	}
	if v := file[pkey{0, "key:999"}]; v.val != "value:999" {
		t.Errorf("key:999 in the file = %s, want value:999", clip(v.val))
	}

	// With no save running, BGSAVE SCHEDULE starts one at once.
	expectStatus(t, "BGSAVE SCHEDULE", c.Do("BGSAVE", "SCHEDULE"), "+Background saving started")
	waitSaved(t, srv)
	if n := infoInt(t, srv, "persistence", "rdb_saves"); n != saves0+2 {
		t.Errorf("rdb_saves = %d after the second save, want %d", n, saves0+2)
	}
	file, _ = decodeFile(t, filepath.Join(dir, "dump.rdb"))
	if len(file) != 1001 || file[pkey{0, "during"}].val != "x" {
		t.Errorf("the second file holds %d keys (want 1001) and during=%s", len(file), clip(file[pkey{0, "during"}].val))
	}
	expectStatus(t, "BGSAVE with an argument", c.Do("BGSAVE", "NOW"), "-ERR syntax error")
}

// TestPersistSavePoints: with save "1 1" one write makes a background save happen by itself
// (the cron's save point), while a server with save "" given the same write saves nothing.
func TestPersistSavePoints(t *testing.T) {
	t.Parallel()
	dirOn, dirOff := t.TempDir(), t.TempDir()
	on := restart(t, dirOn, "--save", "1 1")
	off := restart(t, dirOff, "--save", "")
	if r := configGet(t, on.RawConn(t), "save"); r != "1 1" {
		t.Errorf("CONFIG GET save = %q, want \"1 1\"", r)
	}
	if r := configGet(t, off.RawConn(t), "save"); r != "" {
		t.Errorf("CONFIG GET save = %q, want \"\"", r)
	}
	expectStatus(t, "SET", on.RawConn(t).Do("SET", "k", "v"), "+OK")
	expectStatus(t, "SET", off.RawConn(t).Do("SET", "k", "v"), "+OK")
	waitFor(t, 10*time.Second, "no save after one write with save \"1 1\"", func() bool {
		info := on.Info(t, "persistence")
		return info["rdb_saves"] == "1" && info["rdb_bgsave_in_progress"] == "0"
	})
	file, _ := decodeFile(t, filepath.Join(dirOn, "dump.rdb"))
	diffData(t, "the save point's file", file, pdata{pkey{0, "k"}: {"v", -1}})
	if n := infoInt(t, on, "persistence", "rdb_changes_since_last_save"); n != 0 {
		t.Errorf("rdb_changes_since_last_save = %d after the save point's save, want 0", n)
	}
	// The other server had as long and one more cron second: still nothing.
	time.Sleep(1100 * time.Millisecond)
	if n := infoInt(t, off, "persistence", "rdb_saves"); n != 0 {
		t.Errorf("rdb_saves = %d with save \"\", want 0", n)
	}
	if _, err := os.Stat(filepath.Join(dirOff, "dump.rdb")); !os.IsNotExist(err) {
		t.Errorf("save \"\" wrote dump.rdb (stat: %v)", err)
	}
	// Save points set at run time act too.
	expectStatus(t, "CONFIG SET save", off.RawConn(t).Do("CONFIG", "SET", "save", "1 1"), "+OK")
	waitFor(t, 10*time.Second, "no save after CONFIG SET save \"1 1\"", func() bool {
		return infoInt(t, off, "persistence", "rdb_saves") == 1
	})
}

// checkDump asserts that dir's dump.rdb holds exactly want.
func checkDump(t *testing.T, dir string, want pdata) {
	t.Helper()
	file, _ := decodeFile(t, filepath.Join(dir, "dump.rdb"))
	diffData(t, "dump.rdb", file, want)
}

// TestPersistShutdown: SHUTDOWN saves when save points exist, NOSAVE does not, SAVE does with
// save ""; SIGTERM and SIGINT save when save points exist and exit 0; ABORT with no shutdown in
// progress is an error. A restart on the dir holds the data.
func TestPersistShutdown(t *testing.T) {
	t.Parallel()
	data := pdata{}
	data.set(0, "a", "1", -1)
	data.set(2, "b", strings.Repeat("long value ", 10), time.Now().Add(time.Hour).UnixMilli())
	start := func(t *testing.T, save string) (*server, string) {
		dir := t.TempDir()
		srv := restart(t, dir, "--save", save)
		writeData(t, srv.RawConn(t), data)
		return srv, dir
	}
	t.Run("default", func(t *testing.T) {
		t.Parallel()
		srv, dir := start(t, "3600 1")
		c := srv.RawConn(t)
		expectStatus(t, "SHUTDOWN ABORT", c.Do("SHUTDOWN", "ABORT"), "-ERR No shutdown in progress.")
		for _, args := range [][]string{{"SAVE", "NOSAVE"}, {"ABORT", "NOW"}, {"FOO"}, {"NOW", "FORCE", "EXTRA"}} {
			expectStatus(t, "SHUTDOWN "+strings.Join(args, " "), c.Do(append([]string{"SHUTDOWN"}, args...)...), "-ERR syntax error")
		}
		shutdown(t, srv)
		checkDump(t, dir, data)
		diffData(t, "after the restart", readData(t, restart(t, dir)), data)
	})
	t.Run("nosave", func(t *testing.T) {
		t.Parallel()
		srv, dir := start(t, "3600 1")
		shutdown(t, srv, "NOSAVE")
		if _, err := os.Stat(filepath.Join(dir, "dump.rdb")); !os.IsNotExist(err) {
			t.Errorf("SHUTDOWN NOSAVE wrote dump.rdb (stat: %v)", err)
		}
	})
	t.Run("now", func(t *testing.T) {
		t.Parallel()
		srv, dir := start(t, "3600 1")
		shutdown(t, srv, "NOW")
		checkDump(t, dir, data)
	})
	t.Run("SIGTERM-during-bgsave", func(t *testing.T) {
		// The running save is abandoned and the final one writes the keyspace of the
		// shutdown, with the write made after BGSAVE began.
		t.Parallel()
		dir := t.TempDir()
		srv := restart(t, dir, "--save", "3600 1", "--rdb-key-save-delay", saveDelay(1000))
		c := srv.RawConn(t)
		want := pdata{}
		for i := 0; i < 300; i++ {
			want.set(0, fmt.Sprintf("k:%03d", i), "v", -1)
		}
		writeData(t, c, want)
		expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
		expectStatus(t, "SET", c.Do("SET", "after", "bgsave"), "+OK")
		want.set(0, "after", "bgsave", -1)
		markStopping(srv)
		srv.cmd.Process.Signal(syscall.SIGTERM)
		if code := waitExitCode(t, srv); code != 0 {
			t.Errorf("exit status %d after SIGTERM, want 0", code)
		}
		checkDump(t, dir, want)
	})
	// A background save running at a shutdown that does not save is abandoned: exit status 0,
	// no dump.rdb and no temporary file left (Redis kills its child and removes its file).
	for _, how := range []string{"SIGTERM", "NOSAVE"} {
		t.Run(how+"-during-bgsave-without-saving", func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			save := ""
			if how == "NOSAVE" {
				save = "3600 1"
			}
			srv := restart(t, dir, "--save", save, "--rdb-key-save-delay", saveDelay(1000))
			c := srv.RawConn(t)
			expectStatus(t, "DEBUG POPULATE", c.Do("DEBUG", "POPULATE", "1000"), "+OK")
			expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
			if how == "SIGTERM" {
				markStopping(srv)
				srv.cmd.Process.Signal(syscall.SIGTERM)
				if code := waitExitCode(t, srv); code != 0 {
					t.Errorf("exit status %d after SIGTERM during a BGSAVE, want 0", code)
				}
			} else {
				shutdown(t, srv, "NOSAVE")
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				t.Errorf("%s left in the dir by the abandoned save", e.Name())
			}
		})
	}
	t.Run("save-without-save-points", func(t *testing.T) {
		t.Parallel()
		srv, dir := start(t, "")
		shutdown(t, srv, "SAVE")
		checkDump(t, dir, data)
	})
	t.Run("no-save-points", func(t *testing.T) {
		t.Parallel()
		srv, dir := start(t, "")
		shutdown(t, srv)
		if _, err := os.Stat(filepath.Join(dir, "dump.rdb")); !os.IsNotExist(err) {
			t.Errorf("SHUTDOWN with save \"\" wrote dump.rdb (stat: %v)", err)
		}
	})
	for name, sig := range map[string]syscall.Signal{"SIGTERM": syscall.SIGTERM, "SIGINT": syscall.SIGINT} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, dir := start(t, "3600 1")
			markStopping(srv)
			srv.cmd.Process.Signal(sig)
			if code := waitExitCode(t, srv); code != 0 {
				t.Errorf("exit status %d after %v, want 0", code, sig)
			}
			checkDump(t, dir, data)
			diffData(t, "after the restart", readData(t, restart(t, dir)), data)
		})
	}
}

// TestPersistShutdownSaveFails: when the final save fails (its directory was removed) SHUTDOWN
// answers Redis's error and the server goes on serving; SHUTDOWN FORCE exits all the same.
func TestPersistShutdownSaveFails(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := restart(t, dir, "--save", "3600 1")
	c := srv.RawConn(t)
	expectStatus(t, "SET", c.Do("SET", "k", "v"), "+OK")
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, "SHUTDOWN", c.Do("SHUTDOWN"), "-"+errShutdownSaveFailed)
	expectStatus(t, "SHUTDOWN SAVE", c.Do("SHUTDOWN", "SAVE"), "-"+errShutdownSaveFailed)
	expectStatus(t, "SAVE", c.Do("SAVE"), "-ERR")
	if r := c.Do("GET", "k"); r.Str != "v" {
		t.Errorf("GET k after the failed SHUTDOWN: %s", formatReply(r, false))
	}
	shutdown(t, srv, "FORCE")
}

// TestPersistMisconf: after a failed BGSAVE, with save points and stop-writes-on-bgsave-error
// yes, writes (and PING, as in Redis) answer -MISCONF while reads work; a save that succeeds
// again lifts it. With stop-writes-on-bgsave-error no, writes go on.
func TestPersistMisconf(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := restart(t, dir, "--save", "3600 1", "--enable-protected-configs", "yes")
	c := srv.RawConn(t)
	expectStatus(t, "SET", c.Do("SET", "k", "v"), "+OK")
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
	waitSaved(t, srv)
	if s := srv.Info(t, "persistence")["rdb_last_bgsave_status"]; s != "err" {
		t.Fatalf("rdb_last_bgsave_status:%s after a save into a removed dir, want err", s)
	}
	const misconf = "-MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. " +
		"Commands that may modify the data set are disabled, because this instance is configured to report errors during " +
		"writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error."
	expectStatus(t, "SET after the failed save", c.Do("SET", "k", "w"), misconf)
	expectStatus(t, "DEL after the failed save", c.Do("DEL", "k"), misconf)
	expectStatus(t, "PING after the failed save", c.Do("PING"), misconf)
	if r := c.Do("GET", "k"); r.Str != "v" {
		t.Errorf("GET k: %s, want v", formatReply(r, false))
	}
	expectStatus(t, "CONFIG SET stop-writes-on-bgsave-error no", c.Do("CONFIG", "SET", "stop-writes-on-bgsave-error", "no"), "+OK")
	expectStatus(t, "SET with stop-writes-on-bgsave-error no", c.Do("SET", "k", "w"), "+OK")
	expectStatus(t, "CONFIG SET stop-writes-on-bgsave-error yes", c.Do("CONFIG", "SET", "stop-writes-on-bgsave-error", "yes"), "+OK")
	expectStatus(t, "SET again", c.Do("SET", "k", "x"), misconf)
	// A directory that works again, and a successful save, lift the refusal.
	expectStatus(t, "CONFIG SET dir", c.Do("CONFIG", "SET", "dir", base), "+OK")
	expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
	waitSaved(t, srv)
	expectStatus(t, "SET after a good save", c.Do("SET", "k", "y"), "+OK")
	checkDump(t, base, pdata{pkey{0, "k"}: {"w", -1}})
}

// loadingErr is Redis's reply to a command refused while the dataset loads.
const loadingErr = "-LOADING Redis is loading the dataset in memory"

// startLoading starts a server on dir, whose dump.rdb holds 20,000 keys, with key-load-delay
// making the load last about a second and extra arguments, and returns once the port accepts
// connections and PING on a connection answers -LOADING.
func startLoading(t *testing.T, dir string, extra ...string) (*server, *rawConn) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	// loading-process-events-interval-bytes: redis-server answers clients during loading only
	// every that many bytes read (2 MB by default, more than the file).
	srv := &server{Port: port, Addr: "127.0.0.1:" + strconv.Itoa(port), t: t, out: &syncBuffer{}, done: make(chan struct{})}
	args := append(baseArgs(t, port), "--dir", dir, "--key-load-delay", loadDelay(50), "--loading-process-events-interval-bytes", "1024")
	srv.cmd = exec.Command(serverBin, append(args, extra...)...)
	srv.cmd.Stdout, srv.cmd.Stderr = srv.out, srv.out
	if err := srv.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		srv.exitErr = srv.cmd.Wait()
		close(srv.done)
	}()
	t.Cleanup(srv.cleanup)
	waitFor(t, startTimeout, "the port to accept connections", func() bool {
		conn, err := net.DialTimeout("tcp", srv.Addr, 100*time.Millisecond)
		if err != nil {
			return false
		}
		conn.Close()
		return true
	})
	c := srv.RawConn(t)
	r := c.Do("PING")
	if r.Kind == '+' {
		t.Fatalf("PING answered %s on the first connection: the server served before it loaded, or the load was too quick to observe", formatReply(r, false))
	}
	expectStatus(t, "PING while loading", r, loadingErr)
	return srv, c
}

// TestPersistLoading: while a dump of 20,000 keys loads (key-load-delay makes it last about a
// second), the port answers -LOADING to PING and GET and INFO says loading:1; afterwards every
// key is there and loading:0.
func TestPersistLoading(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	want := pdata{}
	for i := 0; i < 20000; i++ {
		want.set(i%2, fmt.Sprintf("k%05d", i), fmt.Sprintf("v%d", i), -1)
	}
	craftFile(t, filepath.Join(dir, "dump.rdb"), want, true)

	srv, c := startLoading(t, dir)
	expectStatus(t, "GET while loading", c.Do("GET", "k00000"), loadingErr)
	info := c.Do("INFO", "persistence")
	if !strings.Contains(info.Str, "loading:1\r\n") {
		t.Errorf("INFO persistence while loading:\n%s", info.Str)
	}
	waitFor(t, 30*time.Second, "still loading", func() bool { return c.Do("PING").Str == "PONG" })
	if got := srv.Info(t, "persistence")["loading"]; got != "0" {
		t.Errorf("loading:%s after the load", got)
	}
	diffData(t, "after loading", readData(t, srv), want)
	if got := srv.Info(t, "persistence")["rdb_last_load_keys_loaded"]; got != "20000" {
		t.Errorf("rdb_last_load_keys_loaded:%s, want 20000", got)
	}
}

// TestPersistSignalDuringLoading: SIGTERM or SIGINT while the dataset loads exits with status 0
// and, though save points exist, leaves the dump as it was: the partial dataset in memory is
// never saved over it.
func TestPersistSignalDuringLoading(t *testing.T) {
	t.Parallel()
	data := pdata{}
	for i := 0; i < 20000; i++ {
		data.set(0, fmt.Sprintf("k%05d", i), fmt.Sprintf("v%d", i), -1)
	}
	for name, sig := range map[string]syscall.Signal{"SIGTERM": syscall.SIGTERM, "SIGINT": syscall.SIGINT} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "dump.rdb")
			craftFile(t, path, data, true)
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			srv, _ := startLoading(t, dir, "--save", "3600 1")
			markStopping(srv)
			srv.cmd.Process.Signal(sig)
			if code := waitExitCode(t, srv); code != 0 {
				t.Errorf("exit status %d after %s during loading, want 0", code, name)
			}
			if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, orig) {
				t.Errorf("dump.rdb changed by %s during loading (%d bytes, was %d; %v)", name, len(b), len(orig), err)
			}
		})
	}
}

// TestPersistDebugReload: DEBUG RELOAD saves and loads again: OK, and every key, value and
// expire is unchanged; the file it leaves holds them. MERGE is accepted; NOSAVE loads the file
// as it is (a write since is gone), and with no file at all answers Redis's error.
func TestPersistDebugReload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir)
	c := srv.RawConn(t)
	expectStatus(t, "DEBUG RELOAD NOSAVE without a file", c.Do("DEBUG", "RELOAD", "NOSAVE"), "-ERR Error trying to load the RDB dump")
	want := roundTripData()
	writeData(t, c, want)
	expectStatus(t, "DEBUG RELOAD", c.Do("DEBUG", "RELOAD"), "+OK")
	diffData(t, "after DEBUG RELOAD", readData(t, srv), want)
	checkDump(t, dir, want)
	expectStatus(t, "DEBUG RELOAD MERGE", c.Do("DEBUG", "RELOAD", "MERGE"), "+OK")
	diffData(t, "after DEBUG RELOAD MERGE", readData(t, srv), want)
	expectStatus(t, "SET", c.Do("SET", "unsaved", "x"), "+OK")
	expectStatus(t, "DEBUG RELOAD NOSAVE", c.Do("DEBUG", "RELOAD", "NOSAVE"), "+OK")
	diffData(t, "after DEBUG RELOAD NOSAVE", readData(t, srv), want)
	expectStatus(t, "DEBUG RELOAD BADOPTION", c.Do("DEBUG", "RELOAD", "BADOPTION"),
		"-ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.")
}

// TestPersistConfigDirFilename: CONFIG SET dir to a missing directory and dbfilename with a path
// are refused with Redis's replies (after the protected-config check), and a valid dir and
// dbfilename are where SAVE writes.
func TestPersistConfigDirFilename(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir, "--enable-protected-configs", "yes")
	c := srv.RawConn(t)
	expectStatus(t, "CONFIG SET dir missing", c.Do("CONFIG", "SET", "dir", filepath.Join(dir, "missing")),
		"-ERR CONFIG SET failed (possibly related to argument 'dir') - No such file or directory")
	for _, name := range []string{"a/b.rdb", "../b.rdb", "/tmp/b.rdb"} {
		expectStatus(t, "CONFIG SET dbfilename "+name, c.Do("CONFIG", "SET", "dbfilename", name),
			"-ERR CONFIG SET failed (possibly related to argument 'dbfilename') - dbfilename can't be a path, just a filename")
	}
	if got := configGet(t, c, "dbfilename"); got != "dump.rdb" {
		t.Errorf("dbfilename = %q after refused changes", got)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, "CONFIG SET dir", c.Do("CONFIG", "SET", "dir", sub), "+OK")
	expectStatus(t, "CONFIG SET dbfilename", c.Do("CONFIG", "SET", "dbfilename", "other.rdb"), "+OK")
	expectStatus(t, "SET", c.Do("SET", "k", "v"), "+OK")
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")
	file, _ := decodeFile(t, filepath.Join(sub, "other.rdb"))
	diffData(t, "sub/other.rdb", file, pdata{pkey{0, "k"}: {"v", -1}})
	if _, err := os.Stat(filepath.Join(dir, "dump.rdb")); !os.IsNotExist(err) {
		t.Errorf("SAVE wrote the old dir's dump.rdb too (stat: %v)", err)
	}

	// Without enable-protected-configs, both are refused before any check.
	c2 := restart(t, t.TempDir()).RawConn(t)
	expectStatus(t, "CONFIG SET dir (protected)", c2.Do("CONFIG", "SET", "dir", sub),
		"-ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config")
	expectStatus(t, "CONFIG SET dbfilename (protected)", c2.Do("CONFIG", "SET", "dbfilename", "x.rdb"),
		"-ERR CONFIG SET failed (possibly related to argument 'dbfilename') - can't set protected config")
}

// loadRefused runs the server on dir, whose dump.rdb is bad, and expects exit status 1 with a log
// line matching one of words (case-insensitive). Until it exits, every connection it accepts
// must be answered -LOADING or closed: no key of the bad file is ever served.
func loadRefused(t *testing.T, dir string, words ...string) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	cmd := exec.Command(serverBin, append(baseArgs(t, port), "--dir", dir)...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.After(startTimeout)
	var exitErr error
poll:
	for {
		select {
		case exitErr = <-done:
			break poll
		case <-deadline:
			cmd.Process.Kill()
			<-done
			t.Fatalf("server still running %v after start with a bad file; output:\n%s", startTimeout, out.String())
		default:
		}
		if reply := probeGet(addr); reply != "" && !strings.HasPrefix(reply, "-LOADING") {
			t.Errorf("the server answered %q while loading a bad file", reply)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if code := exitCode(exitErr); code != 1 {
		t.Errorf("exit status %d, want 1; output:\n%s", code, out.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		for _, w := range words {
			if strings.Contains(strings.ToLower(line), w) {
				t.Logf("refused: %s", line)
				return
			}
		}
	}
	t.Errorf("no log line naming the problem (one of %q); output:\n%s", words, out.String())
}

// TestPersistRefusedFiles: a dump that is truncated, has a flipped byte (checksum), a wrong
// signature, a version from the future or a type kvserver lacks is refused: exit status 1, a log
// line naming the problem, and never a key served.
func TestPersistRefusedFiles(t *testing.T) {
	t.Parallel()
	data := pdata{}
	for i := 0; i < 2000; i++ {
		data.set(i%2, fmt.Sprintf("key:%04d", i), fmt.Sprintf("value-%04d-%s", i, strings.Repeat("z", 30)), -1)
	}
	good := filepath.Join(t.TempDir(), "good.rdb")
	craftFile(t, good, data, false)
	orig, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		edit  func([]byte) []byte
		words []string
	}{
		{"truncated-half", func(b []byte) []byte { return b[:len(b)/2] },
			[]string{"short read", "truncat", "unexpected end", "unexpected eof"}},
		{"truncated-footer", func(b []byte) []byte { return b[:len(b)-4] },
			[]string{"short read", "truncat", "unexpected end", "unexpected eof"}},
		{"flipped-byte", func(b []byte) []byte {
			i := bytes.Index(b, []byte("value-1000-"))
			b[i+7] ^= 0x01 // value-1000 becomes value-1010: still a valid string, wrong checksum
			return b
		}, []string{"checksum"}},
		{"empty", func(b []byte) []byte { return b[:0] },
			[]string{"short read", "truncat", "unexpected end", "unexpected eof", "empty"}},
		{"unknown-type-no-checksum", func(b []byte) []byte {
			// With the footer zeroed (rdbchecksum no) only the structure can tell: a value type
			// byte of 127, which is no type and no opcode.
			i := bytes.Index(b, []byte("\x00\x08key:1000"))
			b[i] = 0x7f
			clear(b[len(b)-8:])
			return b
		}, []string{"type", "corrupt", "unknown"}},
		{"signature", func(b []byte) []byte { b[4] = 'X'; return b }, []string{"signature", "magic", "not an rdb"}},
		{"version", func(b []byte) []byte { copy(b[5:9], "0099"); return b }, []string{"format version", "version 99", "version 0099"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			b := tc.edit(append([]byte(nil), orig...))
			if err := os.WriteFile(filepath.Join(dir, "dump.rdb"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			loadRefused(t, dir, tc.words...)
		})
	}
	t.Run("database-out-of-range", func(t *testing.T) {
		// SELECTDB 20 with databases 16.
		t.Parallel()
		dir := t.TempDir()
		craftFile(t, filepath.Join(dir, "dump.rdb"), pdata{pkey{0, "a"}: {"1", -1}, pkey{20, "b"}: {"2", -1}}, true)
		loadRefused(t, dir, "database")
	})
	t.Run("duplicate-key", func(t *testing.T) {
		t.Parallel()
		requireKvserver(t, "redis-server panics on a duplicated key")
		dir := t.TempDir()
		f, err := os.Create(filepath.Join(dir, "dump.rdb"))
		if err != nil {
			t.Fatal(err)
		}
		e := rdb.NewEncoder(f)
		e.WriteHeader()
		e.WriteStandardAux("7.2.0", time.Now().Unix(), 1<<20)
		e.SelectDB(0)
		for _, v := range []string{"first", "other", "second"} {
			k := "dup"
			if v == "other" {
				k = "other"
			}
			e.WriteString(rdb.Entry{Key: []byte(k), Value: []byte(v), ExpireMs: -1, Idle: -1, Freq: -1})
		}
		if err := e.Finish(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		loadRefused(t, dir, "duplicate")
	})
	t.Run("stream", func(t *testing.T) {
		t.Parallel()
		requireKvserver(t, "Redis loads streams")
		dir := t.TempDir()
		writeRedisDump(t, dir, "SET a 1", "XADD st * f v", "SET z 2")
		loadRefused(t, dir, "type")
	})
	t.Run("hash-duplicate-field", func(t *testing.T) {
		// A hash-table hash (type 4) naming a field twice: Redis refuses it too ("Duplicate
		// hash fields detected"; 7.0.15 checks a hash within the listpack limits only with
		// sanitize-dump-payload yes, so this one has 601 pairs).
		t.Parallel()
		dir := t.TempDir()
		f, err := os.Create(filepath.Join(dir, "dump.rdb"))
		if err != nil {
			t.Fatal(err)
		}
		e := rdb.NewEncoder(f)
		e.Version = craftVersion()
		e.WriteHeader()
		e.SelectDB(0)
		b := rdb.AppendCollection(nil, rdb.Entry{Key: []byte("h"), ExpireMs: -1, Idle: -1, Freq: -1}, rdb.TypeHash, 601, false)
		for i := range 601 {
			b = rdb.AppendElement(b, []byte(strconv.Itoa(i%600)), false)
			b = rdb.AppendElement(b, []byte("v"), false)
		}
		e.WriteRaw(b)
		if err := e.Finish(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		loadRefused(t, dir, "duplicate")
	})
}

// TestPersistKill9DuringBgsave: a SIGKILL in the middle of a BGSAVE leaves the previous dump
// whole (the save writes a temporary file and renames it when complete): a restart holds the
// data of the last completed save.
func TestPersistKill9DuringBgsave(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "redis-server's forked child finishes the save after its parent is killed")
	dir := t.TempDir()
	srv := restart(t, dir, "--rdb-key-save-delay", saveDelay(1000))
	c := srv.RawConn(t)
	want := pdata{}
	for i := 0; i < 1000; i++ {
		want.set(0, fmt.Sprintf("key:%04d", i), "saved", -1)
	}
	writeData(t, c, want)
	// rdb-key-save-delay slows SAVE as well: about a second.
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")
	later := pdata{}
	for k := range want {
		later.set(k.db, k.key, "not saved", -1)
	}
	writeData(t, c, later)
	expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
	// Kill once the save has written part of its file.
	time.Sleep(300 * time.Millisecond)
	if n := infoInt(t, srv, "persistence", "rdb_bgsave_in_progress"); n != 1 {
		t.Fatalf("the save ended before the kill (rdb_bgsave_in_progress:%d)", n)
	}
	kill9(t, srv)
	diffData(t, "after SIGKILL during BGSAVE and a restart", readData(t, restart(t, dir)), want)
}

// TestPersistRdbOptions: rdbcompression no stores long values as they are and rdbchecksum no
// writes a zero footer, which loading accepts; by default a compressible value is stored with
// LZF and the footer is the CRC-64 of the file.
func TestPersistRdbOptions(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("abc", 100)
	data := pdata{}
	data.set(0, "long", long, -1)
	data.set(0, "short", "x", -1)
	for _, tc := range []struct {
		args              []string
		compress, checked bool
	}{
		{nil, true, true},
		{[]string{"--rdbcompression", "no", "--rdbchecksum", "no"}, false, false},
	} {
		dir := t.TempDir()
		srv := restart(t, dir, tc.args...)
		writeData(t, srv.RawConn(t), data)
		expectStatus(t, "SAVE", srv.RawConn(t).Do("SAVE"), "+OK")
		b, err := os.ReadFile(filepath.Join(dir, "dump.rdb"))
		if err != nil {
			t.Fatal(err)
		}
		if raw := bytes.Contains(b, []byte(long)); raw == tc.compress {
			t.Errorf("%q: the 300-byte value is stored as it is: %v, want %v", tc.args, raw, !tc.compress)
		}
		footer := binary.LittleEndian.Uint64(b[len(b)-8:])
		if want := rdb.CRC64(b[:len(b)-8]); tc.checked && footer != want {
			t.Errorf("%q: footer %016x, want the CRC-64 %016x", tc.args, footer, want)
		}
		if !tc.checked && footer != 0 {
			t.Errorf("%q: footer %016x, want 0", tc.args, footer)
		}
		shutdown(t, srv, "NOSAVE")
		diffData(t, fmt.Sprintf("%q: after a restart", tc.args), readData(t, restart(t, dir)), data)
	}
}

// TestPersistDbfilenameAtStart: --dbfilename names the file loaded at start-up and written by
// SAVE; dump.rdb beside it is ignored.
func TestPersistDbfilenameAtStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mine := pdata{}
	mine.set(0, "from", "my.rdb", -1)
	craftFile(t, filepath.Join(dir, "my.rdb"), mine, true)
	craftFile(t, filepath.Join(dir, "dump.rdb"), pdata{pkey{0, "from"}: {"dump.rdb", -1}}, true)
	srv := restart(t, dir, "--dbfilename", "my.rdb")
	diffData(t, "loaded from --dbfilename my.rdb", readData(t, srv), mine)
	c := srv.RawConn(t)
	expectStatus(t, "SET", c.Do("SET", "more", "x"), "+OK")
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")
	mine.set(0, "more", "x", -1)
	file, _ := decodeFile(t, filepath.Join(dir, "my.rdb"))
	diffData(t, "my.rdb after SAVE", file, mine)
	old, _ := decodeFile(t, filepath.Join(dir, "dump.rdb"))
	diffData(t, "dump.rdb, untouched", old, pdata{pkey{0, "from"}: {"dump.rdb", -1}})
}
