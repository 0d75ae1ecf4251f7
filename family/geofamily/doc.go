// Package geofamily is Redis's @geo commands (geo.c of Redis 7.2) on the command pipeline:
// GEOADD GEOPOS GEODIST GEOHASH GEOSEARCH GEOSEARCHSTORE GEORADIUS GEORADIUS_RO
// GEORADIUSBYMEMBER GEORADIUSBYMEMBER_RO, with Redis's replies, error texts (in Redis's order of
// checks) and keyspace events.
//
// A geo key is a sorted set (package zsetval) whose scores are 52-bit geohash cells (package
// geo): GEOADD is ZADD of the cells (its event is `zadd`), and any sorted set answers the geo
// commands, its scores decoded as Redis decodes them. A search picks the nine cells of its
// shape (geo.AreasByShape), reads each cell's score range in score order, keeps the points
// inside the shape, then sorts them by distance when asked (or when COUNT is given without
// ANY): all of them stably as glibc's qsort, or, when COUNT cuts the result, the first COUNT
// ranks as Redis's pqsort does, so that points at the same distance come in Redis's order. The
// points of one search are held in Go memory for the command only.
//
// GEOSEARCHSTORE and GEORADIUS… STORE/STOREDIST build their result in the destination's shard
// (zsetval.Builder), which the pipeline has locked with the source's (the key specs and
// GEORADIUS's key function name both): the result replaces any value (setKey), an empty result
// deletes the destination.
//
// Files: commands.go (the rows), errors.go, geoadd.go, read.go (GEOPOS GEODIST GEOHASH),
// search.go (georadiusGeneric: the options, the scan, the reply or the store), pqsort.go
// (Redis's partial sort).
package geofamily
