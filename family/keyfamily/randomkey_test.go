package keyfamily

import (
	"strconv"
	"testing"
)

func TestRandomKeyEmptyAndOne(t *testing.T) {
	wd := newWorld(t)
	wd.conn(t).script(`
RANDOMKEY -> (nil)
SET rk:only v -> OK
RANDOMKEY -> "rk:only"
RANDOMKEY -> "rk:only"
SELECT 1 -> OK
RANDOMKEY -> (nil)
RANDOMKEY x -> (error) ERR wrong number of arguments for 'randomkey' command
`)
}

// TestRandomKeyExpired: RANDOMKEY never returns a key whose time has passed, even when it
// draws a shard that holds nothing else, and removes what it draws; with every key expired it
// answers null.
func TestRandomKeyExpired(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	keys := wd.keysInDistinctShards("lz:", 8)
	for _, k := range keys[:7] {
		c.do("SET " + k + " v PX 1")
	}
	c.do("SET " + keys[7] + " v")
	wd.advance(2)
	for range 20 {
		if got := c.do("RANDOMKEY"); got != strconv.Quote(keys[7]) {
			t.Fatalf("RANDOMKEY: %s, want %q", got, keys[7])
		}
	}
	c.do("DEL " + keys[7])
	for _, k := range keys {
		c.do("SET " + k + " v PX 1")
	}
	wd.advance(2)
	c.script(`
DBSIZE -> (integer) 8
RANDOMKEY -> (nil)
DBSIZE -> (integer) 0
`)
}

// TestRandomKeyDistribution: every key comes up, about as often as the others, whatever its
// shard: the shard is drawn in proportion to its keys.
func TestRandomKeyDistribution(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	// Shard 0 holds 30 keys, shard 1 holds 1: a uniform draw of shards would return the lone
	// key half the time.
	seen := map[string]int{}
	for i := range 30 {
		k := wd.keyInShard("s0:"+strconv.Itoa(i)+":", 0)
		c.do("SET " + k + " v")
		seen[strconv.Quote(k)] = 0
	}
	lone := strconv.Quote(wd.keyInShard("s1:", 1))
	c.do("SET " + lone[1:len(lone)-1] + " v")
	const draws = 3100
	for range draws {
		seen[c.do("RANDOMKEY")]++
	}
	if len(seen) != 31 {
		t.Fatalf("RANDOMKEY returned %d distinct replies, want 31", len(seen))
	}
	// Expected 100 each; the bound is loose enough never to flake.
	if n := seen[lone]; n < 30 || n > 250 {
		t.Errorf("the lone key of shard 1 came %d times in %d draws, want about %d", n, draws, draws/31)
	}
}

// TestRandomKeyShards: RANDOMKEY holds the one shard it draws when no key has an expire, more
// when some do (until a key without one is among them), every shard with keys when all do.
func TestRandomKeyShards(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	if held := randomkeyShards(c.ctx, nil); len(held) != 0 {
		t.Errorf("empty database: holds %v", held)
	}
	keys := wd.keysInDistinctShards("rs:", testShards)
	for _, k := range keys {
		c.do("SET " + k + " v")
	}
	for range 50 {
		if held := randomkeyShards(c.ctx, nil); len(held) != 1 {
			t.Fatalf("no expires: holds %v, want one shard", held)
		}
	}
	for _, k := range keys {
		c.do("PEXPIRE " + k + " 100000")
	}
	if held := randomkeyShards(c.ctx, nil); len(held) != testShards {
		t.Errorf("every key with an expire: holds %v, want every shard", held)
	}
	c.do("PERSIST " + keys[3])
	lone := wd.ks.ShardFor([]byte(keys[3]))
	for range 50 {
		held := randomkeyShards(c.ctx, nil)
		found := false
		for _, s := range held {
			found = found || s == lone
		}
		if !found {
			t.Fatalf("one key without an expire, in shard %d: holds %v", lone, held)
		}
	}
}
