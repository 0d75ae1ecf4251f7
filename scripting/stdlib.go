package scripting

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Library functions of gopher-lua that differ from Lua 5.1's in what a script sees, redone as
// Lua's: string.format, string.rep, table.concat.

// strFormat is Lua 5.1's string.format (lstrlib.c str_format), which gopher-lua hands to Go's
// fmt.Sprintf as it is: C's conversions and their limits are kept here — width and precision
// of two digits at most (a bigger one would make the server allocate what the script asks),
// %s of a number as Lua writes numbers (%.14g), %q, %i, %u, the errors in Lua's words.
func strFormat(L *lua.LState) int {
	f := L.CheckString(1)
	top := L.GetTop()
	arg := 1
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		arg++
		if arg > top {
			argError(L, arg, "no value")
		}
		spec, n := scanFormat(L, f[i:])
		i += n
		if i >= len(f) {
			L.RaiseError("invalid option '%%' to 'format'")
		}
		verb := f[i]
		switch verb {
		case 'c':
			b.WriteByte(byte(luaToInt64(checkNumber(L, arg))))
		case 'd', 'i':
			fmt.Fprintf(&b, "%"+spec+"d", luaToInt64(checkNumber(L, arg)))
		case 'o', 'u', 'x', 'X':
			v := uint64(luaToInt64(checkNumber(L, arg)))
			if verb == 'u' {
				verb = 'd'
			}
			fmt.Fprintf(&b, "%"+spec+string(verb), v)
		case 'e', 'E', 'f', 'g', 'G':
			x := checkNumber(L, arg)
			if math.IsInf(x, 0) || math.IsNaN(x) {
				// C writes inf, -inf, nan padded with spaces: no zeros, no precision.
				width, _, _ := strings.Cut(spec, ".")
				b.WriteString(padString(formatNumber(x), width))
				break
			}
			if (verb == 'g' || verb == 'G') && !strings.Contains(spec, ".") {
				spec += ".6" // C's default precision; Go's %g would write the shortest form
			}
			fmt.Fprintf(&b, "%"+spec+string(verb), x)
		case 'q':
			addQuoted(&b, checkString(L, arg))
		case 's':
			s := checkString(L, arg)
			if !strings.Contains(spec, ".") && len(s) >= 100 {
				b.WriteString(s) // Lua keeps a long string whole, without formatting
				break
			}
			b.WriteString(padString(s, spec))
		default:
			L.RaiseError("invalid option '%%%c' to 'format'", verb)
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// scanFormat reads a conversion's flags, width and precision (lstrlib.c scanformat): at most
// five flags of "-+ #0", two digits of width, two of precision. It returns them and their
// length.
func scanFormat(L *lua.LState, s string) (string, int) {
	const flags = "-+ #0"
	i := 0
	for i < len(s) && strings.IndexByte(flags, s[i]) >= 0 {
		i++
	}
	if i > len(flags) {
		L.RaiseError("invalid format (repeated flags)")
	}
	digits := func() {
		for n := 0; n < 2 && i < len(s) && s[i] >= '0' && s[i] <= '9'; n++ {
			i++
		}
	}
	digits()
	if i < len(s) && s[i] == '.' {
		i++
		digits()
	}
	if i < len(s) && s[i] >= '0' && s[i] <= '9' {
		L.RaiseError("invalid format (width or precision too long)")
	}
	return s[:i], i
}

// checkNumber is luaL_checknumber: a number, or a string that reads as one.
func checkNumber(L *lua.LState, n int) float64 {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		return float64(v)
	case lua.LString:
		if f, ok := stringToNumber(string(v)); ok {
			return f
		}
	}
	argError(L, n, "number expected, got "+luaTypeName(L.Get(n)))
	return 0
}

// checkString is luaL_checklstring: a string, or a number written as Lua writes it.
func checkString(L *lua.LState, n int) string {
	switch v := L.Get(n).(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return formatNumber(float64(v))
	}
	argError(L, n, "string expected, got "+luaTypeName(L.Get(n)))
	return ""
}

// argError is luaL_argerror for string.format: "bad argument #2 to 'format' (...)".
func argError(L *lua.LState, n int, msg string) {
	L.RaiseError("bad argument #%d to 'format' (%s)", n, msg)
}

// luaTypeName is lua_typename of a value ("no value" is not one: the caller checked).
func luaTypeName(v lua.LValue) string { return v.Type().String() }

// stringToNumber reads a numeric string as Lua 5.1's luaO_str2d: strtod's forms, or a
// hexadecimal integer, with blanks around.
func stringToNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		n, err := strconv.ParseUint(s[2:], 16, 64)
		return float64(n), err == nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}

// padString applies a %s conversion's flags, width and precision, counting bytes as C does
// (Go's fmt counts runes).
func padString(s, spec string) string {
	left := strings.Contains(spec, "-")
	rest := strings.TrimLeft(spec, "-+ #0")
	width, prec := 0, -1
	w, p, hasPrec := strings.Cut(rest, ".")
	for _, c := range w {
		width = width*10 + int(c-'0')
	}
	if hasPrec {
		prec = 0
		for _, c := range p {
			prec = prec*10 + int(c-'0')
		}
		if prec < len(s) {
			s = s[:prec]
		}
	}
	if pad := width - len(s); pad > 0 {
		if left {
			return s + strings.Repeat(" ", pad)
		}
		return strings.Repeat(" ", pad) + s
	}
	return s
}

