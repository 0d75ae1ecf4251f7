package tests

import (
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kvserver/kvserver/listpack"
	"github.com/kvserver/kvserver/rdb"
)

// Lists through RDB files and DUMP/RESTORE end to end (issue 21): DEBUG RELOAD and
// BGSAVE+restart in kvserver, and both directions with redis-server 7.0.15. A list's contents
// are read back from the server's own DUMP (decoded here: elements and node shapes), so these
// tests need no list command; where LRANGE answers, it must agree. 7.0.15 calls every list
// "quicklist" and makes plain nodes only past DEBUG QUICKLIST-PACKED-THRESHOLD; Redis 7.2's
// rules (a small single node is "listpack", elements over 8 KB are plain nodes) are kvserver's.

// plNode is one node of a list payload: a plain node's element, or a packed node's elements.
type plNode struct {
	plain bool
	elems []string
}

// plList is a list of the data set: its nodes and its encoding in kvserver and in 7.0.15.
type plList struct {
	key        string
	nodes      []plNode
	enc, enc70 string
	expire     bool
}

func seqOf(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

func listData() []plList {
	big := strings.Repeat("0123456789", 1000)
	return []plList{
		{key: "l:small", nodes: []plNode{{elems: []string{"a", "1", "-300", "", "hello", "9223372036854775807"}}}, enc: "listpack", enc70: "quicklist"},
		{key: "l:exp", nodes: []plNode{{elems: []string{"v"}}}, enc: "listpack", enc70: "quicklist", expire: true},
		{key: "l:nodes", nodes: []plNode{{elems: seqOf("element-", 400)}, {elems: seqOf("x", 3)}, {elems: seqOf("element-", 500)}}, enc: "quicklist", enc70: "quicklist"},
		{key: "l:plain", nodes: []plNode{{elems: seqOf("a", 10)}, {plain: true, elems: []string{big}}, {elems: seqOf("b", 5)}}, enc: "quicklist", enc70: "quicklist"},
		{key: "l:plainonly", nodes: []plNode{{plain: true, elems: []string{big + "!"}}}, enc: "quicklist", enc70: "quicklist"},
	}
}

// payload is l's DUMP payload (RDB version 11) as Redis 7.2 writes it.
func (l plList) payload() string {
	b := rdb.AppendDumpHead(nil, rdb.TypeListQuicklist2, uint64(len(l.nodes)))
	for _, n := range l.nodes {
		if n.plain {
			b = rdb.AppendListNode(b, []byte(n.elems[0]), true, true)
			continue
		}
		lp := listpack.NewSlice(0)
		for _, e := range n.elems {
			lp, _ = listpack.AppendSlice(lp, []byte(e))
		}
		b = rdb.AppendListNode(b, lp, false, true)
	}
	return string(rdb.FinishDump(b))
}

// shape is a list's node shapes as listState writes them: entry counts, "P" for a plain node.
func (l plList) shape() string {
	var s []string
	for _, n := range l.nodes {
		if n.plain {
			s = append(s, "P")
		} else {
			s = append(s, strconv.Itoa(len(n.elems)))
		}
	}
	return strings.Join(s, "|")
}

func (l plList) elems() []string {
	var out []string
	for _, n := range l.nodes {
		out = append(out, n.elems...)
	}
	return out
}

// dumpedList reads key's list from the server's DUMP: its elements and node shapes.
func dumpedList(t testing.TB, c *rawConn, key string) ([]string, string) {
	t.Helper()
	r := c.Do("DUMP", key)
	if r.Kind != '$' {
		t.Fatalf("DUMP %s: %s", key, formatReply(r, false))
	}
	d, ent, err := rdb.OpenDump([]byte(r.Str))
	if err != nil || ent.Type != rdb.TypeListQuicklist2 {
		t.Fatalf("DUMP %s: %v, type %d", key, err, ent.Type)
	}
	var elems, shape []string
	for {
		node, plain, err := d.NextNode()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("DUMP %s: %v", key, err)
		}
		if plain {
			elems = append(elems, string(node))
			shape = append(shape, "P")
			continue
		}
		for p := listpack.First(node); p >= 0; p = listpack.Next(node, p) {
			elems = append(elems, string(listpack.AppendValue(nil, node, p)))
		}
		shape = append(shape, strconv.Itoa(listpack.Len(node)))
	}
	return elems, strings.Join(shape, "|")
}

