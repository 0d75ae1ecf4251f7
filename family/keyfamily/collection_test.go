package keyfamily

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/setval"
)

// collectionRows are test commands that make and read hashes and sets through hashval and
// setval, so that the key commands can be tested on collections without the hash and set
// families: HFILL key n [valuelen] makes a hash of fields f0…f(n-1), SFILL key n a set of
// members m0…, and HLEN / SCARD count them.
func collectionRows() []*command.Command {
	fill := func(hash bool) func(ctx *command.Ctx) {
		return func(ctx *command.Ctx) {
			key := ctx.Args.Arg(1)
			n, _ := strconv.Atoi(string(ctx.Args.Arg(2)))
			vlen := 5
			if ctx.Args.Len() > 3 {
				vlen, _ = strconv.Atoi(string(ctx.Args.Arg(3)))
			}
			sh := ctx.Shard(key)
			a := sh.Arena()
			var rec alloc.Handle
			var err error
			if hash {
				rec, err = hashval.New(a, key, 0)
			} else {
				rec, err = setval.New(a, key, []byte("m0"), n, 0)
			}
			if err != nil {
				ctx.W.Error(err.Error())
				return
			}
			val := []byte(strings.Repeat("v", vlen))
			for i := range n {
				if hash {
					_, err = hashval.Set(a, rec, fmt.Appendf(nil, "f%d", i), val)
				} else {
					_, err = setval.Add(a, rec, fmt.Appendf(nil, "m%d", i))
				}
				if err != nil {
					ctx.W.Error(err.Error())
					return
				}
			}
			if _, err := sh.ReplaceFlagsLocked(ctx.DB, key, rec, 0); err != nil {
				object.Free(a, rec)
				ctx.W.Error(err.Error())
				return
			}
			ctx.W.OK()
		}
	}
	count := func(ctx *command.Ctx) {
		key := ctx.Args.Arg(1)
		sh := ctx.Shard(key)
		h, ok := ctx.LookupRead(sh, key)
		switch {
		case !ok:
			ctx.W.Int(0)
		case object.TypeOf(sh.Arena(), h) == object.TypeHash:
			ctx.W.Int(int64(hashval.Len(sh.Arena(), h)))
		default:
			ctx.W.Int(int64(setval.Len(sh.Arena(), h)))
		}
	}
	row := func(name string, arity int, write bool, fn func(*command.Ctx)) *command.Command {
		flags := command.ReadOnly
		if write {
			flags = command.Write
		}
		return &command.Command{Name: name, Arity: arity, Flags: flags, First: 1, Last: 1, Step: 1,
			Locking: command.LockKeys, Handler: fn}
	}
	return []*command.Command{
		row("hfill", -3, true, fill(true)), row("sfill", 3, true, fill(false)),
		row("hlen", 2, false, count), row("scard", 2, false, count),
	}
}

// newCollectionWorld is newWorld with the collection test rows.
func newCollectionWorld(t *testing.T) *world {
	wd := newWorld(t)
	wd.tab = command.New(Commands(), append(testRows(), collectionRows()...))
	return wd
}

// TestCollectionKeyCommands: TYPE, EXISTS, OBJECT ENCODING, the EXPIRE family, SCAN TYPE,
// RENAME (in a shard and across), RENAMENX, COPY (DB, REPLACE), MOVE and DEL on hashes and
// sets of every encoding; and every shard's arena back to its charge at the start once the
// keys are deleted (no value leaked or freed twice by a rename or a copy).
func TestCollectionKeyCommands(t *testing.T) {
	wd := newCollectionWorld(t)
	c := wd.conn(t)
	base := wd.ks.UsedMemory()
	names := wd.keysInDistinctShards("ck:", 4)
	same := wd.keyInShard("cs:", wd.ks.ShardFor([]byte(names[0])))
	c.script(`
HFILL ` + names[0] + ` 3 -> OK
TYPE ` + names[0] + ` -> hash
OBJECT ENCODING ` + names[0] + ` -> "listpack"
EXISTS ` + names[0] + ` -> (integer) 1
EXPIRE ` + names[0] + ` 100 -> (integer) 1
TTL ` + names[0] + ` -> (integer) 100
RENAME ` + names[0] + ` ` + same + ` -> OK
TYPE ` + same + ` -> hash
HLEN ` + same + ` -> (integer) 3
TTL ` + same + ` -> (integer) 100
EXISTS ` + names[0] + ` -> (integer) 0
RENAME ` + same + ` ` + names[1] + ` -> OK
HLEN ` + names[1] + ` -> (integer) 3
TTL ` + names[1] + ` -> (integer) 100
HFILL big 600 -> OK
OBJECT ENCODING big -> "hashtable"
SFILL ` + names[2] + ` 1000 -> OK
OBJECT ENCODING ` + names[2] + ` -> "hashtable"
RENAMENX big ` + names[2] + ` -> (integer) 0
RENAME big ` + names[2] + ` -> OK
TYPE ` + names[2] + ` -> hash
HLEN ` + names[2] + ` -> (integer) 600
SFILL ints 10 -> OK
OBJECT ENCODING ints -> "listpack"
COPY ints ` + names[3] + ` -> (integer) 1
COPY ints ` + names[3] + ` -> (integer) 0
COPY ` + names[2] + ` ` + names[3] + ` REPLACE -> (integer) 1
TYPE ` + names[3] + ` -> hash
HLEN ` + names[3] + ` -> (integer) 600
COPY ` + names[2] + ` ` + names[2] + `x DB 3 -> (integer) 1
MOVE ` + names[1] + ` 2 -> (integer) 1
SELECT 2 -> OK
HLEN ` + names[1] + ` -> (integer) 3
TTL ` + names[1] + ` -> (integer) 100
DEL ` + names[1] + ` -> (integer) 1
SELECT 3 -> OK
OBJECT ENCODING ` + names[2] + `x -> "hashtable"
SCAN 0 TYPE hash COUNT 1000 -> ["0", ["` + names[2] + `x"]]
DEL ` + names[2] + `x -> (integer) 1
SELECT 0 -> OK
PERSIST ` + names[2] + ` -> (integer) 0
PEXPIREAT ` + names[2] + ` 1 -> (integer) 1
EXISTS ` + names[2] + ` -> (integer) 0
HLEN ` + names[3] + ` -> (integer) 600
DEL ` + names[3] + ` ints -> (integer) 2
DBSIZE -> (integer) 0
`)
	if used := wd.ks.UsedMemory(); used != base {
		t.Fatalf("arenas hold %d bytes after every key is gone, %d at the start", used, base)
	}
}

