// Package info is the INFO command: Redis 7.2's sections in Redis's order, which of them a
// request selects (bare INFO and "default", "all", "everything", named sections), and the
// writers of their fields, with Redis's names, units and formats.
//
// What only the server knows — its clients and connections, listeners, run id, start time,
// its counters and the memory of the client buffers — comes through the Source interface, which
// package server implements; keyspace and configuration figures are read from the command's
// context directly. The sections kept by the statistics package (commandstats, errorstats,
// latencystats and the error-reply counters) are Hooks that Source supplies.
//
// A field Redis has is written when it means something here, with its true value, or when its
// neutral value (0, -1, "no-failover") is true of kvserver as well: no Lua, no replication, no
// fork, no defragmentation. A field whose only possible value would claim work that never
// happened (rdb_last_bgsave_status:ok without a save) or that kvserver does not measure yet is
// left out; tests/info_fields_test.go lists each such field with its reason. kvserver's own
// fields (parked_clients, used_memory_go_runtime, command_panics …) follow Redis's ones in
// their sections.
package info
