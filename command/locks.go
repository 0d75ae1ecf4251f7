package command

import (
	"slices"
)

// Lock order (DESIGN §4): a client's own lock, then shard locks in ascending index order, then
// the clients' arena lock. The pipeline takes the shard locks of a command in ascending order
// and releases them in descending order, so two commands that need the same shards cannot
// deadlock, and EXEC will be able to take the union of several commands' shards the same way.

// shardsOf appends to dst the shards a command's row declares, ascending and without
// duplicates. It allocates only if dst is too small (the Ctx keeps its slice between commands).
func (p *Pipeline) shardsOf(ctx *Ctx, dst []int) []int {
	cmd := ctx.Cmd
	switch cmd.Locking {
	case LockNone:
		return dst
	case LockAll:
		for i := range p.KS.NumShards() {
			dst = append(dst, i)
		}
		return dst
	case LockFunc:
		dst = cmd.Shards(ctx, dst)
	default: // LockKeys
		dst = appendKeyShards(ctx, dst)
	}
	if len(dst) > 1 {
		slices.Sort(dst)
		dst = slices.Compact(dst)
	}
	return dst
}

// appendKeyShards appends the shard of each key of the command line. A command whose keys move
// with its arguments (Redis's movablekeys: numkeys, keywords, SORT's BY and GET) has them found
// by the code COMMAND GETKEYS uses (GetKeys: the key specs, or the command's key function); a
// malformed line (a bad numkeys) has none and locks nothing, and its handler answers the error.
// Every other command's keys are at its legacy positions (First, Last, Step: Last -1 is the
// last argument, -2 the one before), which Redis derives from the same key specs
// (populateCommandLegacyRangeSpec) — one loop instead of the specs' interpretation, on the
// path of every GET and SET.
func appendKeyShards(ctx *Ctx, dst []int) []int {
	cmd := ctx.Cmd
	if cmd.keysFromSpecs && cmd.movableKeys {
		ctx.keys = GetKeys(cmd.Meta, ctx.Args, ctx.keys[:0])
		for _, k := range ctx.keys {
			dst = append(dst, ctx.KS.ShardFor(ctx.Args.Arg(k.Pos)))
		}
		return dst
	}
	if cmd.First == 0 {
		return dst
	}
	if cmd.First == cmd.Last && cmd.First < ctx.Args.Len() {
		return append(dst, ctx.KS.ShardFor(ctx.Args.Arg(cmd.First))) // one key: GET, SET, INCR …
	}
	argc := ctx.Args.Len()
	last := cmd.Last
	if last < 0 {
		last += argc
	}
	step := max(cmd.Step, 1)
	for i := cmd.First; i <= last && i < argc; i += step {
		dst = append(dst, ctx.KS.ShardFor(ctx.Args.Arg(i)))
	}
	return dst
}

// lock takes the shards' locks in ascending order. Inline it only tries: if one is taken, it
// releases what it took and reports false.
func (p *Pipeline) lock(idx []int, inline bool) bool {
	for n, i := range idx {
		sh := p.KS.Shard(i)
		if !inline {
			sh.Lock()
			continue
		}
		if !sh.TryLock() {
			for j := n - 1; j >= 0; j-- {
				p.KS.Shard(idx[j]).Unlock()
			}
			return false
		}
	}
	return true
}

// unlock releases the command's shards, in descending order, and forgets them.
func (p *Pipeline) unlock(ctx *Ctx) {
	if len(ctx.locked) == 1 {
		p.KS.Shard(ctx.locked[0]).Unlock()
		ctx.locked = ctx.locked[:0]
		return
	}
	for j := len(ctx.locked) - 1; j >= 0; j-- {
		p.KS.Shard(ctx.locked[j]).Unlock()
	}
	ctx.locked = ctx.locked[:0]
}
