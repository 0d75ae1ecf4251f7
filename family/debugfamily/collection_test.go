package debugfamily

import (
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/listval"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/setval"
)

// collectionRows are test commands that make hashes and sets through hashval and setval (the
// hash, set and list families are not this package's): THSET key field value [field value
// ...], TSADD key member [member ...] and TRPUSH key element [element ...], each making the key
// anew.
func collectionRows() []*command.Command {
	return []*command.Command{
		{Name: "thset", Arity: -4, First: 1, Last: 1, Step: 1, Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
			key := ctx.Args.Arg(1)
			sh := ctx.Shard(key)
			a := sh.Arena()
			rec, err := hashval.New(a, key, 0)
			for j := 2; err == nil && j+1 < ctx.Args.Len(); j += 2 {
				_, err = hashval.Set(a, rec, ctx.Args.Arg(j), ctx.Args.Arg(j+1))
			}
			if err == nil {
				_, err = sh.ReplaceFlagsLocked(ctx.DB, key, rec, 0)
			}
			if err != nil {
				ctx.W.Error(err.Error())
				return
			}
			ctx.W.OK()
		}},
		{Name: "tsadd", Arity: -3, First: 1, Last: 1, Step: 1, Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
			key := ctx.Args.Arg(1)
			sh := ctx.Shard(key)
			a := sh.Arena()
			rec, err := setval.New(a, key, ctx.Args.Arg(2), ctx.Args.Len()-2, 0)
			for j := 2; err == nil && j < ctx.Args.Len(); j++ {
				_, err = setval.Add(a, rec, ctx.Args.Arg(j))
			}
			if err == nil {
				_, err = sh.ReplaceFlagsLocked(ctx.DB, key, rec, 0)
			}
			if err != nil {
				ctx.W.Error(err.Error())
				return
			}
			ctx.W.OK()
		}},
		{Name: "trpush", Arity: -3, First: 1, Last: 1, Step: 1, Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
			key := ctx.Args.Arg(1)
			sh := ctx.Shard(key)
			a := sh.Arena()
			rec, err := listval.New(a, key, 0)
			for j := 2; err == nil && j < ctx.Args.Len(); j++ {
				err = listval.PushTail(a, rec, ctx.Args.Arg(j))
			}
			if err == nil {
				_, err = sh.ReplaceFlagsLocked(ctx.DB, key, rec, 0)
			}
			if err != nil {
				ctx.W.Error(err.Error())
				return
			}
			ctx.W.OK()
		}},
		{Name: "tencoding", Arity: 2, First: 1, Last: 1, Step: 1, Locking: command.LockKeys, Handler: func(ctx *command.Ctx) {
			key := ctx.Args.Arg(1)
			sh := ctx.Shard(key)
			h, _ := sh.LookupLocked(ctx.DB, key)
			ctx.W.BulkString(object.EncodingOf(sh.Arena(), h).Name())
		}},
	}
}

// seq returns prefix1 … prefixN, and with values, each followed by valuePrefix<i>.
func seq(n int, prefix, valuePrefix string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(" " + prefix + strconv.Itoa(i))
		if valuePrefix != "" {
			b.WriteString(" " + valuePrefix + strconv.Itoa(i))
		}
	}
	return b.String()
}

