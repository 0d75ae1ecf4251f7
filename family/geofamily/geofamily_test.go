package geofamily

import (
	"strconv"
	"testing"
)

// TestGeoaddEvents: GEOADD's events are ZADD's (`new` for a created key, then `zadd`), and
// none when nothing changed; XX on a missing key creates nothing.
func TestGeoaddEvents(t *testing.T) {
	h := newHarness(t)
	h.Expect(":2\r\n", "GEOADD", "g", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania")
	h.ExpectEvents("new g, zadd g")
	h.Expect(":0\r\n", "GEOADD", "g", "13.361389", "38.115556", "Palermo")
	h.ExpectEvents("")
	h.Expect(":1\r\n", "GEOADD", "g", "CH", "13", "38", "Palermo")
	h.ExpectEvents("zadd g")
	h.Expect(":0\r\n", "GEOADD", "missing", "XX", "13", "38", "a")
	h.ExpectEvents("")
	h.Expect("$-1\r\n", "GET", "missing") // no key (GET would answer WRONGTYPE on a sorted set)
	h.Expect("-ERR invalid longitude,latitude pair 13.000000,86.000000\r\n", "GEOADD", "g", "13", "38", "x", "13", "86", "y")
	h.ExpectEvents("")
	h.Expect("*2\r\n*-1\r\n*-1\r\n", "GEOPOS", "g", "x", "y")
}

// TestStoreEvents: the stored result in another shard than the source's, its events, the
// replaced value of another type, and the deletion of an empty result.
func TestStoreEvents(t *testing.T) {
	h := newHarness(t)
	keys := h.KeysInShards("k", 2)
	src, dst := keys[0], keys[1]
	h.Do("GEOADD", src, "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania")
	h.TakeEvents()
	h.Expect("+OK\r\n", "SET", dst, "string")
	h.TakeEvents()
	h.Expect(":2\r\n", "GEOSEARCHSTORE", dst, src, "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC")
	h.ExpectEvents("geosearchstore " + dst)
	h.Expect("*2\r\n$7\r\nCatania\r\n$7\r\nPalermo\r\n", "GEOSEARCH", dst, "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC")
	h.Expect("$11\r\n166274.1516\r\n", "GEODIST", dst, "Palermo", "Catania")
	h.Expect(":1\r\n", "GEORADIUS", src, "15", "37", "100", "km", "STOREDIST", dst)
	h.ExpectEvents("georadiusstore " + dst)
	h.Expect(":0\r\n", "GEORADIUS", src, "0", "0", "1", "km", "STORE", dst)
	h.ExpectEvents("del " + dst)
	h.Expect("$-1\r\n", "GET", dst)
	h.Expect(":0\r\n", "GEORADIUS", src, "0", "0", "1", "km", "STORE", dst)
	h.ExpectEvents("")
	h.Expect(":2\r\n", "GEORADIUSBYMEMBER", src, "Palermo", "200", "km", "STORE", dst)
	h.ExpectEvents("new " + dst + ", georadiusstore " + dst)
	h.Expect(":0\r\n", "GEOSEARCHSTORE", dst, "nokey", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km")
	h.ExpectEvents("del " + dst)
}

// TestWrongType: the source's type is checked before any argument (as Redis looks it up
// first); a destination of another type is replaced.
func TestWrongType(t *testing.T) {
	h := newHarness(t)
	h.Do("SET", "s", "v")
	const wrong = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"
	h.Expect(wrong, "GEORADIUS", "s", "x", "0", "1", "km", "BADOPTION")
	h.Expect(wrong, "GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km", "BADOPTION")
	h.Expect(wrong, "GEOADD", "s", "1", "2", "a")
	h.Expect("-ERR value is not a valid float\r\n", "GEOADD", "s", "x", "2", "a")
	h.Expect("-ERR unsupported unit provided. please use M, KM, FT, MI\r\n", "GEODIST", "s", "a", "b", "yd")
}

// TestGeosearchName: GEOSEARCH's errors name the command as the client typed it.
func TestGeosearchName(t *testing.T) {
	h := newHarness(t)
	h.Expect("-ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for geoSearch\r\n",
		"geoSearch", "g", "BYRADIUS", "1", "km", "ASC", "WITHDIST")
}

// TestResp3: coordinates are doubles in RESP3, distances stay bulk strings.
func TestResp3(t *testing.T) {
	h := newHarness(t)
	h.Do("GEOADD", "g", "13.361389", "38.115556", "Palermo")
	h.W.SetProto(3)
	defer h.W.SetProto(2)
	h.Expect("*1\r\n*3\r\n$7\r\nPalermo\r\n$6\r\n0.0000\r\n*2\r\n,13.36138933897018433\r\n,38.11555639549629859\r\n",
		"GEOSEARCH", "g", "FROMMEMBER", "Palermo", "BYRADIUS", "1", "km", "WITHDIST", "WITHCOORD")
	h.Expect("*2\r\n*2\r\n,13.36138933897018433\r\n,38.11555639549629859\r\n_\r\n", "GEOPOS", "g", "Palermo", "x")
}

// TestEncodings: GEOADD converts as ZADD does (more members than zset-max-listpack-entries in
// one command, or a long member, make a skiplist), and searches read both encodings alike.
func TestEncodings(t *testing.T) {
	h := newHarness(t)
	add := func(key string, from, n int, lat float64) {
		args := []string{"GEOADD", key}
		for i := from; i < from+n; i++ {
			args = append(args, ftoa(13+float64(i%50)*0.01), ftoa(lat+float64(i/50)*0.01), "m"+strconv.Itoa(i))
		}
		h.Do(args...)
	}
	add("small", 0, 100, 37)
	add("small", 100, 28, 37)
	add("big", 0, 100, 37)
	add("big", 100, 28, 37)
	add("big", 1000, 100, 60) // 100 more, far away, in one command: converted first
	h.Expect("$8\r\nlistpack\r\n", "OBJECT", "ENCODING", "small")
	h.Expect("$8\r\nskiplist\r\n", "OBJECT", "ENCODING", "big")
	q := func(key string) string {
		return h.Do("GEOSEARCH", key, "FROMLONLAT", "13.2", "37.01", "BYRADIUS", "5", "km", "WITHDIST", "WITHHASH", "ASC")
	}
	if a, b := q("small"), q("big"); a != b || len(a) < 100 {
		t.Errorf("listpack and skiplist disagree:\n%q\n%q", a, b)
	}
}
