package scripting

import (
	"bytes"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/resp"
)

// FuzzParseReply feeds arbitrary bytes to the RESP → Lua parser: it must never panic nor read
// past its input, and a reply it accepts must say how many bytes it read. For the RESP it
// accepts, writing the Lua value back as a RESP3 script result and parsing that again must
// give the same value (the two conversions agree).
func FuzzParseReply(f *testing.F) {
	for _, r := range replies {
		f.Add([]byte(r))
	}
	for _, s := range []string{
		"*2\r\n*1\r\n:1\r\n$-1\r\n", "%1\r\n*1\r\n:1\r\n:2\r\n", "~1\r\n_\r\n", "*-1\r\n",
		"$5\r\nab\r\n", "*99999999\r\n", ":x\r\n", ",nan\r\n", "=3\r\ntxt\r\n", "|1\r\n:1\r\n",
		"%1\r\n,nan\r\n:1\r\n", ">2\r\n:1\r\n:2\r\n",
	} {
		f.Add([]byte(s))
	}
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	f.Fuzz(func(t *testing.T, b []byte) {
		if longNumber(b) {
			// An integer map key or set member becomes a Lua array index: gopher-lua fills
			// its array part up to it (as a script's t[60000000] = 1 would). Real replies do
			// not key maps by huge integers; the fuzzer would only measure the allocator.
			return
		}
		v, n, err := parseReply(L, b)
		if err != nil {
			return
		}
		if n <= 0 || n > len(b) {
			t.Fatalf("read %d of %d bytes", n, len(b))
		}
		// Round trip: Lua → RESP3 → Lua → RESP3 gives the same bytes (maps and sets of one
		// element at most, as Lua's order of pairs is not the reply's).
		if !smallAggregates(v, 0) {
			return
		}
		var w1, w2 resp.Writer
		w1.SetProto(3)
		w2.SetProto(3)
		writeReply(&w1, v, 3, 0)
		v2, _, err := parseReply(L, w1.Bytes())
		if err != nil {
			t.Fatalf("the writer's %q does not parse: %v", w1.Bytes(), err)
		}
		writeReply(&w2, v2, 3, 0)
		if !bytes.Equal(w1.Bytes(), w2.Bytes()) {
			t.Fatalf("round trip of %q: %q then %q", b, w1.Bytes(), w2.Bytes())
		}
	})
}

// smallAggregates reports whether every map and set in v has at most one element.
func smallAggregates(v lua.LValue, depth int) bool {
	t, ok := v.(*lua.LTable)
	if !ok {
		return true
	}
	if depth > 50 {
		return false
	}
	for _, field := range []string{"map", "set"} {
		if inner, ok := t.RawGetString(field).(*lua.LTable); ok {
			n := 0
			good := true
			inner.ForEach(func(k, v lua.LValue) {
				n++
				good = good && smallAggregates(k, depth+1) && smallAggregates(v, depth+1)
			})
			return n <= 1 && good
		}
	}
	good := true
	t.ForEach(func(_, v lua.LValue) { good = good && smallAggregates(v, depth+1) })
	return good
}

// longNumber reports whether b holds a run of more than 6 digits.
func longNumber(b []byte) bool {
	run := 0
	for _, c := range b {
		if c >= '0' && c <= '9' {
			run++
			if run > 6 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}