// TestCollectionDigestAndObject: DEBUG DIGEST, DIGEST-VALUE and DEBUG OBJECT's encoding and
// serializedlength for hashes and sets, against what redis-server 7.0.15 printed for the same
// data. 7.0.15 has no listpack sets: for a small set of strings the digest (independent of the
// encoding) is compared, and its serializedlength is the listpack's that 7.2 would save.
func TestCollectionDigestAndObject(t *testing.T) {
	wd := newWorld(t)
	wd.tab = command.New(Commands(wd.srv), append(testRows(), collectionRows()...))
	c := wd.conn(t)
	c.script(`
TSADD s a b c -> OK
THSET h f1 v1 f2 v2 -> OK
TSADD si 1 2 3 -> OK
THSET hb` + seq(600, "f", "v") + ` -> OK
TSADD sb` + seq(600, "m", "") + ` -> OK
TSADD sl` + seq(100, "member-long-name-", "") + ` -> OK
TENCODING s -> "listpack"
TENCODING si -> "intset"
TENCODING hb -> "hashtable"
TENCODING sb -> "hashtable"
DEBUG DIGEST-VALUE s h si -> [593c2414786d75446e97f4ea5d4b731f3313da72, 047cc60ea73a34cde6d08a2721a4a26d19ee6570, 2a462a3f51a1db89738ebbeef0c47ce1bbc85246]
DEBUG DIGEST-VALUE hb sb -> [bdf39d8554670e584b06a54941cce1e41c50dd55, 7d6ff6b98f5064474b0942faed72765cf0b7ee79]
DEBUG DIGEST -> 46383c3daf334c2778b4596b36125e702809fb95
`)
	for _, k := range []struct {
		key, enc string
		length   int
	}{
		{"h", "listpack", 24}, {"si", "intset", 15}, {"hb", "hashtable", 5786}, {"sb", "hashtable", 2894},
		// 7.2's listpack of a b c: 4 + 2 header bytes, three 3-byte entries, the end byte.
		{"s", "listpack", 1 + 16},
	} {
		got := c.do("DEBUG OBJECT " + k.key)
		want := "encoding:" + k.enc + " serializedlength:" + strconv.Itoa(k.length) + " "
		if !strings.Contains(got, want) {
			t.Errorf("DEBUG OBJECT %s = %s, want %q in it", k.key, got, want)
		}
	}
}

// TestCollectionMemoryUsage: MEMORY USAGE of a hash or set is what making it cost the shard's
// arena (the record, the listpack or the table and its entries), give or take the key's share
// of the keyspace's table; SAMPLES is accepted and checked as Redis does.
func TestCollectionMemoryUsage(t *testing.T) {
	wd := newWorld(t)
	wd.tab = command.New(Commands(wd.srv), append(testRows(), collectionRows()...))
	c := wd.conn(t)
	for _, cmd := range []string{"THSET hb" + seq(600, "f", "v"), "TSADD sb" + seq(1000, "m", ""), "THSET h a b", "TSADD si 1 2 3"} {
		key := strings.Fields(cmd)[1]
		before := wd.ks.UsedMemory()
		c.do(cmd)
		cost := wd.ks.UsedMemory() - before
		got, err := strconv.ParseInt(strings.TrimPrefix(c.do("MEMORY USAGE "+key+" SAMPLES 0"), "(integer) "), 10, 64)
		if err != nil || got < cost-64 || got > cost+64 {
			t.Errorf("MEMORY USAGE %s = %d (%v), making it cost %d", key, got, err, cost)
		}
	}
	c.script(`
MEMORY USAGE hb SAMPLES -1 -> (error) ERR syntax error
MEMORY USAGE hb SAMPLES x -> (error) ERR value is not an integer or out of range
MEMORY USAGE hb SAMPLES -> (error) ERR syntax error
MEMORY USAGE nokey -> (nil)
`)
}

// TestListDigestAndObject: DEBUG DIGEST-VALUE and DEBUG OBJECT's serializedlength of lists,
// against what redis-server 7.0.15 printed for the same data (its type-18 dump is 7.2's for
// these: no element passes 8 KB, where 7.2 makes a plain node and 7.0.15 does not); with
// rdbcompression no, 7.0.15 printed 140074 for big.
func TestListDigestAndObject(t *testing.T) {
	wd := newWorld(t)
	wd.tab = command.New(Commands(wd.srv), append(testRows(), collectionRows()...))
	c := wd.conn(t)
	var big strings.Builder
	for i := 1; i <= 3000; i++ {
		big.WriteString(" element-number-" + strconv.Itoa(i) + "-xxxxxxxxxxxxxxxxxxxxxxxxx")
	}
	c.script(`
TRPUSH l a b 1 2 3 -> OK
TRPUSH big` + big.String() + ` -> OK
TENCODING l -> "listpack"
TENCODING big -> "quicklist"
DEBUG DIGEST-VALUE l big -> [80f8f8423558105085639fd9272717cdf4d7566e, 54455bc69ea2e9aaa556f734279055e4fcada0dc]
`)
	for _, k := range []struct {
		key    string
		length int
	}{{"l", 22}, {"big", 15757}} {
		got := c.do("DEBUG OBJECT " + k.key)
		if want := " serializedlength:" + strconv.Itoa(k.length) + " "; !strings.Contains(got, want) {
			t.Errorf("DEBUG OBJECT %s = %s, want %q in it", k.key, got, want)
		}
	}
}
