package keyfamily

import (
	"strings"
	"testing"
)

// TestRename: value, expire and encoding move to the new name, also into another shard.
func TestRename(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	names := wd.keysInDistinctShards("rn:", 6)
	raw := strings.Repeat("a", 200)
	c.script(`
SET ` + names[0] + ` hello PX 100000 -> OK
SET ` + names[1] + ` other -> OK
RENAME ` + names[0] + ` ` + names[1] + ` -> OK
GET ` + names[1] + ` -> "hello"
TTL ` + names[1] + ` -> (integer) 100
EXISTS ` + names[0] + ` -> (integer) 0
RENAME ` + names[1] + ` ` + names[2] + ` -> OK
RENAME ` + names[2] + ` ` + names[3] + ` -> OK
GET ` + names[3] + ` -> "hello"
TTL ` + names[3] + ` -> (integer) 100
SET rn:int 12345 -> OK
RENAME rn:int ` + names[4] + ` -> OK
OBJECT ENCODING ` + names[4] + ` -> "int"
GET ` + names[4] + ` -> "12345"
SET rn:raw ` + raw + ` -> OK
RENAME rn:raw ` + names[5] + ` -> OK
OBJECT ENCODING ` + names[5] + ` -> "raw"
GET ` + names[5] + ` -> "` + raw + `"
SET rn:short ab -> OK
APPEND rn:short c -> (integer) 3
OBJECT ENCODING rn:short -> "raw"
RENAME rn:short rn:short2 -> OK
OBJECT ENCODING rn:short2 -> "raw"
SET rn:self v -> OK
RENAME rn:self rn:self -> OK
GET rn:self -> "v"
RENAME rn:missing rn:x -> (error) ERR no such key
RENAME rn:missing rn:missing -> (error) ERR no such key
RENAME rn:self -> (error) ERR wrong number of arguments for 'rename' command
RENAME rn:self a b -> (error) ERR wrong number of arguments for 'rename' command
`)
}

func TestRenameNX(t *testing.T) {
	wd := newWorld(t)
	wd.conn(t).script(`
SET rx:a 1 -> OK
SET rx:b 2 -> OK
RENAMENX rx:a rx:b -> (integer) 0
GET rx:b -> "2"
RENAMENX rx:a rx:c -> (integer) 1
GET rx:c -> "1"
EXISTS rx:a -> (integer) 0
RENAMENX rx:c rx:c -> (integer) 0
RENAMENX rx:missing rx:d -> (error) ERR no such key
RENAMENX rx:missing rx:missing -> (error) ERR no such key
RENAMENX rx:c -> (error) ERR wrong number of arguments for 'renamenx' command
`)
}

