package keyfamily

import (
	"strconv"
	"testing"
)

func TestTTLWithoutExpire(t *testing.T) {
	wd := newWorld(t)
	wd.conn(t).script(`
SET e:k v -> OK
TTL e:k -> (integer) -1
PTTL e:k -> (integer) -1
EXPIRETIME e:k -> (integer) -1
PEXPIRETIME e:k -> (integer) -1
PERSIST e:k -> (integer) 0
TTL e:missing -> (integer) -2
PTTL e:missing -> (integer) -2
EXPIRETIME e:missing -> (integer) -2
PEXPIRETIME e:missing -> (integer) -2
PERSIST e:missing -> (integer) 0
EXPIRE e:missing 10 -> (integer) 0
PEXPIRE e:missing 10 -> (integer) 0
EXPIREAT e:missing 4102444800 -> (integer) 0
PEXPIREAT e:missing 4102444800000 -> (integer) 0
`)
}

// TestExpireClock: relative and absolute expires against the fake clock, TTL's rounding, the
// key gone exactly when its time has passed (not at it).
func TestExpireClock(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
SET e:k v -> OK
EXPIRE e:k 100 -> (integer) 1
TTL e:k -> (integer) 100
PTTL e:k -> (integer) 100000
PEXPIRETIME e:k -> (integer) ` + strconv.FormatInt(startMs+100000, 10) + `
PEXPIRE e:k 100400 -> (integer) 1
TTL e:k -> (integer) 100
PEXPIRE e:k 100600 -> (integer) 1
TTL e:k -> (integer) 101
PEXPIRE e:k 500 -> (integer) 1
TTL e:k -> (integer) 1
PEXPIRE e:k 499 -> (integer) 1
TTL e:k -> (integer) 0
EXPIREAT e:k 4102444800 -> (integer) 1
EXPIRETIME e:k -> (integer) 4102444800
PEXPIRETIME e:k -> (integer) 4102444800000
PEXPIREAT e:k 4102444800123 -> (integer) 1
EXPIRETIME e:k -> (integer) 4102444800
PEXPIREAT e:k 4102444800500 -> (integer) 1
EXPIRETIME e:k -> (integer) 4102444801
PERSIST e:k -> (integer) 1
PERSIST e:k -> (integer) 0
TTL e:k -> (integer) -1
`)
	c.script(`
PEXPIREAT e:k ` + strconv.FormatInt(startMs+1000, 10) + ` -> (integer) 1
PTTL e:k -> (integer) 1000
`)
	wd.advance(1000)
	c.script(`
PTTL e:k -> (integer) 0
TTL e:k -> (integer) 0
EXISTS e:k -> (integer) 1
`)
	wd.advance(1)
	c.script(`
PTTL e:k -> (integer) -2
EXISTS e:k -> (integer) 0
`)
}

// TestExpirePast: a time not after now deletes the key and answers 1.
func TestExpirePast(t *testing.T) {
	wd := newWorld(t)
	now := strconv.FormatInt(startMs, 10)
	wd.conn(t).script(`
SET p v -> OK
EXPIRE p 0 -> (integer) 1
EXISTS p -> (integer) 0
SET p v -> OK
EXPIRE p -100 -> (integer) 1
EXISTS p -> (integer) 0
SET p v -> OK
PEXPIRE p 0 -> (integer) 1
EXISTS p -> (integer) 0
SET p v -> OK
PEXPIREAT p ` + now + ` -> (integer) 1
EXISTS p -> (integer) 0
SET p v -> OK
PEXPIRE p 1 -> (integer) 1
EXISTS p -> (integer) 1
SET p v -> OK
EXPIREAT p 1 -> (integer) 1
GET p -> (nil)
SET p v -> OK
PEXPIREAT p -9223372036854775808 -> (integer) 1
EXISTS p -> (integer) 0
`)
}

func TestExpireConditions(t *testing.T) {
	wd := newWorld(t)
	wd.conn(t).script(`
SET c:k v -> OK
EXPIRE c:k 100 XX -> (integer) 0
EXPIRE c:k 100 GT -> (integer) 0
TTL c:k -> (integer) -1
EXPIRE c:k 100 NX -> (integer) 1
EXPIRE c:k 200 NX -> (integer) 0
TTL c:k -> (integer) 100
EXPIRE c:k 200 XX -> (integer) 1
TTL c:k -> (integer) 200
EXPIRE c:k 100 GT -> (integer) 0
EXPIRE c:k 300 GT -> (integer) 1
TTL c:k -> (integer) 300
EXPIRE c:k 400 LT -> (integer) 0
EXPIRE c:k 100 LT -> (integer) 1
TTL c:k -> (integer) 100
PERSIST c:k -> (integer) 1
EXPIRE c:k 100 LT -> (integer) 1
TTL c:k -> (integer) 100
EXPIRE c:k 50 xx lt -> (integer) 1
TTL c:k -> (integer) 50
EXPIRE c:k 100 nx nx -> (integer) 0
EXPIRE c:k 60 Gt Xx -> (integer) 1
EXPIRE c:k 49 lT lt -> (integer) 1
TTL c:k -> (integer) 49
EXPIRE c:k -1 GT -> (integer) 0
EXISTS c:k -> (integer) 1
EXPIRE c:k -1 LT -> (integer) 1
EXISTS c:k -> (integer) 0
SET c:at v -> OK
PEXPIREAT c:at 4102444800000 NX -> (integer) 1
EXPIREAT c:at 4102444800 GT -> (integer) 0
EXPIREAT c:at 4102444801 GT -> (integer) 1
PEXPIRETIME c:at -> (integer) 4102444801000
PEXPIREAT c:at 4102444800999 LT -> (integer) 1
PEXPIRETIME c:at -> (integer) 4102444800999
PEXPIRE c:at 100000 XX -> (integer) 1
TTL c:at -> (integer) 100
`)
}

// TestExpireErrors: options first (an unknown word before incompatible ones), then the number,
// then its overflow; all before the key is looked at.
func TestExpireErrors(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
SET c:k v -> OK
EXPIRE c:k 100 NX XX -> (error) ERR NX and XX, GT or LT options at the same time are not compatible
EXPIRE c:k 100 NX GT -> (error) ERR NX and XX, GT or LT options at the same time are not compatible
EXPIRE c:k 100 LT NX -> (error) ERR NX and XX, GT or LT options at the same time are not compatible
EXPIRE c:k 100 GT LT -> (error) ERR GT and LT options at the same time are not compatible
EXPIRE c:k 100 XX GT LT -> (error) ERR GT and LT options at the same time are not compatible
EXPIRE c:k 100 FOO -> (error) ERR Unsupported option FOO
EXPIRE c:k 100 nx foo -> (error) ERR Unsupported option foo
EXPIRE c:k 100 NX XX foo -> (error) ERR Unsupported option foo
EXPIRE c:k abc -> (error) ERR value is not an integer or out of range
EXPIRE c:k abc foo -> (error) ERR Unsupported option foo
EXPIRE c:k 1.5 -> (error) ERR value is not an integer or out of range
EXPIRE c:k "" -> (error) ERR value is not an integer or out of range
EXPIRE c:k +10 -> (error) ERR value is not an integer or out of range
EXPIRE c:k 9223372036854775808 -> (error) ERR value is not an integer or out of range
EXPIRE c:k 9223372036854775807 -> (error) ERR invalid expire time in 'expire' command
EXPIRE c:k 9223372036854776 -> (error) ERR invalid expire time in 'expire' command
EXPIRE c:k -9223372036854776 -> (error) ERR invalid expire time in 'expire' command
EXPIRE c:missing 9223372036854776 -> (error) ERR invalid expire time in 'expire' command
PEXPIRE c:k 9223372036854775807 -> (error) ERR invalid expire time in 'pexpire' command
EXPIREAT c:k 9223372036854776 -> (error) ERR invalid expire time in 'expireat' command
EXPIREAT c:k -9223372036854776 -> (error) ERR invalid expire time in 'expireat' command
PEXPIREAT c:missing 9223372036854775807 -> (integer) 0
PEXPIRE c:k 100 GT LT -> (error) ERR GT and LT options at the same time are not compatible
TTL c:k -> (integer) -1
EXPIRE -> (error) ERR wrong number of arguments for 'expire' command
EXPIRE c:k -> (error) ERR wrong number of arguments for 'expire' command
PEXPIREAT c:k -> (error) ERR wrong number of arguments for 'pexpireat' command
TTL a b -> (error) ERR wrong number of arguments for 'ttl' command
PEXPIRETIME a b -> (error) ERR wrong number of arguments for 'pexpiretime' command
PERSIST -> (error) ERR wrong number of arguments for 'persist' command
`)
	// A NUL ends the option's text, as C's %s prints it.
	if got := c.doArgs("EXPIRE", "c:k", "100", "fo\x00o"); got != "(error) ERR Unsupported option fo" {
		t.Errorf("NUL in an option: %s", got)
	}
	// The end of time: EXPIRETIME's rounding wraps as Redis's does.
	c.script(`
SET c:end v -> OK
PEXPIREAT c:end 9223372036854775807 -> (integer) 1
PEXPIRETIME c:end -> (integer) 9223372036854775807
EXPIRETIME c:end -> (integer) 9223372036854776
EXPIREAT c:end 9223372036854775 -> (integer) 1
EXPIRETIME c:end -> (integer) 9223372036854775
`)
}

// TestExpireMoves: the expire moves with RENAME, MOVE and COPY.
func TestExpireMoves(t *testing.T) {
	wd := newWorld(t)
	wd.conn(t).script(`
SET m:k v PX 100000 -> OK
RENAME m:k m:k2 -> OK
TTL m:k2 -> (integer) 100
MOVE m:k2 3 -> (integer) 1
SELECT 3 -> OK
TTL m:k2 -> (integer) 100
COPY m:k2 m:k3 -> (integer) 1
TTL m:k3 -> (integer) 100
`)
}
