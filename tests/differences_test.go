package tests

// Deliberate differences between kvserver and redis-server 7.0.15, the reference the suite also
// runs against (KVSERVER_TARGET=redis), kept in one place. Differences of 7.2 from 7.0.15 in the
// data-driven command files are marked there with "kvserver-only" / "redis-only" blocks.

// errShutdownSaveFailed is Redis's reply to a SHUTDOWN whose save failed.
const errShutdownSaveFailed = "ERR Errors trying to SHUTDOWN. Check logs."

// Hashes (testdata/commands/hash.txt): Redis 7.2's hashTypeTryConversion makes a hash table
// before an HSET of more pairs than hash-max-listpack-entries even when they repeat one field;
// Debian's 7.0.15 writes them into its listpack. A kvserver-only and a redis-only block show
// each.

// RESTORE and RDB loading (tests/persistence*_test.go): kvserver checks every payload and file
// deep, as Redis does with sanitize-dump-payload yes (listpacks and intsets walked whole, no
// field or member twice); Redis's default, no, accepts a small hash that names a field twice.
// A listpack set (RDB type 20, Redis 7.2) is unknown to Debian's 7.0.15, which refuses such a
// file or payload: the interop tests mark it.

// ACL (testdata/commands/acl.txt, tests/acl_*_test.go, issue 24), 7.2's behaviour in
// kvserver-only blocks (from acl.c and server.c of Valkey 8.0.1, not run on 7.2), 7.0.15's in
// redis-only ones:
//   - NOPERM texts: 7.2 names the user for a command ("User app has no permissions to run the
//     'set' command") and says "No permissions to access a key" / "a channel"; 7.0.15 says "this
//     user has no permissions to run the 'set' command" and "… to access one of the keys (the
//     channels) used as arguments". ACL DRYRUN's texts likewise: 7.2 "User app has no
//     permissions to …", 7.0.15 "This user has no permissions to …".
//   - Command rules: 7.2 keeps them as written (ACL LIST and GETUSER show `-@all +@read -get
//     +@string`; a later `+get` replaces an earlier `-get`); 7.0.15 rebuilds them from the
//     command bitmap (`-@all +@read +@string`), its single commands in the order of its
//     command dict, which changes from run to run.
//   - ACL LOG entries: 7.2's have entry-id, timestamp-created and timestamp-last-updated after
//     7.0.15's seven fields.
//   - New users: 7.2 gives every user it creates the sanitize-payload flag (redis#11279), so ACL
//     LIST shows `user default on nopass sanitize-payload ~* &* +@all` and GETUSER's flags end
//     with it; 7.0.15 sets it only on `reset`.
//   - INFO stats: 7.2 counts denials in acl_access_denied_auth, _cmd, _key and _channel;
//     7.0.15 has no such fields (TestACLDeniedCounters is kvserver-only).
//   - A `user` directive's rule: both refuse a syntax error while reading the file (FATAL CONFIG
//     FILE ERROR, "Error in user declaration '<argv[j]>': Syntax error") and an unknown command
//     or category when loading the users ("Error loading ACL rule '+@nosuch' for the user named
//     'app': …", "Critical error while loading ACLs. Exiting.").
// Both versions agree on what a change does to connected clients (acl_users_test.go): ACL
// DELUSER closes the user's connections; ACL SETUSER … off only refuses new AUTHs (a connection
// already authenticated keeps working); a command permission taken away answers NOPERM from the
// next command on; a subscriber whose channels the new rules no longer allow is closed.

// Refused directives (appendonly yes, TLS, replicaof, cluster-enabled …),
// which Redis acts on, are tested by the kvserver-only tests of
// config_safety_test.go.

// volatileTTLExact: kvserver's volatile-ttl evicts the keys with the nearest expire of the
// whole server, in order (every shard's first TTL-index entry is a candidate); Redis's samples
// maxmemory-samples keys per database into its pool, so it evicts keys near the front, not
// strictly in order.
func volatileTTLExact() bool { return !targetRedis }

