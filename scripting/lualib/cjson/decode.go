package cjson

import (
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/internal/clua"
)

// tokenType is json_token_type_t; its names appear in parse errors.
type tokenType uint8

const (
	tObjBegin tokenType = iota
	tObjEnd
	tArrBegin
	tArrEnd
	tString
	tNumber
	tBoolean
	tNull
	tColon
	tComma
	tEnd
	tWhitespace
	tError
	tUnknown
)

var tokenNames = [...]string{"T_OBJ_BEGIN", "T_OBJ_END", "T_ARR_BEGIN", "T_ARR_END", "T_STRING",
	"T_NUMBER", "T_BOOLEAN", "T_NULL", "T_COLON", "T_COMMA", "T_END", "T_WHITESPACE", "T_ERROR",
	"T_UNKNOWN"}

// ch2token is lua_cjson's first-byte table.
var ch2token = func() (t [256]tokenType) {
	for i := range t {
		t[i] = tError
	}
	t['{'], t['}'], t['['], t[']'], t[','], t[':'] = tObjBegin, tObjEnd, tArrBegin, tArrEnd, tComma, tColon
	t[0] = tEnd
	t[' '], t['\t'], t['\n'], t['\r'] = tWhitespace, tWhitespace, tWhitespace, tWhitespace
	for _, c := range "fiInNt\"+-0123456789" {
		t[c] = tUnknown
	}
	return t
}()

// escape2char is lua_cjson's table of the characters after a backslash ('u': \uXXXX).
var escape2char = func() (e [256]byte) {
	e['"'], e['\\'], e['/'], e['b'], e['t'] = '"', '\\', '/', '\b', '\t'
	e['n'], e['f'], e['r'], e['u'] = '\n', '\f', '\r', 'u'
	return e
}()

type token struct {
	typ   tokenType
	index int    // where the token starts (0-based)
	str   string // tString's value, or tError's reason
	num   float64
	b     bool
}

// parser is json_parse_t. The text reads as C's NUL-terminated string: data stops before the
// first NUL, and at() gives NUL past the end.
type parser struct {
	L     *lua.LState
	cfg   *config
	data  string
	ptr   int
	depth int
	tmp   []byte
}

func (p *parser) at(i int) byte {
	if i < len(p.data) {
		return p.data[i]
	}
	return 0
}

// decode is json_decode.
func decode(L *lua.LState, cfg *config) int {
	if L.GetTop() != 1 {
		clua.ArgError(L, 1, "expected 1 argument")
	}
	data := clua.CheckString(L, 1)
	if len(data) >= 2 && (data[0] == 0 || data[1] == 0) {
		clua.Errorf(L, "JSON parser does not support UTF-16 or UTF-32")
	}
	if i := strings.IndexByte(data, 0); i >= 0 {
		data = data[:i] // C reads up to the first NUL
	}
	p := parser{L: L, cfg: cfg, data: data}
	var tok token
	p.nextToken(&tok)
	v := p.value(&tok, 1)
	p.nextToken(&tok)
	if tok.typ != tEnd {
		p.throw("the end", &tok)
	}
	L.Push(v)
	return 1
}

// throw is json_throw_parse_error.
func (p *parser) throw(expected string, tok *token) {
	found := tokenNames[tok.typ]
	if tok.typ == tError {
		found = tok.str
	}
	clua.Errorf(p.L, "Expected %s but found %s at character %d", expected, found, tok.index+1)
}

func (p *parser) setError(tok *token, reason string) {
	tok.typ = tError
	tok.index = p.ptr
	tok.str = reason
}

// nextToken is json_next_token.
func (p *parser) nextToken(tok *token) {
	var ch byte
	for {
		ch = p.at(p.ptr)
		tok.typ = ch2token[ch]
		if tok.typ != tWhitespace {
			break
		}
		p.ptr++
	}
	tok.index = p.ptr
	switch tok.typ {
	case tError:
		p.setError(tok, "invalid token")
		return
	case tEnd:
		return
	case tUnknown:
	default:
		p.ptr++
		return
	}
	rest := p.data[p.ptr:]
	switch {
	case ch == '"':
		p.stringToken(tok)
	case ch == '-' || '0' <= ch && ch <= '9':
		if !p.cfg.decodeInvalid && invalidNumber(rest) {
			p.setError(tok, "invalid number")
			return
		}
		p.numberToken(tok, rest)
	case strings.HasPrefix(rest, "true"):
		tok.typ, tok.b = tBoolean, true
		p.ptr += 4
	case strings.HasPrefix(rest, "false"):
		tok.typ, tok.b = tBoolean, false
		p.ptr += 5
	case strings.HasPrefix(rest, "null"):
		tok.typ = tNull
		p.ptr += 4
	case p.cfg.decodeInvalid && invalidNumber(rest):
		p.numberToken(tok, rest)
	default:
		p.setError(tok, "invalid token")
	}
}

// invalidNumber is json_is_invalid_number: numbers strtod reads but JSON does not have (a
// leading '+', hexadecimal, leading zeros, inf, nan).
func invalidNumber(s string) bool {
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	i := 0
	if at(0) == '+' {
		return true
	}
	if at(0) == '-' {
		i++
	}
	if c := at(i); c == '0' {
		c2 := at(i + 1)
		return c2|0x20 == 'x' || '0' <= c2 && c2 <= '9'
	} else if c <= '9' {
		return false
	}
	r := s[i:]
	return len(r) >= 3 && (strings.EqualFold(r[:3], "inf") || strings.EqualFold(r[:3], "nan"))
}

// numberToken is json_next_number_token: strtod.
func (p *parser) numberToken(tok *token, rest string) {
	f, n := clua.Strtod(rest)
	if n == 0 {
		p.setError(tok, "invalid number")
		return
	}
	tok.typ, tok.num = tNumber, f
	p.ptr += n
}