// listState is key's encoding, expire time, node shapes and elements (clipped) as one line, read
// from DUMP; it also checks LRANGE against DUMP where the server has LRANGE.
func listState(t testing.TB, c *rawConn, key string) string {
	t.Helper()
	elems, shape := dumpedList(t, c, key)
	if r := c.Do("LRANGE", key, "0", "-1"); r.Kind == '*' {
		var got []string
		for _, e := range r.Elems {
			got = append(got, e.Str)
		}
		if !slices.Equal(got, elems) {
			t.Errorf("%s: LRANGE has %d elements, DUMP %d", key, len(got), len(elems))
		}
	}
	return fmt.Sprintf("%s@%d [%s]: %s", c.Do("OBJECT", "ENCODING", key).Str, c.Do("PEXPIRETIME", key).Int,
		shape, clip(strings.Join(elems, ",")))
}

// wantListState is what listState reads for l with encoding enc; shape "" for any.
func wantListState(l plList, enc, shape string, expireAt int64) string {
	exp := int64(-1)
	if l.expire {
		exp = expireAt
	}
	return fmt.Sprintf("%s@%d [%s]: %s", enc, exp, shape, clip(strings.Join(l.elems(), ",")))
}

// restoreLists writes lists with RESTORE of their payloads (version 10 for redis-server).
func restoreLists(t testing.TB, c *rawConn, lists []plList, expireAt int64, v10 bool) {
	t.Helper()
	for _, l := range lists {
		p := l.payload()
		if v10 {
			p = dumpVersion10(p)
		}
		args := []string{"RESTORE", l.key, "0", p}
		if l.expire {
			args = []string{"RESTORE", l.key, strconv.FormatInt(expireAt, 10), p, "ABSTTL"}
		}
		expectStatus(t, "RESTORE "+l.key, c.Do(args...), "+OK")
	}
}

// checkLists compares every list with its expected state: kvserver's encodings (v70 false) or
// 7.0.15's, the nodes as written.
func checkLists(t testing.TB, what string, c *rawConn, lists []plList, prefix string, expireAt int64, v70 bool) {
	t.Helper()
	for _, l := range lists {
		enc := l.enc
		if v70 {
			enc = l.enc70
		}
		if got, want := listState(t, c, prefix+l.key), wantListState(l, enc, l.shape(), expireAt); got != want {
			t.Errorf("%s: %s: got %.120s, want %.120s", what, prefix+l.key, got, want)
		}
	}
}

