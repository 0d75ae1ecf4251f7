// Package libtest runs the Lua libraries' data-driven cases: each case is a Lua expression
// whose results are rendered to one line by a renderer written in plain Lua, so the same
// script gives the same line in gopher-lua (with our libraries) and in a reference
// redis-server (through EVAL). `go test -run Ref` checks the expectations against
// redis-server when it is installed; `-rewrite` writes them from redis-server.
//
// Case file format: "# comment" lines and blank lines are ignored; "> EXPR" is a case, and
// the next line (always present: write "?" before -rewrite) is its expected rendering: the results separated by spaces (strings quoted
// with \ddd escapes, numbers as integers or mantissa "p" exponent, tables as {k=v,...}
// sorted, cjson.null as userdata), or "error: MESSAGE".
package libtest

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/kvserver/kvserver/internal/redisref"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the libraries' case files from redis-server's answers")

// renderer turns the results of a protected call into one line; plain Lua 5.1 that behaves the
// same in gopher-lua and in Redis's Lua.
const renderer = `local function rnum(v) ` +
	`if v ~= v then return 'nan' end ` +
	`if v == 1/0 then return 'inf' elseif v == -1/0 then return '-inf' end ` +
	`if v == math.floor(v) and v < 2^53 and v > -2^53 then return string.format('%.0f', v) end ` +
	`local m, e = math.frexp(v) return string.format('%.0f', m * 2^53) .. 'p' .. (e - 53) end ` +
	`local function rstr(s) return '"' .. (string.gsub(s, "[^%w %-%+%.,:;_/%[%]{}()=<>!?#$&*@|~^']", function(c) return string.format('\\%03d', string.byte(c)) end)) .. '"' end ` +
	`local render ` +
	`render = function(v, depth) local t = type(v) ` +
	`if t == 'string' then return rstr(v) elseif t == 'number' then return rnum(v) ` +
	`elseif t == 'table' then if depth > 20 then return '{...}' end local parts = {} ` +
	`for k, x in pairs(v) do parts[#parts + 1] = render(k, depth + 1) .. '=' .. render(x, depth + 1) end ` +
	`table.sort(parts) return '{' .. table.concat(parts, ',') .. '}' ` +
	`elseif t == 'boolean' then return tostring(v) else return t end end ` +
	`local function pack(...) return select('#', ...), {...} end `

// Script is the EVAL body that evaluates expr (on line 1, so that errors say user_script:1).
func Script(expr string) string {
	return renderer + `local n, r = pack(pcall(function() return ` + expr + "\n end)) " +
		`if not r[1] then return 'error: ' .. tostring(r[2]) end ` +
		`local out = {} for i = 2, n do out[#out + 1] = render(r[i], 0) end return table.concat(out, ' ')`
}

// Case is one expression and its expected line.
type Case struct {
	Line int
	Expr string
	Want string
}

// Load reads a case file.
func Load(t *testing.T, path string) []Case {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var cases []Case
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "> ") {
			continue
		}
		c := Case{Line: i + 1, Expr: l[2:]}
		if i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "> ") {
			c.Want = lines[i+1]
			i++
		}
		cases = append(cases, c)
	}
	return cases
}

// NewState is a gopher-lua state with the standard libraries and the given ones opened. Its
// data stack may grow past the 8000 slots C Lua allows a C function (cmsgpack.unpack can
// return 7999 values).
func NewState(open ...func(*lua.LState)) *lua.LState {
	L := lua.NewState(lua.Options{RegistrySize: 1024 * 20, RegistryMaxSize: 1024 * 80})
	for _, o := range open {
		o(L)
	}
	return L
}

// Eval runs Script(expr) in L as chunk "user_script" and returns its line.
func Eval(L *lua.LState, expr string) string {
	src := Script(expr)
	chunk, err := parse.Parse(strings.NewReader(src), "user_script")
	if err != nil {
		return "compile error: " + err.Error()
	}
	proto, err := lua.Compile(chunk, "user_script")
	if err != nil {
		return "compile error: " + err.Error()
	}
	L.Push(L.NewFunctionFromProto(proto))
	if err := L.PCall(0, 1, nil); err != nil {
		return "run error: " + err.Error()
	}
	v := L.Get(-1)
	L.Pop(1)
	return v.String()
}

// Run checks every case of the file against our libraries.
func Run(t *testing.T, path string, open ...func(*lua.LState)) {
	L := NewState(open...)
	defer L.Close()
	for _, c := range Load(t, path) {
		if got := Eval(L, c.Expr); got != c.Want {
			t.Errorf("%s:%d: %s\n got: %s\nwant: %s", path, c.Line, c.Expr, got, c.Want)
		}
	}
}

// RunRef checks every case of the file against redis-server (skipping when it is missing);
// with -rewrite it writes redis-server's lines into the file instead.
func RunRef(t *testing.T, path string) {
	rc := redisref.Start(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for _, c := range Load(t, path) {
		got := refLine(rc.Do("EVAL", Script(c.Expr), "0"))
		if *rewrite {
			if c.Line < len(lines) {
				lines[c.Line] = got
			}
			continue
		}
		if got != c.Want {
			t.Errorf("%s:%d: %s\nredis: %s\n want: %s", path, c.Line, c.Expr, got, c.Want)
		}
	}
	if *rewrite {
		out := strings.Join(lines, "\n")
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func refLine(v any) string {
	switch v := v.(type) {
	case []byte:
		return string(v)
	case error:
		return "redis error: " + v.Error()
	default:
		return fmt.Sprintf("redis reply: %v", v)
	}
}

// Differential evaluates every expression in our libraries and in redis-server (skipping when
// it is missing) and reports the first differences.
func Differential(t *testing.T, exprs []string, open ...func(*lua.LState)) {
	rc := redisref.Start(t)
	L := NewState(open...)
	defer L.Close()
	bad := 0
	for _, e := range exprs {
		want := refLine(rc.Do("EVAL", Script(e), "0"))
		if got := Eval(L, e); got != want {
			t.Errorf("%s\n  got: %s\nredis: %s", e, got, want)
			if bad++; bad == 10 {
				t.Fatal("too many differences")
			}
		}
	}
}

// LuaString is s as a Lua string literal (every byte that is not plainly printable as a
// decimal escape).
func LuaString(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '\\' || c == '\'' {
			b = fmt.Appendf(b, "\\%03d", c)
			continue
		}
		b = append(b, c)
	}
	return string(append(b, '\''))
}
