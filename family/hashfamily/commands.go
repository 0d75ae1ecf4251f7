package hashfamily

import "github.com/kvserver/kvserver/command"

// Commands returns the @hash family's rows: a name and a handler each. Arity, flags, key
// positions and ACL categories come from Redis 7.2's metadata (command.New); every row locks
// its key's shard (command.LockKeys).
func Commands() []*command.Command {
	return []*command.Command{
		{Name: "hset", Handler: hsetCommand},
		{Name: "hmset", Handler: hsetCommand},
		{Name: "hsetnx", Handler: hsetnxCommand},
		{Name: "hget", Handler: hgetCommand},
		{Name: "hmget", Handler: hmgetCommand},
		{Name: "hdel", Handler: hdelCommand},
		{Name: "hlen", Handler: hlenCommand},
		{Name: "hstrlen", Handler: hstrlenCommand},
		{Name: "hexists", Handler: hexistsCommand},
		{Name: "hkeys", Handler: hkeysCommand},
		{Name: "hvals", Handler: hvalsCommand},
		{Name: "hgetall", Handler: hgetallCommand},
		{Name: "hincrby", Handler: hincrbyCommand},
		{Name: "hincrbyfloat", Handler: hincrbyfloatCommand},
		{Name: "hrandfield", Handler: hrandfieldCommand},
		{Name: "hscan", Handler: hscanCommand},
	}
}