// DEBUG and MEMORY (tests/debug_test.go, tests/memory_test.go).
//
// digestMixesTTLValue: DEBUG DIGEST and DIGEST-VALUE mix a key's expire time into its digest
// in kvserver, so that a changed TTL changes the digest; Redis mixes in only whether the key
// has one. Without TTLs the digests are Redis's, bit for bit.
//
// MEMORY MALLOC-STATS reports kvserver's own allocator (its slab classes and arenas), not
// jemalloc's statistics; both are a text between "___ Begin … statistics ___" and "--- End …
// statistics ---" lines. In MEMORY STATS the allocator is kvserver's arenas with the Go
// runtime (allocator.resident counts all the Go runtime holds from the OS), functions.caches
// is 0 (no functions), and clients.normal is the clients' buffers at the time of the call
// (Redis's is updated by its cron, 0 at first).
// DEBUG HELP lists only the subcommands kvserver has, each with Redis's lines. DEBUG POPULATE
// with a count no arena could hold answers Redis's "OOM in dictTryExpand" at once; redis-server
// 7.0.15 crashes on its failed allocation instead.
func digestMixesTTLValue() bool { return !targetRedis }

// Listpack sets (testdata/commands/set.txt): Redis 7.2 keeps a small set of non-integer members
// (up to set-max-listpack-entries 128 of at most set-max-listpack-value 64 bytes) as a
// listpack, in insertion order, and turns an intset taking such a member into one; Debian's
// 7.0.15 has no listpack sets and answers OBJECT ENCODING `hashtable` for them. The file checks
// 7.2's encodings and order in kvserver-only blocks, 7.0.15's in redis-only ones, and the
// replies of such sets `sorted` where both run. The STORE forms build their result by the same
// rules, so strings make a listpack in 7.2 (a hash table in 7.0.15); SPOP with a count that
// leaves at most a fifth of a hash table keeps the survivors in a new listpack in 7.2 (a hash
// table in 7.0.15: setval's TestPopKeepsSurvivors, as the reply is random). The kvserver-only
// blocks were checked against t_set.c of Valkey 8.0.1 (Redis 7.2's rules), not run on 7.2.

// Lists (testdata/commands/list.txt, issue 21): Redis 7.2 keeps a small list as one listpack
// (OBJECT ENCODING listpack) up to list-max-listpack-size (-2: 8 KB; a positive fill counts
// elements), a quicklist past it, and a listpack again when a pop, LREM, LTRIM or LSET leaves
// one node of at most half the limits; Debian's 7.0.15 answers `quicklist` for every list. The
// file checks 7.2's encodings in kvserver-only blocks (from t_list.c and quicklist.c of Valkey
// 8.0.1, not run on 7.2) and 7.0.15's in redis-only ones. Two argument checks differ too, both
// 7.2's in kvserver-only blocks: LPOS RANK -9223372036854775808 is out of range in 7.2
// (redis#12167), an overflow acting as -1 in 7.0.15; a blocking command's timeout past LLONG_MAX
// ms (1e400, inf) is `ERR timeout is out of range` in 7.2, `ERR timeout is negative` in 7.0.15,
// and -0.001 s is negative in 7.2 (ceil of -1 ms) but waits forever in 7.0.15 (truncated to 0).
//
// Blocking (tests/blocking_test.go): Redis 7.2 serves a client blocked on several keys by
// running its command again once one of them is ready, so BLPOP takes from its first
// non-empty key; 7.0.15 pops from the key that became ready first. TestBlockingSeveralKeysReadyTogether
// expects 7.2's answer from kvserver and 7.0.15's from redis-server. Both versions answer a
// timed-out (or CLIENT UNBLOCKed) BLMOVE or BRPOPLPUSH with the null array, and with the null
// bulk only inside MULTI.

