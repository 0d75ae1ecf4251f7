//go:build kvtestcmds

package server

import (
	"github.com/kvserver/kvserver/command"
)

// testOnlyCommands are commands for the end-to-end tests of failure paths, built only with
// -tags kvtestcmds: KVTEST.PANIC key value writes key and then panics while its shard is
// locked (the pipeline must unlock it, answer an error and poison the shard);
// KVTEST.READPANIC key panics in a read (no poisoning).
func testOnlyCommands() []*command.Command {
	return []*command.Command{
		{Name: "kvtest.panic", Arity: 3, Flags: command.Write, First: 1, Last: 1, Step: 1, Cats: command.CatKeyspace,
			Handler: func(ctx *command.Ctx) {
				key := ctx.Args.Arg(1)
				if err := ctx.SetString(ctx.Shard(key), key, ctx.Args.Arg(2), 0); err != nil {
					ctx.W.Error(err.Error())
					return
				}
				panic("kvtest.panic, a handler failing half-way through a write")
			}},
		{Name: "kvtest.readpanic", Arity: 2, Flags: command.ReadOnly, First: 1, Last: 1, Step: 1, Cats: command.CatKeyspace,
			Handler: func(ctx *command.Ctx) {
				ctx.LookupRead(ctx.Shard(ctx.Args.Arg(1)), ctx.Args.Arg(1))
				panic("kvtest.readpanic, a handler failing in a read")
			}},
	}
}