// TestPersistListReload: DEBUG RELOAD and BGSAVE followed by a restart keep every list, its
// nodes, its encoding and its expire; DUMP gives the same bytes throughout (against
// redis-server, 7.0.15's encodings).
func TestPersistListReload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir)
	c := srv.RawConn(t)
	lists := listData()
	expireAt := time.Now().Add(time.Hour).UnixMilli()
	restoreLists(t, c, lists, expireAt, targetRedis)
	checkLists(t, "restored", c, lists, "", expireAt, targetRedis)
	// Lists RPUSH builds (with a plain node in kvserver: an element over 8 KB), where the list
	// commands exist: their state before is their state after.
	pushed := map[string]string{}
	if c.Do("RPUSH", "p:probe", "x").Kind == ':' {
		c.Do("DEL", "p:probe")
		for _, l := range rpushData() {
			if l.compress {
				continue
			}
			for i := 0; i < len(l.elems); i += 200 {
				c.Do(append([]string{"RPUSH", l.key}, l.elems[i:min(i+200, len(l.elems))]...)...)
			}
			pushed[l.key] = listState(t, c, l.key)
		}
		if !targetRedis && !strings.Contains(pushed["r:plain"], "quicklist@-1 [10|P|5]") {
			t.Errorf("RPUSH of an element over 8 KB: %.60s", pushed["r:plain"])
		}
	}
	t.Logf("%d lists made by RPUSH", len(pushed))
	dumps := map[string]string{}
	for _, l := range lists {
		dumps[l.key] = c.Do("DUMP", l.key).Str
	}
	sameDumps := func(what string) {
		for _, l := range lists {
			if got := c.Do("DUMP", l.key).Str; got != dumps[l.key] {
				t.Errorf("%s: DUMP %s changed", what, l.key)
			}
		}
		for key, want := range pushed {
			if got := listState(t, c, key); got != want {
				t.Errorf("%s: %s: got %.120s, want %.120s", what, key, got, want)
			}
		}
	}
	expectStatus(t, "DEBUG RELOAD", c.Do("DEBUG", "RELOAD"), "+OK")
	checkLists(t, "after DEBUG RELOAD", c, lists, "", expireAt, targetRedis)
	sameDumps("after DEBUG RELOAD")
	expectStatus(t, "BGSAVE", c.Do("BGSAVE"), "+Background saving started")
	waitSaved(t, srv)
	shutdown(t, srv, "NOSAVE")
	srv = restart(t, dir)
	c = srv.RawConn(t)
	checkLists(t, "after BGSAVE and restart", c, lists, "", expireAt, targetRedis)
	sameDumps("after BGSAVE and restart")
	if got := srv.Info(t, "persistence")["rdb_last_load_keys_loaded"]; !targetRedis && got != strconv.Itoa(len(lists)+len(pushed)) {
		t.Errorf("rdb_last_load_keys_loaded:%s, want %d", got, len(lists)+len(pushed))
	}
	// DUMP and RESTORE in the server: the same again.
	for _, l := range lists {
		expectStatus(t, "RESTORE", c.Do("RESTORE", "copy:"+l.key, "0", dumps[l.key]), "+OK")
	}
	for i := range lists {
		lists[i].expire = false
	}
	checkLists(t, "restored from DUMP", c, lists, "copy:", expireAt, targetRedis)
}

// rpushList is a list TestPersistListInteropFromRedis writes into redis-server with RPUSH:
// plain nodes past DEBUG QUICKLIST-PACKED-THRESHOLD 8193 (as 7.2's 8 KB limit makes them), and a
// list kept compressed (list-compress-depth 1).
type rpushList struct {
	key        string
	elems      []string
	enc, shape string // in kvserver (Redis 7.2); "" shape: any
	compress   bool
}

func rpushData() []rpushList {
	big := strings.Repeat("0123456789", 1000)
	return []rpushList{
		{key: "r:small", elems: []string{"a", "1", "-300", "", "hello"}, enc: "listpack", shape: "5"},
		{key: "r:big", elems: seqOf("element-", 3000), enc: "quicklist"},
		{key: "r:plain", elems: slices.Concat(seqOf("a", 10), []string{big}, seqOf("b", 5)), enc: "quicklist", shape: "10|P|5"},
		{key: "r:comp", elems: slices.Concat(seqOf("compressible-compressible-", 3000), []string{strings.Repeat("ab", 6000)}, seqOf("c", 2000)), enc: "quicklist", compress: true},
	}
}

