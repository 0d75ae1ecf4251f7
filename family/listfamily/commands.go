package listfamily

import "github.com/kvserver/kvserver/command"

// Commands returns the @list family's rows: a name and a handler each. Arity, flags, key specs
// and ACL categories come from Redis 7.2's metadata (command.New); every row locks its keys'
// shards (command.LockKeys), LMPOP's and BLMPOP's keys found by their numkeys.
func Commands() []*command.Command {
	return []*command.Command{
		{Name: "lpush", Handler: lpushCommand},
		{Name: "rpush", Handler: rpushCommand},
		{Name: "lpushx", Handler: lpushxCommand},
		{Name: "rpushx", Handler: rpushxCommand},
		{Name: "linsert", Handler: linsertCommand},
		{Name: "lset", Handler: lsetCommand},
		{Name: "lpop", Handler: lpopCommand},
		{Name: "rpop", Handler: rpopCommand},
		{Name: "lmpop", Handler: lmpopCommand},
		{Name: "blpop", Handler: blpopCommand},
		{Name: "brpop", Handler: brpopCommand},
		{Name: "blmpop", Handler: blmpopCommand},
		{Name: "llen", Handler: llenCommand},
		{Name: "lrange", Handler: lrangeCommand, InlineIf: command.SmallRange(2)},
		{Name: "lindex", Handler: lindexCommand},
		{Name: "lpos", Handler: lposCommand},
		{Name: "lrem", Handler: lremCommand},
		{Name: "ltrim", Handler: ltrimCommand},
		{Name: "lmove", Handler: lmoveCommand},
		{Name: "rpoplpush", Handler: rpoplpushCommand},
		{Name: "blmove", Handler: blmoveCommand},
		{Name: "brpoplpush", Handler: brpoplpushCommand},
	}
}
