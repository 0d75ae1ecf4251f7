// Package stringfamily is Redis's @string commands (t_string.c) on the command pipeline: GET
// SET SETNX SETEX PSETEX GETSET GETDEL GETEX MGET MSET MSETNX APPEND STRLEN INCR DECR INCRBY
// DECRBY INCRBYFLOAT GETRANGE SUBSTR SETRANGE, with Redis 7.2's replies and error texts.
//
// Commands lists the rows; command.New joins them into the table. Every row locks its keys'
// shards (command.LockKeys, from First/Last/Step), so a handler finds its shards locked by the
// pipeline and never locks, counts or logs itself. ctx.Cfg must be set (proto-max-bulk-len).
//
// Each file keeps the operations apart from the replies, as Dragonfly's string family does:
// an op… function takes the context, the key's shard and parsed arguments and returns a value
// or an error from errors.go; the handler (Redis's name: setCommand, getGenericCommand…)
// parses, calls the op and writes the reply. Values read from a record are views valid under
// the shard's lock, which the pipeline holds until the handler returns; replies copy them.
//
// Files: commands.go (the rows), errors.go, options.go (SET's and GETEX's options, expire
// times), get.go (GET GETDEL GETEX MGET), set.go (SET SETNX SETEX PSETEX GETSET MSET MSETNX),
// counter.go (INCR DECR INCRBY DECRBY INCRBYFLOAT), ranges.go (APPEND STRLEN GETRANGE SUBSTR
// SETRANGE).
package stringfamily
