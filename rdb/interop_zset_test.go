package rdb

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/listpack"
)

// Sorted sets with redis-server 7.0.15, both ways. 7.0.15 writes them as 7.2 does (type 17 for
// a listpack, type 5 for a skiplist, highest score first) but prints a listpack's non-integral
// scores with "%.17g" (0.10000000000000001 where 7.2 writes 0.1): the same doubles.

// redisZSet is a sorted set the interop tests write: its pairs and whether it is a skiplist in
// Redis (over 128 members or a member over 64 bytes).
type redisZSet struct {
	key      string
	pairs    []zpair
	skiplist bool
}

func redisZSetData() []redisZSet {
	scores := zsetScores()
	var big, bigTies []zpair
	for i := range 1000 {
		big = append(big, zpair{fmt.Sprintf("member:%04d", i), float64(i)/7 - 50})
		bigTies = append(bigTies, zpair{strconv.Itoa(i * 37), float64(i % 3)})
	}
	long := strings.Repeat("x", 65)
	return []redisZSet{
		{key: "z:small", pairs: scores},
		{key: "z:one", pairs: []zpair{{"m", 1.5}}},
		{key: "z:ints", pairs: []zpair{{"1", 1}, {"-5", -5}, {"70000", 70000}, {"9223372036854775807", 1e18}}},
		{key: "z:big", pairs: big, skiplist: true},
		{key: "z:ties", pairs: bigTies, skiplist: true},
		{key: "z:long", pairs: append(slices.Clone(scores[:4]), zpair{long, 2}), skiplist: true},
		{key: "z:bigscores", pairs: append(slices.Clone(scores), big[:200]...), skiplist: true},
	}
}

// zaddRedis writes z into redis-server with ZADD in batches (scores in 17 digits: exact).
func zaddRedis(t *testing.T, rc *respConn, key string, ps []zpair) {
	for i := 0; i < len(ps); i += 200 {
		args := [][]byte{[]byte("ZADD"), []byte(key)}
		for _, p := range ps[i:min(i+200, len(ps))] {
			args = append(args, []byte(strconv.FormatFloat(p.s, 'g', 17, 64)), []byte(p.m))
		}
		if r, bad := rc.do(t, args...).(error); bad {
			t.Fatalf("ZADD %s: %v", key, r)
		}
	}
}

// redisZRange is ZRANGE key 0 -1 WITHSCORES on redis-server, as pairs.
func redisZRange(t *testing.T, rc *respConn, key string) []zpair {
	arr, _ := rc.cmd(t, "ZRANGE", key, "0", "-1", "WITHSCORES").([]any)
	var out []zpair
	for i := 0; i+1 < len(arr); i += 2 {
		s, err := strconv.ParseFloat(string(arr[i+1].([]byte)), 64)
		if err != nil {
			t.Fatalf("%s: score %q", key, arr[i+1])
		}
		out = append(out, zpair{string(arr[i].([]byte)), s})
	}
	return out
}

// samePairs compares pairs by member and score (-0 and 0 alike: Redis 7.0.15 stores a -0
// score as 0).
func samePairs(a, b []zpair) bool {
	return slices.EqualFunc(a, b, func(x, y zpair) bool { return x.m == y.m && x.s == y.s })
}

// zsetPairsOf reads the pairs of a sorted set entry: a listpack's in order, a type-5 set's
// (highest first) reversed.
func zsetPairsOf(t *testing.T, d *Decoder, ent Entry) []zpair {
	var out []zpair
	switch ent.Type {
	case TypeZSetListpack:
		lp := ent.Value
		for p := listpack.First(lp); p >= 0; p = listpack.Next(lp, p) {
			m := string(listpack.AppendValue(nil, lp, p))
			p = listpack.Next(lp, p)
			s, ok := listpackScore(lp, p)
			if !ok {
				t.Fatalf("%s: bad score", ent.Key)
			}
			out = append(out, zpair{m, s})
		}
	case TypeZSet2:
		for {
			m, s, err := d.NextZSetMember()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", ent.Key, err)
			}
			out = append(out, zpair{string(m), s})
		}
		if !slices.IsSortedFunc(out, func(a, b zpair) int { return -cmpPair(a, b) }) {
			t.Errorf("%s: type 5 not written from the highest score down", ent.Key)
		}
		slices.Reverse(out)
	default:
		t.Fatalf("%s: type %d", ent.Key, ent.Type)
	}
	return out
}

