// Package cmdfile reads and runs the data-driven command files (tests/testdata/commands/*.txt):
// their format, the redis-cli splitting of a command line, the RESP reply reader, the
// redis-cli formatting of a reply, and the driver that runs a file over connections to a
// server. One driver serves every way the files run: over TCP against the built binary and
// against redis-server (tests/), and in process against a Server on a fake clock (server/).
//
// A file is a sequence of blocks
//
//	# a comment, kept by a rewrite
//	run [resp3] [types] [sorted] [kvserver-only | redis-only]
//	SET k v EX 10
//	TTL k
//	----
//	OK
//	(integer) 10
//
// Each command line is split as redis-cli splits it and sent over a fresh connection (RESP2;
// with resp3, after a HELLO 3 whose reply is not printed); the replies, formatted as redis-cli
// prints them to a terminal, must equal the lines after `----`, which end at a blank line.
// `types` prints scalars by type only (see Format); `sorted` sorts the elements of every
// aggregate of a reply first (see Sort), for replies whose order is unspecified. A
// kvserver-only block is skipped against redis-server, a redis-only block against kvserver.
// Each file starts with FLUSHALL; blocks of a file share the keyspace.
//
// A comment line `# requires: HSET SADD (issue 20)` names commands the file needs: against a
// target that answers `unknown command` to one of them, the file is skipped with "kvserver
// lacks HSET (issue 20)"; redis-server lacking one fails the test (see Lacking).
//
// The package is for tests: it imports testing.
package cmdfile