// stringToken is json_next_string_token; p.ptr is at the opening quote.
func (p *parser) stringToken(tok *token) {
	p.ptr++
	// Without escapes the value is a piece of the text itself.
	if n := strings.IndexAny(p.data[p.ptr:], "\"\\"); n >= 0 && p.data[p.ptr+n] == '"' {
		tok.typ = tString
		tok.str = p.data[p.ptr : p.ptr+n]
		p.ptr += n + 1
		return
	}
	p.tmp = p.tmp[:0]
	for {
		ch := p.at(p.ptr)
		if ch == '"' {
			break
		}
		if ch == 0 {
			p.setError(tok, "unexpected end of string")
			return
		}
		if ch == '\\' {
			ch = escape2char[p.at(p.ptr+1)]
			if ch == 'u' {
				if p.unicodeEscape() {
					continue
				}
				p.setError(tok, "invalid unicode escape code")
				return
			}
			if ch == 0 {
				p.setError(tok, "invalid escape code")
				return
			}
			p.ptr++
		}
		p.tmp = append(p.tmp, ch)
		p.ptr++
	}
	p.ptr++
	tok.typ = tString
	tok.str = string(p.tmp)
}

func hexDigit(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}

// hex4 is decode_hex4 at i: -1 unless four hexadecimal digits.
func (p *parser) hex4(i int) int {
	v := 0
	for k := 0; k < 4; k++ {
		d := hexDigit(p.at(i + k))
		if d < 0 {
			return -1
		}
		v = v<<4 | d
	}
	return v
}

// unicodeEscape is json_append_unicode_escape: \uXXXX (a high surrogate must be followed by
// a low one) appended as UTF-8; false on a bad escape.
func (p *parser) unicodeEscape() bool {
	cp := p.hex4(p.ptr + 2)
	if cp < 0 {
		return false
	}
	n := 6
	if cp&0xF800 == 0xD800 {
		if cp&0x400 != 0 {
			return false
		}
		if p.at(p.ptr+6) != '\\' || p.at(p.ptr+7) != 'u' {
			return false
		}
		low := p.hex4(p.ptr + 8)
		if low < 0 || low&0xFC00 != 0xDC00 {
			return false
		}
		cp = ((cp&0x3FF)<<10 | low&0x3FF) + 0x10000
		n = 12
	}
	switch {
	case cp <= 0x7F:
		p.tmp = append(p.tmp, byte(cp))
	case cp <= 0x7FF:
		p.tmp = append(p.tmp, byte(cp>>6|0xC0), byte(cp&0x3F|0x80))
	case cp <= 0xFFFF:
		p.tmp = append(p.tmp, byte(cp>>12|0xE0), byte(cp>>6&0x3F|0x80), byte(cp&0x3F|0x80))
	default:
		p.tmp = append(p.tmp, byte(cp>>18|0xF0), byte(cp>>12&0x3F|0x80), byte(cp>>6&0x3F|0x80), byte(cp&0x3F|0x80))
	}
	p.ptr += n
	return true
}

// descend is json_decode_descend: one more level of nesting, within decode_max_depth and the
// Lua stack (stack slots held so far, plus slots this level needs).
func (p *parser) descend(stack, slots int) {
	p.depth++
	if p.depth <= p.cfg.decodeMaxDepth && stack+slots <= clua.MaxCStack {
		return
	}
	clua.Errorf(p.L, "Found too many nested data structures (%d) at character %d", p.depth, p.ptr)
}

// value is json_process_value; stack counts the Lua stack slots lua_cjson holds (the
// argument, 1 per enclosing array, 2 per enclosing object).
func (p *parser) value(tok *token, stack int) lua.LValue {
	switch tok.typ {
	case tString:
		return lua.LString(tok.str)
	case tNumber:
		return lua.LNumber(tok.num)
	case tBoolean:
		return lua.LBool(tok.b)
	case tObjBegin:
		return p.object(stack)
	case tArrBegin:
		return p.array(stack)
	case tNull:
		return Null
	}
	p.throw("value", tok)
	return nil
}

// object is json_parse_object_context, after the '{'.
func (p *parser) object(stack int) lua.LValue {
	p.descend(stack, 3)
	t := p.L.CreateTable(0, 0) // NewTable would preallocate both parts
	var tok token
	p.nextToken(&tok)
	if tok.typ == tObjEnd {
		p.depth--
		return t
	}
	for {
		if tok.typ != tString {
			p.throw("object key string", &tok)
		}
		key := lua.LString(tok.str)
		p.nextToken(&tok)
		if tok.typ != tColon {
			p.throw("colon", &tok)
		}
		p.nextToken(&tok)
		t.RawSet(key, p.value(&tok, stack+2))
		p.nextToken(&tok)
		if tok.typ == tObjEnd {
			p.depth--
			return t
		}
		if tok.typ != tComma {
			p.throw("comma or object end", &tok)
		}
		p.nextToken(&tok)
	}
}

// array is json_parse_array_context, after the '['.
func (p *parser) array(stack int) lua.LValue {
	p.descend(stack, 2)
	t := p.L.CreateTable(0, 0) // NewTable would preallocate both parts
	var tok token
	p.nextToken(&tok)
	if tok.typ == tArrEnd {
		p.depth--
		return t
	}
	for i := 1; ; i++ {
		t.RawSetInt(i, p.value(&tok, stack+1))
		p.nextToken(&tok)
		if tok.typ == tArrEnd {
			p.depth--
			return t
		}
		if tok.typ != tComma {
			p.throw("comma or array end", &tok)
		}
		p.nextToken(&tok)
	}
}