// TestPersistListInteropFromRedis: redis-server 7.0.15's dump and DUMP payloads of lists (small,
// many nodes, a plain node, nodes kept LZF-compressed) load in kvserver with the same elements
// and nodes, in Redis 7.2's encodings.
func TestPersistListInteropFromRedis(t *testing.T) {
	t.Parallel()
	rdir := t.TempDir()
	r := startRedisOn(t, rdir, "--enable-debug-command", "yes")
	rc := r.RawConn(t)
	expectStatus(t, "threshold", rc.Do("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "8193"), "+OK")
	lists := rpushData()
	shapes, payloads := map[string]string{}, map[string]string{}
	for _, l := range lists {
		if l.compress {
			expectStatus(t, "compress depth", rc.Do("CONFIG", "SET", "list-compress-depth", "1"), "+OK")
		}
		for i := 0; i < len(l.elems); i += 200 {
			if rep := rc.Do(append([]string{"RPUSH", l.key}, l.elems[i:min(i+200, len(l.elems))]...)...); rep.Kind == '-' {
				t.Fatalf("RPUSH %s: %s", l.key, rep.Str)
			}
		}
		elems, shape := dumpedList(t, rc, l.key)
		if !slices.Equal(elems, l.elems) {
			t.Fatalf("redis-server %s: %d elements", l.key, len(elems))
		}
		shapes[l.key], payloads[l.key] = shape, rc.Do("DUMP", l.key).Str
	}
	expectStatus(t, "redis-server SAVE", rc.Do("SAVE"), "+OK")
	shutdown(t, r, "NOSAVE")

	dir := t.TempDir()
	copyDump(t, rdir, dir, false)
	srv := restart(t, dir)
	c := srv.RawConn(t)
	check := func(what, prefix string) {
		for _, l := range lists {
			enc, shape := l.enc, l.shape
			if targetRedis {
				enc = "quicklist"
			}
			if shape == "" {
				shape = shapes[l.key] // the nodes as redis-server made them
			}
			want := fmt.Sprintf("%s@-1 [%s]: %s", enc, shape, clip(strings.Join(l.elems, ",")))
			if got := listState(t, c, prefix+l.key); got != want {
				t.Errorf("%s: %s: got %.120s, want %.120s", what, l.key, got, want)
			}
		}
	}
	check("kvserver on redis-server's dump", "")
	for _, l := range lists {
		expectStatus(t, "RESTORE of redis-server's DUMP", c.Do("RESTORE", "d:"+l.key, "0", payloads[l.key]), "+OK")
	}
	check("kvserver on redis-server's DUMP payloads", "d:")
}

// TestPersistListInteropToRedis: kvserver's dump of lists, set to version 10, passes
// redis-check-rdb and loads in redis-server 7.0.15; kvserver's DUMP payloads RESTORE there;
// both with the same elements and nodes (plain ones included).
func TestPersistListInteropToRedis(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := restart(t, dir)
	c := srv.RawConn(t)
	lists := listData()
	expireAt := time.Now().Add(time.Hour).UnixMilli()
	restoreLists(t, c, lists, expireAt, targetRedis)
	payloads := map[string]string{}
	for _, l := range lists {
		payloads[l.key] = dumpVersion10(c.Do("DUMP", l.key).Str)
	}
	expectStatus(t, "SAVE", c.Do("SAVE"), "+OK")

	rdir := t.TempDir()
	copyDump(t, dir, rdir, true)
	rpath := filepath.Join(rdir, "dump.rdb")
	if check, err := exec.Command("redis-check-rdb", rpath).CombinedOutput(); err != nil || !strings.Contains(string(check), "RDB looks OK") {
		t.Errorf("redis-check-rdb %s: %v\n%s", rpath, err, check)
	}
	r := startRedisOn(t, rdir)
	rc := r.RawConn(t)
	checkLists(t, "redis-server on kvserver's dump", rc, lists, "", expireAt, true)
	for _, l := range lists {
		expectStatus(t, "redis-server RESTORE of kvserver's DUMP", rc.Do("RESTORE", "k:"+l.key, "0", payloads[l.key]), "+OK")
	}
	for i := range lists {
		lists[i].expire = false
	}
	checkLists(t, "redis-server on kvserver's DUMP payloads", rc, lists, "k:", expireAt, true)
}