// Sorted sets (testdata/commands/zset.txt and tests/zset_*_test.go, issue 22), 7.2's behaviour
// in kvserver-only blocks (from t_zset.c of Valkey 8.0.1, not run on 7.2), 7.0.15's in
// redis-only ones:
//   - Scores print in 7.2's shortest round-trip form (d2string with fpconv_dtoa: `0.1`, `1e-7`,
//     `0.30000000000000004`) where 7.0.15 prints %.17g (`0.10000000000000001`); the shared
//     blocks use scores both print alike (integers, halves, inf).
//   - ZRANK and ZREVRANK take WITHSCORE in 7.2 (a third argument other than it is a syntax
//     error, a fourth an arity error); 7.0.15 answers any third argument with an arity error.
//   - ZADD converts a listpack to a skiplist before adding anything when its arguments could not
//     fit (more pairs than zset-max-listpack-entries, or a member longer than
//     zset-max-listpack-value: zsetTypeMaybeConvert), even when XX or repeated members add
//     none; 7.0.15 converts only when a member is added (TestZsetEncodingEarlyConversion).
//   - Blocking pops (tests/zset_blocking_test.go): as for lists, 7.2 runs a served BZPOPMIN,
//     BZPOPMAX or BZMPOP again, so it takes from its first non-empty key, and answers WRONGTYPE
//     when an earlier key of its list became another type meanwhile; 7.0.15 pops from the key
//     that became ready (TestZsetBlockingSeveralKeysReadyTogether, TestZsetBlockingWrongType).
//     Their timeouts past LLONG_MAX ms (1e400, inf) are out of range in 7.2, negative in
//     7.0.15, as the lists' are.
//
// redis-benchmark (tests/redis_benchmark_test.go): Debian's 7.0.15 tool runs the default list
// up to MSET; 7.2's adds XADD, which kvserver (without streams) would answer with an error.

// Scripts and functions (testdata/commands/scripting.txt and functions.txt, issue 23):
// Redis 7.2's eval.c, script.c, script_lua.c and functions.c (those of Valkey 7.2.5) answer
// the files' commands with 7.0.15's texts, so nearly every block runs on both. Where they
// differ, 7.2 is in kvserver-only blocks and 7.0.15 in redis-only ones:
//   - redis.REDIS_VERSION and REDIS_VERSION_NUM are kvserver's 7.2.4 (0x070204) against
//     7.0.15.
//   - TIME called from a script answers the script's start in 7.2 (call() refreshes the cached
//     time only outside nested calls, and TIME reads that cache); 7.0.15's TIME reads the
//     clock. Key expiry inside a script uses the script's start in both.
//   - Blocking commands (BLPOP, BRPOPLPUSH, BLMOVE, BLMPOP, BZPOPMIN …) are not noscript in
//     7.2: called from a script they never block, answering null on empty keys as a timeout
//     would; 7.0.15 flags them noscript and refuses them ("This Redis command is not allowed
//     from script").
//   - A Lua number passed to redis.call becomes its shortest round-trip text in 7.2
//     (fpconv_dtoa: 3.99 is "3.99", 0.1 "0.1"), 17 significant digits in 7.0.15 (%.17g:
//     "3.9900000000000002").
//   - FUNCTION DUMP's payload ends with RDB version 11 in 7.2, 10 in 7.0.15 (and so another
//     CRC-64), as DUMP's does; FUNCTION RESTORE of 7.0.15's payload works on both.
//   - os: kvserver's scripts see an os table holding clock only, as Redis 7.4 and Valkey 8
//     (redis#12971, "Expose lua os.clock() api"); Redis 7.2, like 7.0.15, loads no os library,
//     so `os` is an unknown global there. Not 7.2's behaviour: kept while scripting/ (its
//     sandbox tests) has it.
//   - Syntax errors: kvserver's Lua is gopher-lua, whose parser words some errors as C Lua's
//     does ("unexpected symbol near '<eof>'", "unfinished string") but not all: an unfinished
//     block is C Lua's "'end' expected near '<eof>'" (a redis-only block of functions.txt).
//
// Lua tables with string keys iterate in an order of the interpreter's own (C Lua's hash
// order is not gopher-lua's), so the files never depend on it: maps returned by scripts have
// one key, cjson objects of several keys are decoded again rather than compared as text.
