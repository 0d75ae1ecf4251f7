package debugfamily

import (
	"strings"
	"testing"
)

const zeroDigest = "0000000000000000000000000000000000000000"

// TestDigestRedisValues: without TTLs the digests are Redis's, bit for bit (the values
// redis-server 7.0.15 printed for the same datasets).
func TestDigestRedisValues(t *testing.T) {
	c := newWorld(t).conn(t)
	c.script(`
DEBUG DIGEST -> ` + zeroDigest + `
DEBUG DIGEST-VALUE -> []
DEBUG POPULATE 3 -> OK
DEBUG DIGEST -> f25db52166a7d712fb7362fd197165342e2b7442
DEBUG DIGEST-VALUE key:0 key:1 nokey -> [c15f34c747bf411833c10208c03e1da1bb7da7cf, ec4b7bec343ec862c8bd5dd8feab05ec1e9e6703, ` + zeroDigest + `]
SET n 12345 -> OK
SELECT 3 -> OK
SET x 1 -> OK
SET y hello -> OK
DEBUG DIGEST -> 04971759acbfa56c8fcda136265155666ec678a6
DEBUG DIGEST-VALUE n x y -> [` + zeroDigest + `, b4fc66738120fba0b5aa500ab5c2bf89cea1c5da, 36b23a1456b2dce2c3ed252c456761301dba8060]
`)
}

// TestDigestOrderIndependent: equal datasets have equal digests whatever the order of their
// writes, and any change of a key, a value, a TTL or a database changes it.
func TestDigestOrderIndependent(t *testing.T) {
	keys := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}
	build := func(order []string) (*world, *conn) {
		wd := newWorld(t)
		c := wd.conn(t)
		for _, k := range order {
			c.do("SET " + k + " v" + k)
		}
		return wd, c
	}
	rev := make([]string, len(keys))
	for i, k := range keys {
		rev[len(keys)-1-i] = k
	}
	_, c1 := build(keys)
	wd2, c2 := build(rev)
	base := c1.do("DEBUG DIGEST")
	if got := c2.do("DEBUG DIGEST"); got != base || len(base) != 40 || base == zeroDigest {
		t.Fatalf("digests of one dataset written in two orders: %s and %s", base, got)
	}
	seen := map[string]string{base: "the dataset"}
	change := func(what, line string) {
		t.Helper()
		c2.do(line)
		d := c2.do("DEBUG DIGEST")
		if prev, dup := seen[d]; dup {
			t.Errorf("%s: digest %s, as after %s", what, d, prev)
		}
		seen[d] = what
	}
	change("a value changed", "SET a other")
	c2.do("SET a va")
	if d := c2.do("DEBUG DIGEST"); d != base {
		t.Errorf("the same dataset again: %s, want %s", d, base)
	}
	change("a TTL added", "SET a va PX 100000")
	change("the TTL changed", "SET a va PX 200000")
	c2.do("SET a va") // no TTL: the base dataset
	change("a key added", "SET m vm")
	c2.do("DEL m")
	change("another key with that value", "SET n vm")
	c2.do("DEL n")
	if d := c2.do("DEBUG DIGEST"); d != base {
		t.Errorf("the same dataset again: %s, want %s", d, base)
	}
	// The same keys in database 1 instead of 0.
	wd3 := newWorld(t)
	c3 := wd3.conn(t)
	c3.do("SELECT 1")
	for _, k := range keys {
		c3.do("SET " + k + " v" + k)
	}
	if d := c3.do("DEBUG DIGEST"); d == base {
		t.Error("the dataset in another database has the same digest")
	}
	// A key past its time that is still there counts, and DIGEST does not remove it.
	c2.do("SET z vz PX 5")
	withZ := c2.do("DEBUG DIGEST")
	wd2.advance(10)
	if d := c2.do("DEBUG DIGEST"); d != withZ {
		t.Errorf("an expired key not yet removed: digest %s, before its time %s", d, withZ)
	}
	if v := c2.do("DEBUG DIGEST-VALUE z"); strings.Contains(v, zeroDigest) {
		t.Errorf("DIGEST-VALUE of an expired key not yet removed: %s", v)
	}
}
