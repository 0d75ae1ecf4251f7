package scripting

import (
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/resp"
)

// maxReturnDepth bounds the nesting of a script's result (a table holding itself would
// recurse forever): deeper values are written as Redis's "reached lua stack limit" error.
const maxReturnDepth = 1000

// writeReply writes a script's result v to w, as Redis 7.2's luaReplyToRedisReply. scriptResp
// is the protocol the script chose with redis.setresp: booleans follow it (RESP2 true → 1,
// false → null), the rest follows w's protocol (a map or a double is flattened or a bulk
// string for a RESP2 client).
func writeReply(w *resp.Writer, v lua.LValue, scriptResp, depth int) {
	if depth > maxReturnDepth {
		w.Error("reached lua stack limit")
		return
	}
	switch v := v.(type) {
	case lua.LString:
		w.BulkString(string(v))
	case lua.LBool:
		switch {
		case scriptResp == 2 && bool(v):
			w.Int(1)
		case scriptResp == 2:
			w.Null()
		default:
			w.Bool(bool(v))
		}
	case lua.LNumber:
		w.Int(luaToInt64(float64(v)))
	case *lua.LTable:
		writeTable(w, v, scriptResp, depth)
	default:
		w.Null()
	}
}

// luaToInt64 is C's (long long) cast of a double on x86-64: truncation, and the "integer
// indefinite" value for NaN and numbers out of range.
func luaToInt64(f float64) int64 {
	if math.IsNaN(f) || f >= 1<<63 || f < -(1<<63) {
		return math.MinInt64
	}
	return int64(f)
}

// writeTable writes a table: an error, status, double, big number, verbatim string, map or
// set reply when it has that field (looked up raw, in Redis's order), else an array of its
// elements 1, 2… up to the first nil.
func writeTable(w *resp.Writer, t *lua.LTable, scriptResp, depth int) {
	if s, ok := t.RawGetString("err").(lua.LString); ok {
		w.Error("-" + string(s))
		return
	}
	if s, ok := t.RawGetString("ok").(lua.LString); ok {
		w.Simple(string(s))
		return
	}
	if f, ok := t.RawGetString("double").(lua.LNumber); ok {
		w.Double(float64(f))
		return
	}
	if s, ok := t.RawGetString("big_number").(lua.LString); ok {
		w.BigNumber(strings.NewReplacer("\r", " ", "\n", " ").Replace(string(s)))
		return
	}
	if vt, ok := t.RawGetString("verbatim_string").(*lua.LTable); ok {
		format, okf := vt.RawGetString("format").(lua.LString)
		str, oks := vt.RawGetString("string").(lua.LString)
		if okf && oks {
			w.Verbatim(string(format), string(str))
			return
		}
	}
	if m, ok := t.RawGetString("map").(*lua.LTable); ok {
		w.Map(countPairs(m))
		for k, v := m.Next(lua.LNil); k != lua.LNil; k, v = m.Next(k) {
			writeReply(w, k, scriptResp, depth+1)
			writeReply(w, v, scriptResp, depth+1)
		}
		return
	}
	if s, ok := t.RawGetString("set").(*lua.LTable); ok {
		w.Set(countPairs(s))
		for k, _ := s.Next(lua.LNil); k != lua.LNil; k, _ = s.Next(k) {
			writeReply(w, k, scriptResp, depth+1)
		}
		return
	}
	n := 0
	for t.RawGetInt(n+1) != lua.LNil {
		n++
	}
	w.Array(n)
	for i := 1; i <= n; i++ {
		writeReply(w, t.RawGetInt(i), scriptResp, depth+1)
	}
}

// countPairs counts a table's pairs. Maps and sets are walked with Next, in gopher-lua's
// order (the array part, then keys in insertion order), so that a reply does not change from
// run to run — C Lua's order is its hash's, which no client may rely on either.
func countPairs(t *lua.LTable) int {
	n := 0
	for k, _ := t.Next(lua.LNil); k != lua.LNil; k, _ = t.Next(k) {
		n++
	}
	return n
}
