package setfamily

import "github.com/kvserver/kvserver/command"

// Commands returns the @set family's rows: a name and a handler each. Arity, flags, key specs
// and ACL categories come from Redis 7.2's metadata (command.New); every row locks its keys'
// shards (command.LockKeys), SINTERCARD's keys found by its numkeys.
func Commands() []*command.Command {
	return []*command.Command{
		{Name: "sadd", Handler: saddCommand},
		{Name: "srem", Handler: sremCommand},
		{Name: "scard", Handler: scardCommand},
		{Name: "sismember", Handler: sismemberCommand},
		{Name: "smismember", Handler: smismemberCommand},
		{Name: "smembers", Handler: smembersCommand},
		{Name: "spop", Handler: spopCommand},
		{Name: "srandmember", Handler: srandmemberCommand},
		{Name: "smove", Handler: smoveCommand},
		{Name: "sinter", Handler: sinterCommand},
		{Name: "sintercard", Handler: sintercardCommand},
		{Name: "sinterstore", Handler: sinterstoreCommand},
		{Name: "sunion", Handler: sunionCommand},
		{Name: "sunionstore", Handler: sunionstoreCommand},
		{Name: "sdiff", Handler: sdiffCommand},
		{Name: "sdiffstore", Handler: sdiffstoreCommand},
		{Name: "sscan", Handler: sscanCommand},
	}
}