func cmpPair(a, b zpair) int {
	switch {
	case a.s < b.s:
		return -1
	case a.s > b.s:
		return 1
	}
	return strings.Compare(a.m, b.m)
}

// Redis's SAVE and DUMP of sorted sets of both encodings decode here: the same members and
// scores, type 17 for a listpack and type 5 for a skiplist.
func TestInteropZSetFromRedis(t *testing.T) {
	dir := t.TempDir()
	rc := startRedis(t, dir)
	sets := redisZSetData()
	for _, z := range sets {
		zaddRedis(t, rc, z.key, z.pairs)
	}
	rc.cmd(t, "PEXPIREAT", "z:one", "4000000000000")
	if r := rc.cmd(t, "SAVE"); r != "OK" {
		t.Fatalf("SAVE: %v", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "dump.rdb"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]zpair{}
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
		if (string(ent.Key) == "z:one") != (ent.ExpireMs == 4_000_000_000_000) {
			t.Errorf("%s: expire %d", ent.Key, ent.ExpireMs)
		}
		z := sets[slices.IndexFunc(sets, func(z redisZSet) bool { return z.key == string(ent.Key) })]
		if wantType := map[bool]byte{false: TypeZSetListpack, true: TypeZSet2}[z.skiplist]; ent.Type != wantType || ent.Len != uint64(len(z.pairs)) {
			t.Errorf("%s: type %d len %d", ent.Key, ent.Type, ent.Len)
		}
		got[string(ent.Key)] = zsetPairsOf(t, d, ent)
	}
	for _, z := range sets {
		want := zsorted(z.pairs)
		if !samePairs(got[z.key], want) || !samePairs(redisZRange(t, rc, z.key), want) {
			t.Errorf("%s: %d pairs decoded, want %d", z.key, len(got[z.key]), len(want))
		}
		if enc := redisEncoding(t, rc, z.key); (enc == "skiplist") != z.skiplist {
			t.Errorf("%s: %v in redis-server", z.key, enc)
		}
		// DUMP: the same pairs.
		p, _ := rc.cmd(t, "DUMP", z.key).([]byte)
		d, ent, err := OpenDump(p)
		if err != nil {
			t.Fatalf("DUMP %s: %v", z.key, err)
		}
		if g := zsetPairsOf(t, d, ent); !samePairs(g, want) {
			t.Errorf("DUMP %s: pairs differ", z.key)
		}
	}
}

// redisEncoding is OBJECT ENCODING key on redis-server.
func redisEncoding(t *testing.T, rc *respConn, key string) string {
	b, _ := rc.cmd(t, "OBJECT", "ENCODING", key).([]byte)
	return string(b)
}