// TestCollectionScanType: SCAN TYPE set and hash, RANDOMKEY, TYPE and OBJECT find a set.
func TestCollectionScanType(t *testing.T) {
	wd := newCollectionWorld(t)
	c := wd.conn(t)
	c.script(`
SFILL s1 3 -> OK
HFILL h1 3 -> OK
SET str v -> OK
SCAN 0 TYPE set COUNT 1000 -> ["0", ["s1"]]
SCAN 0 TYPE hash COUNT 1000 -> ["0", ["h1"]]
SCAN 0 TYPE string COUNT 1000 -> ["0", ["str"]]
DEL h1 str -> (integer) 2
RANDOMKEY -> "s1"
TYPE s1 -> set
OBJECT ENCODING s1 -> "listpack"
OBJECT REFCOUNT s1 -> (integer) 1
OBJECT FREQ s1 -> (error) ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.
OBJECT IDLETIME s1 -> (integer) 0
`)
}

// TestUnlinkLazyFree: UNLINK of a hash of more than 64 fields kept as a table queues it (the key
// is gone at once, lazyfree pending 1); the cron's steps free it and count it; a small hash, or
// a DEL, frees at once; DEL under lazyfree-lazy-user-del queues; FLUSHALL ASYNC queues every big
// value.
func TestUnlinkLazyFree(t *testing.T) {
	wd := newCollectionWorld(t)
	c := wd.conn(t)
	base := wd.ks.UsedMemory()
	drain := func(pending int64) {
		t.Helper()
		if got := wd.ks.LazyFreePending(); got != pending {
			t.Fatalf("pending %d, want %d", got, pending)
		}
		for wd.ks.LazyFreeStep(1000) {
		}
		if used := wd.ks.UsedMemory(); used != base {
			t.Fatalf("used %d after lazy free, want %d", used, base)
		}
	}
	c.script(`
HFILL big 5000 -> OK
UNLINK big -> (integer) 1
EXISTS big -> (integer) 0
`)
	drain(1)
	if wd.ks.LazyFreed() != 1 {
		t.Fatalf("lazyfreed %d, want 1", wd.ks.LazyFreed())
	}
	c.script(`
HFILL small 64 -> OK
OBJECT ENCODING small -> "listpack"
HFILL wide 2 100 -> OK
OBJECT ENCODING wide -> "hashtable"
UNLINK small wide -> (integer) 2
SFILL big 5000 -> OK
DEL big -> (integer) 1
`)
	drain(0)
	wd.ks.SetLazyFree(keyspace.LazyFreeOptions{UserDel: true})
	c.script(`
SFILL big 5000 -> OK
DEL big -> (integer) 1
`)
	drain(1)
	c.script(`
SFILL a 5000 -> OK
SELECT 1 -> OK
HFILL b 1000 -> OK
SET str v -> OK
FLUSHALL ASYNC -> OK
DBSIZE -> (integer) 0
`)
	drain(2)
	wd.ks.SetLazyFree(keyspace.LazyFreeOptions{UserFlush: true})
	c.script(`
HFILL b 1000 -> OK
FLUSHDB -> OK
`)
	drain(1)
	c.script(`
HFILL b 1000 -> OK
FLUSHDB SYNC -> OK
FLUSHDB ASYNC EXTRA -> (error) ERR syntax error
FLUSHALL LATER -> (error) ERR syntax error
`)
	drain(0)
}
