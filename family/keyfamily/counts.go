package keyfamily

import (
	"github.com/kvserver/kvserver/keyspace"
)

// shardKeys is the number of keys of database db in shard i, read WITHOUT the shard's lock: the
// Shards functions of SCAN and RANDOMKEY run before the pipeline takes any lock, to choose what
// it locks. DBSizeLocked reads one atomic counter (what the keyspace's own Keys sums without
// locks), so this is exact for the shard at some instant; keyspace has no unlocked per-shard
// count under another name yet.
func shardKeys(ks *keyspace.Keyspace, i, db int) int64 {
	return ks.Shard(i).DBSizeLocked(db)
}
