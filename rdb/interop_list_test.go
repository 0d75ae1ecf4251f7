package rdb

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Lists with redis-server 7.0.15, both ways. 7.0.15 writes every list as type 18 too (it has no
// listpack-encoded list, but a small list is one packed node there as in 7.2). It makes a plain
// node only for an element over its packed threshold (1 GB unless DEBUG
// QUICKLIST-PACKED-THRESHOLD lowers it; 7.2 uses the node size limit, 8 KB by default), and
// saves a node list-compress-depth keeps compressed as its LZF bytes.

// redisList is a list the test writes into redis-server: its elements and the configuration
// in force when it is written.
type redisList struct {
	key       string
	elems     []string
	expire    bool
	threshold bool // written after DEBUG QUICKLIST-PACKED-THRESHOLD 8193: elements over 8 KB are plain nodes
	compress  bool // written under list-compress-depth 1
}

func redisListData() []redisList {
	big := strings.Repeat("0123456789", 1000) // 10 KB
	repeats := strings.Repeat("ab", 6000)     // 12 KB, compressible
	return []redisList{
		{key: "l:small", elems: []string{"a", "1", "-300", "", "hello", "9223372036854775807", "-9223372036854775808", "123456789012"}},
		{key: "l:exp", elems: []string{"v"}, expire: true},
		{key: "l:big", elems: elemsOf("element-", 3000)},
		{key: "l:bigpacked", elems: []string{big}},
		{key: "l:plain", elems: slices.Concat(elemsOf("a", 10), []string{big}, elemsOf("b", 5), []string{repeats}), threshold: true},
		{key: "l:plainonly", elems: []string{big}, threshold: true},
		{key: "l:comp", elems: slices.Concat(elemsOf("compressible-compressible-compressible-", 2000), []string{repeats}, elemsOf("c", 3000)), threshold: true, compress: true},
	}
}

// pushRedis writes l into redis-server with RPUSH in batches.
func pushRedis(t *testing.T, rc *respConn, l redisList, expireAt int64) {
	for i := 0; i < len(l.elems); i += 200 {
		args := [][]byte{[]byte("RPUSH"), []byte(l.key)}
		for _, e := range l.elems[i:min(i+200, len(l.elems))] {
			args = append(args, []byte(e))
		}
		if r, bad := rc.do(t, args...).(error); bad {
			t.Fatalf("RPUSH %s: %v", l.key, r)
		}
	}
	if l.expire {
		rc.cmd(t, "PEXPIREAT", l.key, strconv.FormatInt(expireAt, 10))
	}
}

// redisRange is LRANGE key 0 -1 on redis-server.
func redisRange(t *testing.T, rc *respConn, key string) []string {
	arr, _ := rc.cmd(t, "LRANGE", key, "0", "-1").([]any)
	out := make([]string, len(arr))
	for i, e := range arr {
		out[i] = string(e.([]byte))
	}
	return out
}

var qlNodes = regexp.MustCompile(`ql_nodes:(\d+)`)

// redisNodes is the node count DEBUG OBJECT reports for a list.
func redisNodes(t *testing.T, rc *respConn, key string) int {
	s, _ := rc.cmd(t, "DEBUG", "OBJECT", key).(string)
	m := qlNodes.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("DEBUG OBJECT %s: %q", key, s)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// Redis's SAVE and DUMP of lists of every shape decode here: the same elements, the same nodes
// (plain ones included), compressed nodes read.
func TestInteropListFromRedis(t *testing.T) {
	dir := t.TempDir()
	// rdbcompression no: the only LZF strings in the file are the nodes kept compressed.
	rc := startRedis(t, dir, "--enable-debug-command", "yes", "--rdbcompression", "no")
	expireAt := int64(4_000_000_000_000)
	lists := redisListData()
	for _, l := range lists {
		if l.threshold {
			rc.cmd(t, "DEBUG", "QUICKLIST-PACKED-THRESHOLD", "8193")
		}
		if l.compress {
			rc.cmd(t, "CONFIG", "SET", "list-compress-depth", "1")
		}
		pushRedis(t, rc, l, expireAt)
	}
	if r := rc.cmd(t, "SAVE"); r != "OK" {
		t.Fatalf("SAVE: %v", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "dump.rdb"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte{containerPacked, lenEnc<<6 | encLZF}) {
		t.Error("no compressed packed node in redis-server's file")
	}
	byKey := map[string][]testNode{}
	d := NewDecoder(bytes.NewReader(data))
	d.ReuseBuffers = true
	for {
		ent, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if ent.Type != TypeListQuicklist2 {
			t.Fatalf("%s: type %d", ent.Key, ent.Type)
		}
		if (string(ent.Key) == "l:exp") != (ent.ExpireMs == expireAt) {
			t.Errorf("%s: expire %d", ent.Key, ent.ExpireMs)
		}
		nodes, err := readNodes(d, ent)
		if err != nil {
			t.Fatalf("%s: %v", ent.Key, err)
		}
		byKey[string(ent.Key)] = nodes
	}
	for _, l := range lists {
		nodes, ok := byKey[l.key]
		if !ok {
			t.Errorf("%s missing", l.key)
			continue
		}
		var elems []string
		plain := 0
		for _, n := range nodes {
			elems = append(elems, n.elems...)
			if n.plain {
				plain++
			}
		}
		if !slices.Equal(elems, l.elems) || !slices.Equal(redisRange(t, rc, l.key), l.elems) {
			t.Errorf("%s: %d elements decoded, want %d", l.key, len(elems), len(l.elems))
		}
		if want := redisNodes(t, rc, l.key); len(nodes) != want {
			t.Errorf("%s: %d nodes, redis-server has %d", l.key, len(nodes), want)
		}
		if wantPlain := l.threshold && slices.ContainsFunc(l.elems, func(e string) bool { return len(e) > 8193 }); wantPlain != (plain > 0) {
			t.Errorf("%s: %d plain nodes", l.key, plain)
		}
		// DUMP: the same nodes.
		p, _ := rc.cmd(t, "DUMP", l.key).([]byte)
		d, ent, err := OpenDump(p)
		if err != nil {
			t.Fatalf("DUMP %s: %v", l.key, err)
		}
		if got, err := readNodes(d, ent); err != nil || !sameNodes(got, nodes) {
			t.Errorf("DUMP %s: nodes differ from the file's (%v)", l.key, err)
		}
	}
}

// Our files and DUMP payloads of lists (set to version 10) load in redis-server 7.0.15 with the
// same elements and nodes; a corrupt node is refused there as here.
func TestInteropListToRedis(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not on PATH")
	}
	ds := listDataset()
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range ds {
			if !yield(k) {
				return
			}
		}
	})
	dir := t.TempDir()
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	e.Version = 10
	e.WriteHeader()
	e.SelectDB(0)
	for i, k := range keys {
		ent := listHead(k)
		if i == 0 {
			ent.ExpireMs = 4_000_000_000_000
		}
		e.WriteRaw(appendList(t, nil, ent, ds[k], true))
	}
	if err := e.Finish(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "dump.rdb")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if check, err := exec.LookPath("redis-check-rdb"); err == nil {
		if out, err := exec.Command(check, file).CombinedOutput(); err != nil {
			t.Fatalf("redis-check-rdb: %v\n%s", err, out)
		}
	}
	rc := startRedis(t, dir, "--enable-debug-command", "yes")
	flat := func(nodes []testNode) []string {
		var out []string
		for _, n := range nodes {
			out = append(out, n.elems...)
		}
		return out
	}
	for i, k := range keys {
		if got := redisRange(t, rc, k); !slices.Equal(got, flat(ds[k])) {
			t.Errorf("file %s: redis has %d elements, want %d", k, len(got), len(flat(ds[k])))
		}
		if n := redisNodes(t, rc, k); n != len(ds[k]) {
			t.Errorf("file %s: %d nodes there, %d here", k, n, len(ds[k]))
		}
		if pt := rc.cmd(t, "PEXPIRETIME", k); (i == 0) != (pt == int64(4_000_000_000_000)) {
			t.Errorf("file %s: PEXPIRETIME %v", k, pt)
		}
		b := AppendDumpHead(nil, TypeListQuicklist2, uint64(len(ds[k])))
		for _, n := range ds[k] {
			if n.plain {
				b = AppendListNode(b, []byte(n.elems[0]), true, true)
			} else {
				b = AppendListNode(b, lpOf(t, n.elems...), false, true)
			}
		}
		p := finishDumpVersion(b, 10)
		if r := rc.do(t, []byte("RESTORE"), []byte("r:"+k), []byte("0"), p); r != "OK" {
			t.Fatalf("RESTORE %s: %v", k, r)
		}
		if got := redisRange(t, rc, "r:"+k); !slices.Equal(got, flat(ds[k])) {
			t.Errorf("RESTORE %s: redis has %d elements", k, len(got))
		}
	}
	// An empty packed node among others: skipped there as here.
	p := finishDumpVersion(AppendListNode(AppendListNode(AppendDumpHead(nil, TypeListQuicklist2, 2),
		lpOf(t), false, true), lpOf(t, "x"), false, true), 10)
	if r := rc.do(t, []byte("RESTORE"), []byte("holes"), []byte("0"), p); r != "OK" {
		t.Errorf("RESTORE of an empty node: %v", r)
	} else if got := redisRange(t, rc, "holes"); !slices.Equal(got, []string{"x"}) {
		t.Errorf("holes: %q", got)
	}
	// A list with no element: refused there as here.
	p = finishDumpVersion(AppendListNode(AppendDumpHead(nil, TypeListQuicklist2, 1), lpOf(t), false, true), 10)
	if r, ok := rc.do(t, []byte("RESTORE"), []byte("none"), []byte("0"), p).(error); !ok || r.Error() != ErrDumpData.Error() {
		t.Errorf("redis RESTORE of a list without elements: %v", r)
	}
	// A listpack whose header miscounts: refused there (with sanitize-dump-payload yes) as here.
	if r := rc.cmd(t, "CONFIG", "SET", "sanitize-dump-payload", "yes"); r != "OK" {
		t.Fatal(r)
	}
	bad := lpOf(t, "a", "b")
	bad[4] = 3
	p = finishDumpVersion(AppendListNode(AppendDumpHead(nil, TypeListQuicklist2, 1), bad, false, true), 10)
	if r, ok := rc.do(t, []byte("RESTORE"), []byte("bad"), []byte("0"), p).(error); !ok || r.Error() != ErrDumpData.Error() {
		t.Errorf("redis RESTORE of a miscounted listpack: %v", r)
	}
	d, ent, err := OpenDump(p)
	if err == nil {
		_, err = readNodes(d, ent)
	}
	if err != ErrDumpData {
		t.Errorf("ours: %v", err)
	}
	// A container other than 1 and 2: refused there as here.
	p = finishDumpVersion(appendString(appendLen(AppendDumpHead(nil, TypeListQuicklist2, 1), 3), lpOf(t, "a"), true), 10)
	if r, ok := rc.do(t, []byte("RESTORE"), []byte("bad"), []byte("0"), p).(error); !ok || r.Error() != ErrDumpData.Error() {
		t.Errorf("redis RESTORE of container 3: %v", r)
	}
}
