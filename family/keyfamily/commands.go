package keyfamily

import (
	"github.com/kvserver/kvserver/command"
)

// Commands returns the family's rows, fresh on each call (command.New finishes them in place).
// Arity, flags, key positions and ACL categories come from Redis 7.2's metadata (command.New);
// the Locking of each row says which shards the pipeline holds while its handler runs.
func Commands() []*command.Command {
	return []*command.Command{
		{Name: "del", Locking: command.LockKeys, Handler: delCommand},
		{Name: "unlink", Locking: command.LockKeys, Handler: unlinkCommand},
		{Name: "exists", Locking: command.LockKeys, Handler: existsCommand},
		{Name: "touch", Locking: command.LockKeys, Handler: touchCommand},
		{Name: "type", Locking: command.LockKeys, Handler: typeCommand},
		{Name: "rename", Locking: command.LockKeys, Handler: renameCommand},
		{Name: "renamenx", Locking: command.LockKeys, Handler: renamenxCommand},
		// COPY … DB n writes another database of the same shards: a key's shard does not
		// depend on the database.
		{Name: "copy", Locking: command.LockKeys, Handler: copyCommand},
		{Name: "move", Locking: command.LockKeys, Handler: moveCommand},
		{Name: "swapdb", Locking: command.LockAll, Handler: swapdbCommand},
		{Name: "randomkey", Locking: command.LockFunc, Shards: randomkeyShards, Handler: randomkeyCommand},
		{Name: "dbsize", Locking: command.LockNone, Handler: dbsizeCommand},
		{Name: "flushdb", Locking: command.LockAll, Handler: flushdbCommand},
		{Name: "flushall", Locking: command.LockAll, Handler: flushallCommand},
		{Name: "object", Subcommands: []*command.Command{
			{Name: "encoding", Locking: command.LockKeys, Handler: objectEncodingCommand},
			{Name: "freq", Locking: command.LockKeys, Handler: objectFreqCommand},
			{Name: "idletime", Locking: command.LockKeys, Handler: objectIdletimeCommand},
			{Name: "refcount", Locking: command.LockKeys, Handler: objectRefcountCommand},
			{Name: "help", Locking: command.LockNone, Handler: objectHelpCommand},
		}},

		{Name: "expire", Locking: command.LockKeys, Handler: expireCommand},
		{Name: "pexpire", Locking: command.LockKeys, Handler: pexpireCommand},
		{Name: "expireat", Locking: command.LockKeys, Handler: expireatCommand},
		{Name: "pexpireat", Locking: command.LockKeys, Handler: pexpireatCommand},
		{Name: "ttl", Locking: command.LockKeys, Handler: ttlCommand},
		{Name: "pttl", Locking: command.LockKeys, Handler: pttlCommand},
		{Name: "expiretime", Locking: command.LockKeys, Handler: expiretimeCommand},
		{Name: "pexpiretime", Locking: command.LockKeys, Handler: pexpiretimeCommand},
		{Name: "persist", Locking: command.LockKeys, Handler: persistCommand},

		{Name: "dump", Locking: command.LockKeys, Handler: dumpCommand},
		{Name: "restore", Locking: command.LockKeys, Handler: restoreCommand},

		{Name: "keys", Locking: command.LockAll, Handler: keysCommand},
		{Name: "scan", Locking: command.LockFunc, Shards: scanShards, Handler: scanCommand},
	}
}
