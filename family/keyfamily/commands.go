package keyfamily

import (
	"github.com/kvserver/kvserver/command"
)

// Short names for the rows below.
const (
	write       = command.Write
	readOnly    = command.ReadOnly
	denyOOM     = command.DenyOOM
	fast        = command.Fast
	catKeyspace = command.CatKeyspace
)

// Commands returns the family's rows, fresh on each call (command.New finishes them in place).
// Arity, flags, key positions and categories are Redis 7.2's, as server/ registered them; the
// Locking of each row says which shards the pipeline holds while its handler runs.
func Commands() []*command.Command {
	return []*command.Command{
		{Name: "del", Arity: -2, Flags: write, First: 1, Last: -1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: delCommand},
		{Name: "unlink", Arity: -2, Flags: write | fast, First: 1, Last: -1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: unlinkCommand},
		{Name: "exists", Arity: -2, Flags: readOnly | fast, First: 1, Last: -1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: existsCommand},
		{Name: "touch", Arity: -2, Flags: readOnly | fast, First: 1, Last: -1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: touchCommand},
		{Name: "type", Arity: 2, Flags: readOnly | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: typeCommand},
		{Name: "rename", Arity: 3, Flags: write, First: 1, Last: 2, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: renameCommand},
		{Name: "renamenx", Arity: 3, Flags: write | fast, First: 1, Last: 2, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: renamenxCommand},
		// COPY … DB n writes another database of the same shards: a key's shard does not
		// depend on the database.
		{Name: "copy", Arity: -3, Flags: write | denyOOM, First: 1, Last: 2, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: copyCommand},
		{Name: "move", Arity: 3, Flags: write | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: moveCommand},
		{Name: "swapdb", Arity: 3, Flags: write | fast, Cats: catKeyspace | command.CatDangerous, Locking: command.LockAll, Handler: swapdbCommand},
		{Name: "randomkey", Arity: 1, Flags: readOnly, Cats: catKeyspace, Locking: command.LockFunc, Shards: randomkeyShards, Handler: randomkeyCommand},
		{Name: "dbsize", Arity: 1, Flags: readOnly | fast, Cats: catKeyspace, Locking: command.LockNone, Handler: dbsizeCommand},
		{Name: "flushdb", Arity: -1, Flags: write, Cats: catKeyspace | command.CatDangerous, Locking: command.LockAll, Handler: flushdbCommand},
		{Name: "flushall", Arity: -1, Flags: write, Cats: catKeyspace | command.CatDangerous, Locking: command.LockAll, Handler: flushallCommand},
		{Name: "object", Arity: -2, Subcommands: []*command.Command{
			{Name: "encoding", Arity: 3, Flags: readOnly, First: 2, Last: 2, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: objectEncodingCommand},
			{Name: "freq", Arity: 3, Flags: readOnly, First: 2, Last: 2, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: objectFreqCommand},
			{Name: "idletime", Arity: 3, Flags: readOnly, First: 2, Last: 2, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: objectIdletimeCommand},
			{Name: "refcount", Arity: 3, Flags: readOnly, First: 2, Last: 2, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: objectRefcountCommand},
			{Name: "help", Arity: 2, Flags: command.Loading | command.Stale, Cats: catKeyspace, Locking: command.LockNone, Handler: objectHelpCommand},
		}},
		{Name: "memory", Arity: -2, Subcommands: []*command.Command{
			{Name: "usage", Arity: -3, Flags: readOnly, First: 2, Last: 2, Step: 1, Locking: command.LockKeys, Handler: memoryUsageCommand},
			{Name: "purge", Arity: 2, Locking: command.LockNone, Handler: memoryPurgeCommand},
		}},

		{Name: "expire", Arity: -3, Flags: write | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: expireCommand},
		{Name: "pexpire", Arity: -3, Flags: write | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: pexpireCommand},
		{Name: "expireat", Arity: -3, Flags: write | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: expireatCommand},
		{Name: "pexpireat", Arity: -3, Flags: write | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: pexpireatCommand},
		{Name: "ttl", Arity: 2, Flags: readOnly | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: ttlCommand},
		{Name: "pttl", Arity: 2, Flags: readOnly | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: pttlCommand},
		{Name: "expiretime", Arity: 2, Flags: readOnly | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: expiretimeCommand},
		{Name: "pexpiretime", Arity: 2, Flags: readOnly | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: pexpiretimeCommand},
		{Name: "persist", Arity: 2, Flags: write | fast, First: 1, Last: 1, Step: 1, Cats: catKeyspace, Locking: command.LockKeys, Handler: persistCommand},

		{Name: "keys", Arity: 2, Flags: readOnly, Cats: catKeyspace | command.CatDangerous, Locking: command.LockAll, Handler: keysCommand},
		{Name: "scan", Arity: -2, Flags: readOnly, Cats: catKeyspace, Locking: command.LockFunc, Shards: scanShards, Handler: scanCommand},
	}
}
