package stringfamily

import (
	"strconv"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
)

// testCommands are the other families' commands the command files use around the string
// commands (TTL, EXISTS, TYPE, DEL, OBJECT ENCODING, CONFIG SET), reduced to what the files
// need, plus the tests' own: RPUSH makes a record of type list (a string record relabelled:
// enough for WRONGTYPE, nothing reads it as a list), ADVANCE ms moves the fake clock on and
// CLOCK ms sets it, forward only.
func testCommands(h *harness) []*command.Command {
	key := func(name string, arity int, handler command.Handler) *command.Command {
		return &command.Command{Name: name, Arity: arity, Flags: command.ReadOnly, First: 1, Last: 1, Step: 1, Handler: handler}
	}
	keys := func(name string, handler command.Handler) *command.Command {
		return &command.Command{Name: name, Arity: -2, Flags: command.Write, First: 1, Last: -1, Step: 1, Handler: handler}
	}
	return []*command.Command{
		key("ttl", 2, func(ctx *command.Ctx) { ttlGeneric(ctx, false, false) }),
		key("pttl", 2, func(ctx *command.Ctx) { ttlGeneric(ctx, true, false) }),
		key("expiretime", 2, func(ctx *command.Ctx) { ttlGeneric(ctx, false, true) }),
		key("pexpiretime", 2, func(ctx *command.Ctx) { ttlGeneric(ctx, true, true) }),
		key("type", 2, func(ctx *command.Ctx) {
			k := ctx.Args.Arg(1)
			sh := ctx.Shard(k)
			if rec, ok := sh.LookupFlagsLocked(ctx.DB, k, keyspace.LookupNoTouch); ok {
				ctx.W.Simple(object.TypeOf(sh.Arena(), rec).Name())
				return
			}
			ctx.W.Simple("none")
		}),
		keys("exists", func(ctx *command.Ctx) {
			n := 0
			for j := 1; j < ctx.Args.Len(); j++ {
				if _, ok := ctx.Shard(ctx.Args.Arg(j)).LookupLocked(ctx.DB, ctx.Args.Arg(j)); ok {
					n++
				}
			}
			ctx.W.Int(int64(n))
		}),
		keys("del", func(ctx *command.Ctx) {
			n := 0
			for j := 1; j < ctx.Args.Len(); j++ {
				if ctx.Shard(ctx.Args.Arg(j)).DeleteLocked(ctx.DB, ctx.Args.Arg(j)) {
					n++
				}
			}
			ctx.W.Int(int64(n))
		}),
		{Name: "object", Arity: -2, Subcommands: []*command.Command{
			{Name: "encoding", Arity: 3, Flags: command.ReadOnly, First: 2, Last: 2, Step: 1, Handler: func(ctx *command.Ctx) {
				k := ctx.Args.Arg(2)
				sh := ctx.Shard(k)
				rec, ok := sh.LookupFlagsLocked(ctx.DB, k, keyspace.LookupNoTouch)
				if !ok {
					ctx.W.Null()
					return
				}
				ctx.W.BulkString(object.EncodingOf(sh.Arena(), rec).Name())
			}},
		}},
		{Name: "config", Arity: -2, Subcommands: []*command.Command{
			{Name: "set", Arity: 4, Flags: command.Admin, Locking: command.LockNone, Handler: func(ctx *command.Ctx) {
				if err := ctx.Cfg.Set([2]string{string(ctx.Args.Arg(2)), string(ctx.Args.Arg(3))}); err != nil {
					ctx.W.Error(err.Error())
					return
				}
				ctx.W.OK()
			}},
		}},
		{Name: "rpush", Arity: 3, Flags: command.Write, First: 1, Last: 1, Step: 1, Handler: func(ctx *command.Ctx) {
			k := ctx.Args.Arg(1)
			sh := ctx.Shard(k)
			rec, err := object.NewString(sh.Arena(), k, ctx.Args.Arg(2), 0, object.WriteGrow)
			if err == nil {
				err = sh.InsertLocked(ctx.DB, k, rec)
			}
			if err != nil {
				ctx.W.Error(err.Error())
				return
			}
			b := sh.Arena().Bytes(rec, 1)
			b[0] = b[0]&^0xf | byte(object.TypeList) // the type nibble (object.TypeOf)
			ctx.W.Int(1)
		}},
		{Name: "advance", Arity: 2, Locking: command.LockNone, Handler: func(ctx *command.Ctx) {
			ms, _ := conv.String2ll(ctx.Args.Arg(1))
			h.clock.advance(ms)
			ctx.W.OK()
		}},
		{Name: "clock", Arity: 2, Locking: command.LockNone, Handler: func(ctx *command.Ctx) {
			ms, _ := conv.String2ll(ctx.Args.Arg(1))
			if ms < h.clock.now() {
				ctx.W.Error("ERR the clock does not go back")
				return
			}
			h.clock.ms.Store(ms)
			ctx.W.OK()
		}},
	}
}

// ttlGeneric is Redis's ttlGenericCommand, enough for the tests: -2 missing, -1 no expire,
// else the time left (or the expire itself), in ms or rounded to seconds.
func ttlGeneric(ctx *command.Ctx, ms, abs bool) {
	k := ctx.Args.Arg(1)
	sh := ctx.Shard(k)
	rec, ok := ctx.LookupReadFlags(sh, k, keyspace.LookupNoTouch)
	if !ok {
		ctx.W.Int(-2)
		return
	}
	when, has := object.Expire(sh.Arena(), rec)
	if !has {
		ctx.W.Int(-1)
		return
	}
	if !abs {
		when = max(when-ctx.KS.Now(), 0)
	}
	if !ms {
		when = int64((uint64(when) + 500) / 1000)
	}
	ctx.W.Int(when)
}

// itoa is strconv.Itoa for the tests' command lines.
func itoa(n int) string { return strconv.Itoa(n) }
