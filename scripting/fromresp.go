package scripting

import (
	"errors"
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"
)

// errProtocol is a reply parseReply cannot read. Replies come from the server's own writer,
// so it only shows a bug; the fuzz test checks that no input makes the parser fail otherwise.
var errProtocol = errors.New("malformed reply")

// maxReplyDepth bounds the nesting parseReply follows (Redis's reply parser recurses too,
// bounded by the Lua stack).
const maxReplyDepth = 1000

// parseReply converts one RESP2/RESP3 reply at the start of b into a Lua value, as Redis 7.2's
// redisProtocolToLuaType: integer → number, bulk → string, null bulk and null array → false,
// status → {ok=s}, error → {err=s}, array → table; RESP3: null → nil, boolean → boolean,
// double → {double=n}, map → {map={k=v…}}, set → {set={m=true…}}, big number →
// {big_number=s}, verbatim → {verbatim_string={format=f, string=s}}, attributes skipped. It
// returns the value and the bytes it read.
func parseReply(L *lua.LState, b []byte) (lua.LValue, int, error) {
	return parseValue(L, b, 0)
}

func parseValue(L *lua.LState, b []byte, depth int) (lua.LValue, int, error) {
	if len(b) < 3 || depth > maxReplyDepth {
		return lua.LNil, 0, errProtocol
	}
	line, n := readLine(b)
	if n < 0 {
		return lua.LNil, 0, errProtocol
	}
	body := line[1:]
	switch b[0] {
	case ':':
		v, err := strconv.ParseInt(string(body), 10, 64)
		if err != nil {
			return lua.LNil, 0, errProtocol
		}
		return lua.LNumber(v), n, nil
	case '+':
		t := L.CreateTable(0, 1)
		t.RawSetString("ok", lua.LString(body))
		return t, n, nil
	case '-':
		t := L.CreateTable(0, 2)
		t.RawSetString("err", lua.LString(errorText("-"+string(body))))
		return t, n, nil
	case '$', '=':
		size, ok := parseLen(body)
		if !ok {
			return lua.LNil, 0, errProtocol
		}
		if size < 0 {
			if b[0] == '=' {
				return lua.LNil, 0, errProtocol
			}
			return lua.LFalse, n, nil
		}
		if len(b)-n < size+2 || b[n+size] != '\r' || b[n+size+1] != '\n' {
			return lua.LNil, 0, errProtocol
		}
		s := b[n : n+size]
		if b[0] == '$' {
			return lua.LString(s), n + size + 2, nil
		}
		if size < 4 || s[3] != ':' {
			return lua.LNil, 0, errProtocol
		}
		inner := L.CreateTable(0, 2)
		inner.RawSetString("string", lua.LString(s[4:]))
		inner.RawSetString("format", lua.LString(s[:3]))
		t := L.CreateTable(0, 1)
		t.RawSetString("verbatim_string", inner)
		return t, n + size + 2, nil
	case '*', '~', '%', '|', '>':
		count, ok := parseLen(body)
		if !ok {
			return lua.LNil, 0, errProtocol
		}
		if count < 0 {
			if b[0] != '*' {
				return lua.LNil, 0, errProtocol
			}
			return lua.LFalse, n, nil
		}
		return parseAggregate(L, b, n, b[0], count, depth)
	case '_':
		if len(body) != 0 {
			return lua.LNil, 0, errProtocol
		}
		return lua.LNil, n, nil
	case '#':
		if len(body) != 1 || (body[0] != 't' && body[0] != 'f') {
			return lua.LNil, 0, errProtocol
		}
		return lua.LBool(body[0] == 't'), n, nil
	case ',':
		f, ok := parseDouble(string(body))
		if !ok {
			return lua.LNil, 0, errProtocol
		}
		t := L.CreateTable(0, 1)
		t.RawSetString("double", lua.LNumber(f))
		return t, n, nil
	case '(':
		t := L.CreateTable(0, 1)
		t.RawSetString("big_number", lua.LString(body))
		return t, n, nil
	}
	return lua.LNil, 0, errProtocol
}

// parseAggregate reads the elements of an array, set, map, attribute or push whose header
// (count elements, or pairs for a map and an attribute) ended at off.
func parseAggregate(L *lua.LState, b []byte, off int, kind byte, count, depth int) (lua.LValue, int, error) {
	// Every element takes at least 3 bytes: refuse counts the input cannot hold before
	// making a table that size.
	if count > (len(b)-off)/3 {
		return lua.LNil, 0, errProtocol
	}
	var t *lua.LTable
	switch kind {
	case '*', '>':
		t = L.CreateTable(count, 0)
	case '~', '%':
		t = L.CreateTable(0, count)
	}
	for i := 0; i < count; i++ {
		v, m, err := parseValue(L, b[off:], depth+1)
		if err != nil {
			return lua.LNil, 0, err
		}
		off += m
		switch kind {
		case '*', '>':
			t.RawSetInt(i+1, v)
		case '~':
			if v != lua.LNil {
				t.RawSet(v, lua.LTrue)
			}
		case '%', '|':
			k := v
			v, m, err = parseValue(L, b[off:], depth+1)
			if err != nil {
				return lua.LNil, 0, err
			}
			off += m
			if kind == '%' && k != lua.LNil {
				if f, isNum := k.(lua.LNumber); !isNum || !math.IsNaN(float64(f)) {
					t.RawSet(k, v)
				}
			}
		}
	}
	switch kind {
	case '|':
		// Attributes are not shown to scripts: the reply after them is the value.
		v, m, err := parseValue(L, b[off:], depth+1)
		if err != nil {
			return lua.LNil, 0, err
		}
		return v, off + m, nil
	case '~':
		w := L.CreateTable(0, 1)
		w.RawSetString("set", t)
		return w, off, nil
	case '%':
		w := L.CreateTable(0, 1)
		w.RawSetString("map", t)
		return w, off, nil
	}
	return t, off, nil
}

// readLine returns b's first line with its type byte (without CRLF) and the bytes up to after
// the CRLF, or -1 when there is none.
func readLine(b []byte) ([]byte, int) {
	for i := 1; i+1 < len(b); i++ {
		if b[i] == '\r' {
			if b[i+1] != '\n' {
				return nil, -1
			}
			return b[:i], i + 2
		}
	}
	return nil, -1
}

// parseLen reads a length: -1 or a non-negative decimal.
func parseLen(b []byte) (int, bool) {
	if len(b) == 2 && b[0] == '-' && b[1] == '1' {
		return -1, true
	}
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseDouble reads a RESP3 double: a decimal, inf, -inf or nan.
func parseDouble(s string) (float64, bool) {
	switch s {
	case "inf", "+inf":
		return math.Inf(1), true
	case "-inf":
		return math.Inf(-1), true
	case "nan", "-nan":
		return math.NaN(), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
