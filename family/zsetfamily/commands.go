package zsetfamily

import "github.com/kvserver/kvserver/command"

// Commands returns the @sortedset family's rows: a name and a handler each. Arity, flags, key
// specs and ACL categories come from Redis 7.2's metadata (command.New); every row locks its
// keys' shards (command.LockKeys), the numkeys commands' keys found by their numkeys.
func Commands() []*command.Command {
	return []*command.Command{
		{Name: "zadd", Handler: zaddCommand},
		{Name: "zincrby", Handler: zincrbyCommand},
		{Name: "zrem", Handler: zremCommand},
		{Name: "zcard", Handler: zcardCommand},
		{Name: "zcount", Handler: zcountCommand},
		{Name: "zlexcount", Handler: zlexcountCommand},
		{Name: "zscore", Handler: zscoreCommand},
		{Name: "zmscore", Handler: zmscoreCommand},
		{Name: "zrank", Handler: zrankCommand},
		{Name: "zrevrank", Handler: zrevrankCommand},
		{Name: "zrange", Handler: zrangeCommand, InlineIf: command.SmallRange(2, "withscores", "rev")},
		{Name: "zrangestore", Handler: zrangestoreCommand},
		{Name: "zrevrange", Handler: zrevrangeCommand, InlineIf: command.SmallRange(2, "withscores")},
		{Name: "zrangebyscore", Handler: zrangebyscoreCommand},
		{Name: "zrevrangebyscore", Handler: zrevrangebyscoreCommand},
		{Name: "zrangebylex", Handler: zrangebylexCommand},
		{Name: "zrevrangebylex", Handler: zrevrangebylexCommand},
		{Name: "zremrangebyrank", Handler: zremrangebyrankCommand},
		{Name: "zremrangebyscore", Handler: zremrangebyscoreCommand},
		{Name: "zremrangebylex", Handler: zremrangebylexCommand},
		{Name: "zpopmin", Handler: zpopminCommand},
		{Name: "zpopmax", Handler: zpopmaxCommand},
		{Name: "bzpopmin", Handler: bzpopminCommand},
		{Name: "bzpopmax", Handler: bzpopmaxCommand},
		{Name: "zmpop", Handler: zmpopCommand},
		{Name: "bzmpop", Handler: bzmpopCommand},
		{Name: "zrandmember", Handler: zrandmemberCommand},
		{Name: "zunion", Handler: zunionCommand},
		{Name: "zunionstore", Handler: zunionstoreCommand},
		{Name: "zinter", Handler: zinterCommand},
		{Name: "zinterstore", Handler: zinterstoreCommand},
		{Name: "zintercard", Handler: zintercardCommand},
		{Name: "zdiff", Handler: zdiffCommand},
		{Name: "zdiffstore", Handler: zdiffstoreCommand},
		{Name: "zscan", Handler: zscanCommand},
	}
}
