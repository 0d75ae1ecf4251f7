package stringfamily

import (
	"github.com/kvserver/kvserver/command"
)

// Commands returns the @string family's rows. Arity, flags and key positions are those of
// Redis's src/commands/*.json (COMMAND INFO). Every row locks its keys' shards, the default
// (command.LockKeys): MSET's and MSETNX's keys are every other argument (Step 2).
func Commands() []*command.Command {
	const (
		r  = command.ReadOnly
		w  = command.Write
		oo = command.DenyOOM
		f  = command.Fast
		s  = command.CatString
	)
	return []*command.Command{
		{Name: "get", Arity: 2, Flags: r | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: getCommand},
		{Name: "set", Arity: -3, Flags: w | oo, First: 1, Last: 1, Step: 1, Cats: s, Handler: setCommand},
		{Name: "setnx", Arity: 3, Flags: w | oo | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: setnxCommand},
		{Name: "setex", Arity: 4, Flags: w | oo, First: 1, Last: 1, Step: 1, Cats: s, Handler: setexCommand},
		{Name: "psetex", Arity: 4, Flags: w | oo, First: 1, Last: 1, Step: 1, Cats: s, Handler: psetexCommand},
		{Name: "getset", Arity: 3, Flags: w | oo | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: getsetCommand},
		{Name: "getdel", Arity: 2, Flags: w | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: getdelCommand},
		{Name: "getex", Arity: -2, Flags: w | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: getexCommand},
		{Name: "mget", Arity: -2, Flags: r | f, First: 1, Last: -1, Step: 1, Cats: s, Handler: mgetCommand},
		{Name: "mset", Arity: -3, Flags: w | oo, First: 1, Last: -1, Step: 2, Cats: s, Handler: msetCommand},
		{Name: "msetnx", Arity: -3, Flags: w | oo, First: 1, Last: -1, Step: 2, Cats: s, Handler: msetnxCommand},
		{Name: "append", Arity: 3, Flags: w | oo | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: appendCommand},
		{Name: "strlen", Arity: 2, Flags: r | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: strlenCommand},
		{Name: "incr", Arity: 2, Flags: w | oo | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: incrCommand},
		{Name: "decr", Arity: 2, Flags: w | oo | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: decrCommand},
		{Name: "incrby", Arity: 3, Flags: w | oo | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: incrbyCommand},
		{Name: "decrby", Arity: 3, Flags: w | oo | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: decrbyCommand},
		{Name: "incrbyfloat", Arity: 3, Flags: w | oo | f, First: 1, Last: 1, Step: 1, Cats: s, Handler: incrbyfloatCommand},
		{Name: "getrange", Arity: 4, Flags: r, First: 1, Last: 1, Step: 1, Cats: s, Handler: getrangeCommand},
		{Name: "substr", Arity: 4, Flags: r, First: 1, Last: 1, Step: 1, Cats: s, Handler: getrangeCommand},
		{Name: "setrange", Arity: 4, Flags: w | oo, First: 1, Last: 1, Step: 1, Cats: s, Handler: setrangeCommand},
	}
}
