// Package debugfamily is DEBUG and MEMORY: the commands tools and test suites use to look
// inside the server (DEBUG OBJECT, DIGEST, DIGEST-VALUE, PROTOCOL; MEMORY USAGE, STATS,
// DOCTOR, MALLOC-STATS) and to steer it (DEBUG POPULATE, SLEEP, SET-ACTIVE-EXPIRE, PAUSE-CRON,
// CHANGE-REPL-ID, LOG; MEMORY PURGE).
//
// What only the server can do — sleep until shutdown, pause its cron, switch active expiry,
// log through its rate-limited logger, change its replication ID, report its clients' and its
// process's memory — it offers through the narrow Server interface that Commands takes; the
// rest works on the keyspace through the pipeline's context, as every family does.
//
// DEBUG is one row in Redis's metadata (its subcommands are not listed there), so its row
// picks the shards to lock from its arguments (debugShards): the key's shard for OBJECT and
// DIGEST-VALUE, every shard for POPULATE and DIGEST, none for the rest (SLEEP holds no lock
// while it sleeps). enable-debug-command is the pipeline's check (the row's IsDebug).
package debugfamily
