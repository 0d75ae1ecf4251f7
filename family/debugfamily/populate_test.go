package debugfamily

import (
	"strconv"
	"testing"
)

// TestPopulate: Redis's names, values and sizes; existing keys left alone; the count and
// size errors.
func TestPopulate(t *testing.T) {
	wd := newWorld(t)
	c := wd.conn(t)
	c.script(`
SET key:1 mine -> OK
SET key:2 old PX 5 -> OK
`)
	wd.advance(10)
	c.script(`
DEBUG POPULATE 4 -> OK
GET key:0 -> "value:0"
GET key:1 -> "mine"
GET key:2 -> "value:2"
GET key:3 -> "value:3"
GET key:4 -> (nil)
DEBUG POPULATE 2 foo 20 -> OK
GET foo:1 -> "value:1\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
DEBUG POPULATE 2 bar 3 -> OK
GET bar:1 -> "val"
DEBUG POPULATE 1 zero 0 -> OK
GET zero:0 -> "value:0"
DEBUG POPULATE 0 -> OK
DEBUG POPULATE 9223372036854775807 -> (error) ERR OOM in dictTryExpand
DEBUG POPULATE -1 -> (error) ERR value is out of range, must be positive
DEBUG POPULATE x -> (error) ERR value is out of range, must be positive
DEBUG POPULATE 1 p -1 -> (error) ERR value is out of range, must be positive
DEBUG POPULATE 1 p x -> (error) ERR value is out of range, must be positive
DEBUG POPULATE -> (error) ERR unknown subcommand or wrong number of arguments for 'POPULATE'. Try DEBUG HELP.
DEBUG POPULATE 1 p 1 1 -> (error) ERR unknown subcommand or wrong number of arguments for 'POPULATE'. Try DEBUG HELP.
SELECT 2 -> OK
DEBUG POPULATE 1 -> OK
GET key:0 -> "value:0"
`)
	c.do("SELECT 0")
	c.do("DEBUG POPULATE 1000")
	var n int64
	for i := range testShards {
		n += wd.ks.Shard(i).DBSizeLocked(0)
	}
	if n != 1000+2+2+1 {
		t.Errorf("%d keys in database 0 after POPULATE 1000", n)
	}
	if got := c.do("GET key:999"); got != strconv.Quote("value:999") {
		t.Errorf("key:999 = %s", got)
	}
}

func TestPopulateValue(t *testing.T) {
	for _, tc := range []struct {
		j, size int64
		want    string
	}{
		{7, 0, "value:7"}, {7, 7, "value:7"}, {7, 3, "val"}, {7, 9, "value:7\x00\x00"}, {123, 1, "v"},
	} {
		if got := string(populateValue(nil, tc.j, tc.size)); got != tc.want {
			t.Errorf("populateValue(%d, %d) = %q, want %q", tc.j, tc.size, got, tc.want)
		}
	}
}
