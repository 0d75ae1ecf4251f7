package stringfamily

import (
	"github.com/kvserver/kvserver/command"
)

// Commands returns the @string family's rows: a name and a handler each. Arity, flags, key
// positions and ACL categories come from Redis 7.2's metadata (command.New); every row locks
// its keys' shards, the default (command.LockKeys): MSET's and MSETNX's keys are every other
// argument.
func Commands() []*command.Command {
	return []*command.Command{
		{Name: "get", Handler: getCommand},
		{Name: "set", Handler: setCommand},
		{Name: "setnx", Handler: setnxCommand},
		{Name: "setex", Handler: setexCommand},
		{Name: "psetex", Handler: psetexCommand},
		{Name: "getset", Handler: getsetCommand},
		{Name: "getdel", Handler: getdelCommand},
		{Name: "getex", Handler: getexCommand},
		{Name: "mget", Handler: mgetCommand},
		{Name: "mset", Handler: msetCommand},
		{Name: "msetnx", Handler: msetnxCommand},
		{Name: "append", Handler: appendCommand},
		{Name: "strlen", Handler: strlenCommand},
		{Name: "incr", Handler: incrCommand},
		{Name: "decr", Handler: decrCommand},
		{Name: "incrby", Handler: incrbyCommand},
		{Name: "decrby", Handler: decrbyCommand},
		{Name: "incrbyfloat", Handler: incrbyfloatCommand},
		{Name: "getrange", Handler: getrangeCommand},
		{Name: "substr", Handler: getrangeCommand},
		{Name: "setrange", Handler: setrangeCommand},
	}
}