// Our files and DUMP payloads of sorted sets (set to version 10) load in redis-server 7.0.15
// with the same members, scores and encodings (a type-5 set within the limits becomes a
// listpack there, a type-17 one over them a skiplist); a ziplist-era payload (type 12) loads
// there as here; corrupt ones are refused there as here.
func TestInteropZSetToRedis(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not on PATH")
	}
	sets := redisZSetData()
	// Each set in both forms: the form Redis writes it in, and the other.
	type written struct {
		key      string
		pairs    []zpair
		listpack bool
	}
	var all []written
	for _, z := range sets {
		all = append(all, written{z.key, z.pairs, !z.skiplist}, written{z.key + ":other", z.pairs, z.skiplist})
	}
	encode := func(b []byte, w written, ent Entry) []byte {
		if w.listpack {
			return AppendBlob(b, ent, TypeZSetListpack, lpOf(t, zlpElems(w.pairs)...), true)
		}
		return appendZSet2(b, ent, w.pairs, true)
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	e.Version = 10
	e.WriteHeader()
	e.SelectDB(0)
	for i, w := range all {
		ent := listHead(w.key)
		if i == 0 {
			ent.ExpireMs = 4_000_000_000_000
		}
		e.WriteRaw(encode(nil, w, ent))
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
	rc := startRedis(t, dir, "--sanitize-dump-payload", "yes")
	skiplist := func(ps []zpair) bool {
		return len(ps) > 128 || slices.ContainsFunc(ps, func(p zpair) bool { return len(p.m) > 64 })
	}
	for i, w := range all {
		want := zsorted(w.pairs)
		if got := redisZRange(t, rc, w.key); !samePairs(got, want) {
			t.Errorf("file %s: redis has %d pairs, want %d", w.key, len(got), len(want))
		}
		if enc := redisEncoding(t, rc, w.key); (enc == "skiplist") != skiplist(w.pairs) && !(w.listpack && enc == "listpack") {
			t.Errorf("file %s: %v there", w.key, enc)
		}
		if pt := rc.cmd(t, "PEXPIRETIME", w.key); (i == 0) != (pt == int64(4_000_000_000_000)) {
			t.Errorf("file %s: PEXPIRETIME %v", w.key, pt)
		}
		var p []byte
		if w.listpack {
			p = finishDumpVersion(appendString([]byte{TypeZSetListpack}, lpOf(t, zlpElems(w.pairs)...), true), 10)
		} else {
			b := AppendDumpHead(nil, TypeZSet2, uint64(len(w.pairs)))
			for _, q := range slices.Backward(want) {
				b = AppendZSetMember(b, []byte(q.m), q.s, true)
			}
			p = finishDumpVersion(b, 10)
		}
		if r := rc.do(t, []byte("RESTORE"), []byte("r:"+w.key), []byte("0"), p); r != "OK" {
			t.Fatalf("RESTORE %s: %v", w.key, r)
		}
		if got := redisZRange(t, rc, "r:"+w.key); !samePairs(got, want) {
			t.Errorf("RESTORE %s: redis has %d pairs", w.key, len(got))
		}
	}
	// A ziplist-era payload (type 12, as Redis 6.2 wrote it), there and here.
	ps := zsetScores()
	p := finishDumpVersion(appendString([]byte{TypeZSetZiplist}, ziplistOf(zlpElems(ps)...), true), 10)
	if r := rc.do(t, []byte("RESTORE"), []byte("zl"), []byte("0"), p); r != "OK" {
		t.Fatalf("RESTORE of a ziplist: %v", r)
	}
	d, ent, err := OpenDump(p)
	if err != nil || ent.Type != TypeZSetListpack {
		t.Fatalf("ours: %v", err)
	}
	if got, there := zsetPairsOf(t, d, ent), redisZRange(t, rc, "zl"); !samePairs(got, zsorted(ps)) || !samePairs(there, zsorted(ps)) {
		t.Errorf("ziplist: ours %v, redis-server's %v", got, there)
	}
	// Refused there (sanitize-dump-payload yes) as here: a member twice in a listpack, a NaN
	// score in type 5, a member twice in type 5.
	bad := map[string][]byte{
		"lp-dup": finishDumpVersion(appendString([]byte{TypeZSetListpack}, lpOf(t, "a", "1", "a", "2"), true), 10),
		"nan": finishDumpVersion(AppendZSetMember(AppendZSetMember(AppendDumpHead(nil, TypeZSet2, 2),
			[]byte("a"), 1, true), []byte("b"), math.NaN(), true), 10),
		"dup5": finishDumpVersion(AppendZSetMember(AppendZSetMember(AppendDumpHead(nil, TypeZSet2, 2),
			[]byte("a"), 2, true), []byte("a"), 1, true), 10),
		"empty": finishDumpVersion(AppendDumpHead(nil, TypeZSet2, 0), 10),
	}
	for name, p := range bad {
		if r, ok := rc.do(t, []byte("RESTORE"), []byte("bad"), []byte("0"), p).(error); !ok || r.Error() != ErrDumpData.Error() {
			t.Errorf("redis RESTORE of %s: %v", name, r)
		}
		if name == "dup5" {
			continue // a duplicate in type 5 is the loader's to find (persist)
		}
		d, ent, err := OpenDump(p)
		if err == nil {
			_, err = readElems(d, ent)
		}
		if err != ErrDumpData {
			t.Errorf("ours, %s: %v", name, err)
		}
	}
}
