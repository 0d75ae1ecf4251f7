package hashfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/hashval"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/replyerr"
)

// hsetCommand: HSET key field value [field value ...] — the number of new fields; HMSET, the
// same row's other name, answers OK. Both raise `hset`.
func hsetCommand(ctx *command.Ctx) {
	if ctx.Args.Len()%2 == 1 {
		ctx.W.Error(replyerr.WrongArgs(ctx.Cmd.FullName).Error())
		return
	}
	key := ctx.Args.Arg(1)
	added, err := opHSet(ctx, ctx.Shard(key), key, 2)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if ctx.Cmd.Name == "hmset" {
		ctx.W.OK()
		return
	}
	ctx.W.Int(int64(added))
}

// opHSet sets the field,value pairs of the arguments from index from on in key's hash (made if
// missing): hashTypeTryConversion over all of them first, then each pair in order. It returns
// how many fields were new.
func opHSet(ctx *command.Ctx, sh *keyspace.Shard, key []byte, from int) (int, error) {
	rec, err := lookupWriteOrCreate(ctx, sh, key)
	if err != nil {
		return 0, err
	}
	a := sh.Arena()
	n := ctx.Args.Len()
	longest, total := 0, 0
	for i := from; i < n; i++ {
		l := len(ctx.Args.Arg(i))
		longest, total = max(longest, l), total+l
	}
	if err := hashval.TryConversion(a, rec, (n-from)/2, longest, total); err != nil {
		endWrite(ctx, sh, key, rec, false, "")
		return 0, err
	}
	added := 0
	for i := from; i < n; i += 2 {
		ok, err := hashval.Set(a, rec, ctx.Args.Arg(i), ctx.Args.Arg(i+1))
		if err != nil {
			endWrite(ctx, sh, key, rec, i > from, "hset")
			return 0, err
		}
		if ok {
			added++
		}
	}
	endWrite(ctx, sh, key, rec, true, "hset")
	return added, nil
}

// hsetnxCommand: HSETNX key field value — 1 if the field was set, 0 if it existed.
func hsetnxCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	sh := ctx.Shard(key)
	rec, err := lookupWriteOrCreate(ctx, sh, key)
	if err == nil {
		var set bool
		set, err = opHSetNX(ctx, sh, key, rec, ctx.Args.Arg(2), ctx.Args.Arg(3))
		if err == nil {
			ctx.W.Int(b2i(set))
			return
		}
	}
	ctx.W.Error(err.Error())
}

// opHSetNX sets field to value in hash rec of key unless the field exists.
func opHSetNX(ctx *command.Ctx, sh *keyspace.Shard, key []byte, rec alloc.Handle, field, value []byte) (bool, error) {
	a := sh.Arena()
	if hashval.Exists(a, rec, field) {
		return false, nil
	}
	err := hashval.TryConversion(a, rec, 1, max(len(field), len(value)), len(field)+len(value))
	if err == nil {
		_, err = hashval.Set(a, rec, field, value)
	}
	endWrite(ctx, sh, key, rec, err == nil, "hset")
	return err == nil, err
}

// hdelCommand: HDEL key field [field ...] — how many fields were removed; an emptied hash
// deletes its key (`hdel`, then `del`).
func hdelCommand(ctx *command.Ctx) {
	key := ctx.Args.Arg(1)
	deleted, err := opHDel(ctx, ctx.Shard(key), key)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	ctx.W.Int(int64(deleted))
}

// opHDel removes the fields of the arguments from key's hash, stopping when it is empty.
func opHDel(ctx *command.Ctx, sh *keyspace.Shard, key []byte) (int, error) {
	rec, found, err := lookupWrite(ctx, sh, key)
	if !found || err != nil {
		return 0, err
	}
	a := sh.Arena()
	deleted := 0
	for i := 2; i < ctx.Args.Len() && hashval.Len(a, rec) > 0; i++ {
		ok, derr := hashval.Delete(a, rec, ctx.Args.Arg(i))
		if derr != nil {
			err = derr
			break
		}
		if ok {
			deleted++
		}
	}
	if deleted > 0 {
		endWrite(ctx, sh, key, rec, true, "hdel")
	}
	return deleted, err
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