// TestRenameExpired: a source whose time has passed is missing; a destination whose time has
// passed is free for RENAMENX.
func TestRenameExpired(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
SET ex:a v PX 5 -> OK
SET ex:b v -> OK
SET ex:c v PX 5 -> OK
`)
	wd.advance(6)
	c.script(`
RENAME ex:a ex:z -> (error) ERR no such key
RENAMENX ex:b ex:c -> (integer) 1
GET ex:c -> "v"
TTL ex:c -> (integer) -1
`)
}

func TestCopy(t *testing.T) {
	wd := newWorld(t)
	wd.conn(t).script(`
SET cp:src hello PX 100000 -> OK
COPY cp:src cp:dst -> (integer) 1
GET cp:dst -> "hello"
TTL cp:dst -> (integer) 100
GET cp:src -> "hello"
COPY cp:src cp:dst -> (integer) 0
SET cp:dst other -> OK
COPY cp:src cp:dst replace -> (integer) 1
GET cp:dst -> "hello"
COPY cp:src cp:src DB 1 -> (integer) 1
COPY cp:src cp:dst DB 1 -> (integer) 1
COPY cp:src cp:dst DB 1 -> (integer) 0
COPY cp:src cp:dst REPLACE DB 1 REPLACE -> (integer) 1
SELECT 1 -> OK
GET cp:src -> "hello"
TTL cp:dst -> (integer) 100
FLUSHDB -> OK
SELECT 0 -> OK
COPY cp:missing cp:x -> (integer) 0
EXISTS cp:x -> (integer) 0
SET cp:n 42 -> OK
COPY cp:n cp:n2 -> (integer) 1
OBJECT ENCODING cp:n2 -> "int"
GET cp:n2 -> "42"
DEL cp:src cp:dst cp:n cp:n2 -> (integer) 4

# Errors: options in order (a bad DB where it stands), then the same key in the same database.
SET cp:k v -> OK
COPY cp:k cp:k -> (error) ERR source and destination objects are the same
COPY cp:k cp:k DB 0 -> (error) ERR source and destination objects are the same
COPY cp:k cp:x DB -> (error) ERR syntax error
COPY cp:k cp:x DB abc -> (error) ERR value is not an integer or out of range
COPY cp:k cp:x DB 16 -> (error) ERR DB index is out of range
COPY cp:k cp:x DB -1 -> (error) ERR DB index is out of range
COPY cp:k cp:x DB 2147483648 -> (error) ERR value is out of range, value must between -2147483648 and 2147483647
COPY cp:k cp:k DB 99 -> (error) ERR DB index is out of range
COPY cp:k cp:x FOO -> (error) ERR syntax error
COPY cp:k cp:x REPLACE FOO -> (error) ERR syntax error
COPY cp:k cp:x DB 99 FOO -> (error) ERR DB index is out of range
COPY cp:k -> (error) ERR wrong number of arguments for 'copy' command
`)
}

func TestMove(t *testing.T) {
	wd := newWorld(t)
	wd.conn(t).script(`
SET mv:k v PX 100000 -> OK
MOVE mv:k 1 -> (integer) 1
EXISTS mv:k -> (integer) 0
SELECT 1 -> OK
GET mv:k -> "v"
TTL mv:k -> (integer) 100
SELECT 0 -> OK
SET mv:k mine -> OK
MOVE mv:k 1 -> (integer) 0
GET mv:k -> "mine"
MOVE mv:missing 1 -> (integer) 0
MOVE mv:k 0 -> (error) ERR source and destination objects are the same
MOVE mv:k 16 -> (error) ERR DB index is out of range
MOVE mv:k -1 -> (error) ERR DB index is out of range
MOVE mv:k x -> (error) ERR value is not an integer or out of range
MOVE mv:k 99999999999 -> (error) ERR value is out of range, value must between -2147483648 and 2147483647
MOVE mv:k -> (error) ERR wrong number of arguments for 'move' command
`)
}

// TestSwapDBAndFlush: SWAPDB swaps what the clients of two databases see; FLUSHDB empties one
// database, FLUSHALL every one.
func TestSwapDBAndFlush(t *testing.T) {
	wd := newWorld(t)
	c0, c1 := wd.conn(t), wd.conn(t)
	c1.script(`SELECT 1 -> OK`)
	c0.script(`
SET a zero -> OK
SET b zero -> OK
`)
	c1.script(`SET a one -> OK`)
	c0.script(`
SWAPDB 0 1 -> OK
GET a -> "one"
DBSIZE -> (integer) 1
SWAPDB 1 1 -> OK
GET a -> "one"
`)
	c1.script(`
GET a -> "zero"
DBSIZE -> (integer) 2
SWAPDB 1 0 -> OK
GET a -> "one"
SWAPDB x 0 -> (error) ERR invalid first DB index
SWAPDB 0 x -> (error) ERR invalid second DB index
SWAPDB 2147483648 0 -> (error) ERR invalid first DB index
SWAPDB 0 16 -> (error) ERR DB index is out of range
SWAPDB -1 0 -> (error) ERR DB index is out of range
SWAPDB 0 -> (error) ERR wrong number of arguments for 'swapdb' command
FLUSHDB foo -> (error) ERR syntax error
FLUSHDB SYNC x -> (error) ERR syntax error
FLUSHDB ASYNC -> OK
DBSIZE -> (integer) 0
`)
	c0.script(`
DBSIZE -> (integer) 2
SET x 1 -> OK
SELECT 9 -> OK
SET x 9 -> OK
FLUSHALL foo -> (error) ERR syntax error
DBSIZE -> (integer) 1
FLUSHALL SYNC -> OK
DBSIZE -> (integer) 0
SELECT 0 -> OK
DBSIZE -> (integer) 0
FLUSHALL -> OK
`)
}
