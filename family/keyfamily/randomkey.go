package keyfamily

import (
	"math/rand/v2"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// RANDOMKEY: a random key of the client's database, the expired ones it draws removed on the
// way; null when the database is empty.
//
// A shard is drawn in proportion to its number of keys, then a key in it (keyspace's
// RandomKeyLocked), as the keyspace's own RandomKey does. The draw of the shard is made before
// any lock, in randomkeyShards, from the counters. A shard may hold only keys whose time has
// passed, which the draw removes, leaving nothing to return: the keyspace's RandomKey then
// draws again, but a handler cannot take another lock. So randomkeyShards holds, besides the
// drawn shard, the shards after it (in ring order) until the shards held have more keys than
// the database has keys with an expire: then at least one held key has no expire and cannot
// have expired, and the handler's draws, repeated among the held shards, find a live key. A
// database without expires (the common case) holds the one drawn shard; one whose every key
// has an expire holds every shard that has keys.
//
// The only miss left is a race: another command empties the held shards between the draw and
// the lock. The handler then answers null, as the keyspace's RandomKey does after randomTries
// empty draws.

// randomTries is the keyspace's bound on the draws of one RANDOMKEY.
const randomTries = 64

// randomkeyCommand: RANDOMKEY.
func randomkeyCommand(ctx *command.Ctx) {
	sh, h, ok := opRandomKey(ctx)
	if !ok {
		ctx.W.Null()
		return
	}
	ctx.W.Bulk(object.Key(sh.Arena(), h))
}

// randomkeyShards is RANDOMKEY's Shards function (see above): the shard drawn in proportion to
// the keys, and the ones after it while the held keys do not outnumber the keys with an
// expire. Nothing for an empty database.
func randomkeyShards(ctx *command.Ctx, dst []int) []int {
	ks, db := ctx.KS, ctx.DB
	total := ks.Keys(db)
	if total == 0 {
		return dst
	}
	n := ks.NumShards()
	r, first := rand.Int64N(total), n-1
	for i := range n {
		if r -= shardKeys(ks, i, db); r < 0 {
			first = i
			break
		}
	}
	volatile := ks.Expires(db)
	var held int64
	for j := range n {
		i := (first + j) % n
		dst = append(dst, i)
		if held += shardKeys(ks, i, db); held > volatile {
			break
		}
	}
	return dst
}

// opRandomKey draws a live key among the held shards: a shard in proportion to its keys (exact,
// under the locks), then a key in it, up to randomTries times. The handle is valid while the
// handler runs.
func opRandomKey(ctx *command.Ctx) (*keyspace.Shard, alloc.Handle, bool) {
	locked := ctx.Locked()
	for range randomTries {
		var total int64
		for _, i := range locked {
			total += ctx.ShardAt(i).DBSizeLocked(ctx.DB)
		}
		if total == 0 {
			return nil, 0, false
		}
		r := rand.Int64N(total)
		for _, i := range locked {
			sh := ctx.ShardAt(i)
			if r -= sh.DBSizeLocked(ctx.DB); r >= 0 {
				continue
			}
			if h, ok := sh.RandomKeyLocked(ctx.DB); ok {
				return sh, h, true
			}
			break
		}
	}
	return nil, 0, false
}