// addQuoted is %q (lstrlib.c addquoted).
func addQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '\n':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\r':
			b.WriteString("\\r")
		case 0:
			b.WriteString("\\000")
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// tableConcat is Lua 5.1's table.concat(t [, sep [, i [, j]]]) (ltablib.c tconcat): numbers
// written as Lua writes them (%.14g), no clamping of i and j to the table's length, Redis's
// words for a value that is neither a string nor a number.
func tableConcat(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := ""
	if L.GetTop() >= 2 && L.Get(2) != lua.LNil {
		sep = checkStringArg(L, 2, "concat")
	}
	i, j := 1, t.Len()
	if L.GetTop() >= 3 && L.Get(3) != lua.LNil {
		i = int(luaToInt64(checkNumberArg(L, 3, "concat")))
	}
	if L.GetTop() >= 4 && L.Get(4) != lua.LNil {
		j = int(luaToInt64(checkNumberArg(L, 4, "concat")))
	}
	var b strings.Builder
	for k := i; k <= j; k++ {
		switch v := t.RawGetInt(k).(type) {
		case lua.LString:
			b.WriteString(string(v))
		case lua.LNumber:
			b.WriteString(formatNumber(float64(v)))
		default:
			L.RaiseError("invalid value (%s) at index %d in table for 'concat'", v.Type().String(), k)
		}
		if k != j {
			b.WriteString(sep)
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// checkStringArg and checkNumberArg are checkString and checkNumber for function fn.
func checkStringArg(L *lua.LState, n int, fn string) string {
	switch v := L.Get(n).(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return formatNumber(float64(v))
	}
	L.RaiseError("bad argument #%d to '%s' (string expected, got %s)", n, fn, luaTypeName(L.Get(n)))
	return ""
}

func checkNumberArg(L *lua.LState, n int, fn string) float64 {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		return float64(v)
	case lua.LString:
		if f, ok := stringToNumber(string(v)); ok {
			return f
		}
	}
	L.RaiseError("bad argument #%d to '%s' (number expected, got %s)", n, fn, luaTypeName(L.Get(n)))
	return 0
}

// maxStringRep bounds string.rep's result: gopher-lua would ask Go for the whole string at
// once, and a failed allocation ends the process where C Lua's raises "not enough memory".
const maxStringRep = 512 << 20

// strRep is string.rep(s, n) with that bound.
func strRep(L *lua.LState) int {
	s := L.CheckString(1)
	n := L.CheckInt(2)
	if n <= 0 || s == "" {
		L.Push(lua.LString(""))
		return 1
	}
	if n > maxStringRep/len(s) {
		L.RaiseError("not enough memory")
	}
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}

// tableForeach is Lua 5.1's deprecated table.foreach(t, f): f(k, v) for each pair until it
// returns a value, which is returned.
func tableForeach(L *lua.LState) int {
	t := L.CheckTable(1)
	f := L.CheckFunction(2)
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		L.Push(f)
		L.Push(k)
		L.Push(v)
		L.Call(2, 1)
		if r := L.Get(-1); r != lua.LNil {
			return 1
		}
		L.Pop(1)
	}
	return 0
}

// tableForeachi is table.foreachi(t, f): f(i, t[i]) for i = 1..#t, as tableForeach.
func tableForeachi(L *lua.LState) int {
	t := L.CheckTable(1)
	f := L.CheckFunction(2)
	n := t.Len()
	for i := 1; i <= n; i++ {
		L.Push(f)
		L.Push(lua.LNumber(i))
		L.Push(t.RawGetInt(i))
		L.Call(2, 1)
		if r := L.Get(-1); r != lua.LNil {
			return 1
		}
		L.Pop(1)
	}
	return 0
}

// tableSetn is table.setn, which Lua 5.1 keeps only to refuse.
func tableSetn(L *lua.LState) int {
	L.RaiseError("'setn' is obsolete")
	return 0
}

// maxUnpack is the most values unpack returns: Lua 5.1's C stack limit (LUAI_MAXCSTACK).
const maxUnpack = 8000

// baseUnpack is Lua 5.1's unpack(t [, i [, j]]) with its bound ("too many results to unpack"),
// where gopher-lua would push as many values as asked.
func baseUnpack(L *lua.LState) int {
	t := L.CheckTable(1)
	i, j := int64(1), int64(t.Len())
	if L.GetTop() >= 2 && L.Get(2) != lua.LNil {
		i = luaToInt64(checkNumberArg(L, 2, "unpack"))
	}
	if L.GetTop() >= 3 && L.Get(3) != lua.LNil {
		j = luaToInt64(checkNumberArg(L, 3, "unpack"))
	}
	if i > j {
		return 0
	}
	if j-i >= maxUnpack || j-i < 0 {
		L.RaiseError("too many results to unpack")
	}
	for k := i; k <= j; k++ {
		L.Push(t.RawGetInt(int(k)))
	}
	return int(j - i + 1)
}

// collectGarbage is collectgarbage([opt [, arg]]) without a collection: gopher-lua's runs Go's
// runtime.GC, a stop-the-world pause of the whole server that any script could repeat. Go's
// collector runs on its own; the answers are Lua 5.1's shapes ("count": the state's size in
// KB, "step": false, "setpause"/"setstepmul": the previous value, 200, else 0).
func collectGarbage(L *lua.LState) int {
	opt := "collect"
	if s, ok := L.Get(1).(lua.LString); ok {
		opt = string(s)
	}
	switch opt {
	case "count":
		L.Push(lua.LNumber(stateMemory) / 1024)
	case "step":
		L.Push(lua.LFalse)
	case "setpause", "setstepmul":
		L.Push(lua.LNumber(200))
	case "collect", "stop", "restart":
		L.Push(lua.LNumber(0))
	default:
		L.RaiseError("bad argument #1 to 'collectgarbage' (invalid option '%s')", opt)
	}
	return 1
}
