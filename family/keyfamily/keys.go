package keyfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/glob"
	"github.com/kvserver/kvserver/object"
)

// keysCommand: KEYS pattern — every key of the database matching the glob pattern, in no
// particular order. As in Redis it sees the whole keyspace at one instant: the pipeline holds
// every shard (LockAll). The keys are written under the locks, as they are found.
func keysCommand(ctx *command.Ctx) {
	d := ctx.W.ArrayDeferred()
	n := opKeys(ctx, ctx.Args.Arg(1), func(key []byte) { ctx.W.Bulk(key) })
	ctx.W.SetArrayLen(d, n)
}

// opKeys calls fn with every key of the client's database that matches pattern, and returns
// how many. The pattern "*" matches every key, the empty one included, without matching. Keys
// whose time has passed are left out (and removed on the way). key is valid only during fn.
func opKeys(ctx *command.Ctx, pattern []byte, fn func(key []byte)) int {
	all := len(pattern) == 1 && pattern[0] == '*'
	n := 0
	for _, i := range ctx.Locked() {
		sh := ctx.ShardAt(i)
		a := sh.Arena()
		for cursor := uint64(0); ; {
			cursor = sh.ScanLocked(ctx.DB, cursor, func(h alloc.Handle) {
				if key := object.Key(a, h); all || glob.Match(pattern, key, false) {
					fn(key)
					n++
				}
			})
			if cursor == 0 {
				break
			}
		}
	}
	return n
}
