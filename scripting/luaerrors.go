package scripting

import (
	"reflect"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// gopher-lua words its runtime errors in its own way ("attempt to index a non-table
// object(nil) with key 'x'"); Redis's clients see Lua 5.1's ("attempt to index local 't' (a
// nil value)"). luaRuntimeError rewrites the common ones — index, call, arithmetic,
// concatenation — naming the variable as Lua's ldebug.c getobjname does (a local, a global,
// a field, an upvalue or a method), from the failing instruction of the frame that raised.

// frameInfo is what the error handler reads of the frame that raised: its function, the
// index of the failing instruction and the base of its registers. gopher-lua keeps them in
// the unexported callFrame of a Debug; they are read with reflect (gopher-lua v1.1.2's
// layout), and any surprise makes the handler keep gopher-lua's words.
type frameInfo struct {
	proto *lua.FunctionProto
	pc    int
	base  int
}

// readFrame reads dbg's frame, or returns false.
func readFrame(dbg *lua.Debug) (fi frameInfo, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	frame := reflect.ValueOf(dbg).Elem().FieldByName("frame")
	if !frame.IsValid() || frame.IsNil() {
		return fi, false
	}
	f := frame.Elem()
	fn := f.FieldByName("Fn")
	if fn.IsNil() {
		return fi, false
	}
	lf := (*lua.LFunction)(fn.UnsafePointer())
	if lf.IsG || lf.Proto == nil {
		return fi, false
	}
	fi = frameInfo{proto: lf.Proto, pc: int(f.FieldByName("Pc").Int()) - 1, base: int(f.FieldByName("LocalBase").Int())}
	return fi, fi.pc >= 0 && fi.pc < len(fi.proto.Code)
}

// registerType returns the Lua type name of register r of a frame at base, or "".
func registerType(L *lua.LState, base, r int) (name string) {
	defer func() {
		if recover() != nil {
			name = ""
		}
	}()
	arr := reflect.ValueOf(L).Elem().FieldByName("reg").Elem().FieldByName("array")
	i := base + r
	if i < 0 || i >= arr.Len() {
		return ""
	}
	v := arr.Index(i)
	if v.IsNil() {
		return "nil"
	}
	switch v.Elem().Type() {
	case reflect.TypeOf(lua.LNil):
		return "nil"
	case reflect.TypeOf(lua.LTrue):
		return "boolean"
	case reflect.TypeOf(lua.LNumber(0)):
		return "number"
	case reflect.TypeOf(lua.LString("")):
		return "string"
	case reflect.TypeOf(&lua.LTable{}):
		return "table"
	case reflect.TypeOf(&lua.LFunction{}):
		return "function"
	case reflect.TypeOf(&lua.LUserData{}):
		return "userdata"
	case reflect.TypeOf(&lua.LState{}):
		return "thread"
	}
	return ""
}

// Instruction fields, as gopher-lua encodes them (opcode.go).
func opCode(i uint32) int { return int(i >> 26) }
func opA(i uint32) int    { return int(i>>18) & 0xff }
func opB(i uint32) int    { return int(i & 0x1ff) }
func opC(i uint32) int    { return int(i>>9) & 0x1ff }
func opBx(i uint32) int   { return int(i & 0x3ffff) }

const opBitRK = 1 << 8 // an RK operand naming a constant

// luaRuntimeError returns msg (gopher-lua's text after the position) in Lua 5.1's words, or
// msg itself when it is not one it knows.
func luaRuntimeError(L *lua.LState, fi frameInfo, msg string) string {
	inst := fi.proto.Code[fi.pc]
	op := opCode(inst)
	switch {
	case strings.HasPrefix(msg, "attempt to index a non-table object("):
		typ := msg[len("attempt to index a non-table object("):]
		if end := strings.IndexByte(typ, ')'); end > 0 {
			typ = typ[:end]
		}
		reg := -1
		switch op {
		case lua.OP_GETTABLE, lua.OP_GETTABLEKS, lua.OP_SELF:
			reg = opB(inst)
		case lua.OP_SETTABLE, lua.OP_SETTABLEKS:
			reg = opA(inst)
		}
		return typeError(fi, reg, "index", typ)
	case msg == "attempt to call a non-function object":
		if op != lua.OP_CALL && op != lua.OP_TAILCALL {
			return msg
		}
		typ := registerType(L, fi.base, opA(inst))
		if typ == "" {
			return msg
		}
		return typeError(fi, opA(inst), "call", typ)
	case strings.HasPrefix(msg, "cannot perform concat operation between "):
		lt, rt, ok := strings.Cut(msg[len("cannot perform concat operation between "):], " and ")
		if !ok || op != lua.OP_CONCAT {
			return msg
		}
		// Lua names the first operand that is neither a string nor a number; registers are
		// known for a two-operand concatenation only.
		reg, typ := -1, lt
		if lt == "string" || lt == "number" {
			typ = rt
			if opC(inst) == opB(inst)+1 {
				reg = opC(inst)
			}
		} else if opC(inst) == opB(inst)+1 {
			reg = opB(inst)
		}
		return typeError(fi, reg, "concatenate", typ)
	case strings.HasPrefix(msg, "cannot perform ") && strings.Contains(msg, " operation between "):
		// "cannot perform add operation between nil and number"
		_, pair, _ := strings.Cut(msg, " operation between ")
		lt, rt, ok := strings.Cut(pair, " and ")
		if !ok {
			return msg
		}
		if op < lua.OP_ADD || op > lua.OP_POW {
			return typeError(fi, -1, "perform arithmetic on", lt)
		}
		// Lua names the first operand that does not convert to a number (a numeric string
		// does: the left one is taken as the culprit unless it is a number).
		operand, typ := opB(inst), lt
		if lt == "number" {
			operand, typ = opC(inst), rt
		}
		if operand&opBitRK != 0 {
			return typeError(fi, -1, "perform arithmetic on", typ)
		}
		return typeError(fi, operand, "perform arithmetic on", typ)
	case msg == "__len undefined" && op == lua.OP_LEN, msg == "__unm undefined" && op == lua.OP_UNM:
		typ := registerType(L, fi.base, opB(inst))
		if typ == "" {
			return msg
		}
		what := "get length of"
		if op == lua.OP_UNM {
			what = "perform arithmetic on"
		}
		return typeError(fi, opB(inst), what, typ)
	case strings.HasPrefix(msg, "attempt to compare "):
		// lvm.c luaG_ordererror: "two T values" when both have one type.
		lt, rt, ok := strings.Cut(msg[len("attempt to compare "):], " with ")
		if ok && lt == rt {
			return "attempt to compare two " + lt + " values"
		}
	}
	return msg
}

// typeError is ldebug.c luaG_typeerror: "attempt to <op> <kind> '<name>' (a <type> value)",
// or "attempt to <op> a <type> value" when register reg has no name.
func typeError(fi frameInfo, reg int, op, typ string) string {
	if reg >= 0 {
		if kind, name := objectName(fi.proto, fi.pc, reg); kind != "" {
			return "attempt to " + op + " " + kind + " '" + name + "' (a " + typ + " value)"
		}
	}
	return "attempt to " + op + " a " + typ + " value"
}

// objectName is ldebug.c getobjname: what register reg holds at instruction pc — a local
// variable, or what the last instruction writing it before pc loaded (a global, a field, an
// upvalue, a method). Jumps are not followed: the last writer in the code is taken.
func objectName(p *lua.FunctionProto, pc, reg int) (kind, name string) {
	for depth := 0; depth < 8; depth++ {
		// gopher-lua's debug information makes a numeric for's hidden locals ("(for
		// limit)"…) live from before their expressions are computed: a register holding such
		// a name is a temporary that the code before it filled.
		if n := localName(p, reg, pc); n != "" && n[0] != '(' {
			return "local", n
		}
		writer := -1
		for i := pc - 1; i >= 0; i-- {
			if writes(p.Code[i], reg) {
				writer = i
				break
			}
		}
		if writer < 0 {
			return "", ""
		}
		inst := p.Code[writer]
		switch opCode(inst) {
		case lua.OP_GETGLOBAL:
			return constantName(p, opBx(inst), "global")
		case lua.OP_GETTABLE, lua.OP_GETTABLEKS:
			if c := opC(inst); c&opBitRK != 0 {
				return constantName(p, c&^opBitRK, "field")
			}
			return "", ""
		case lua.OP_SELF:
			if c := opC(inst); c&opBitRK != 0 {
				return constantName(p, c&^opBitRK, "method")
			}
			return "", ""
		case lua.OP_GETUPVAL:
			if b := opB(inst); b < len(p.DbgUpvalues) {
				return "upvalue", p.DbgUpvalues[b]
			}
			return "", ""
		case lua.OP_MOVE:
			if b := opB(inst); b < opA(inst) {
				pc, reg = writer, b
				continue
			}
			return "", ""
		default:
			return "", ""
		}
	}
	return "", ""
}

// constantName returns kind and constant k when it is a string.
func constantName(p *lua.FunctionProto, k int, kind string) (string, string) {
	if k < len(p.Constants) {
		if s, ok := p.Constants[k].(lua.LString); ok {
			return kind, string(s)
		}
	}
	return "", ""
}

// localName is the name of the local variable in register reg at pc (lfunc.c
// luaF_getlocalname): the reg-th variable active there.
func localName(p *lua.FunctionProto, reg, pc int) string {
	n := reg
	for _, l := range p.DbgLocals {
		if l.StartPc > pc {
			break
		}
		if pc < l.EndPc {
			if n == 0 {
				return l.Name
			}
			n--
		}
	}
	return ""
}

// writes reports whether inst writes register reg (as its A operand, or a range from A).
func writes(inst uint32, reg int) bool {
	a := opA(inst)
	switch opCode(inst) {
	case lua.OP_MOVE, lua.OP_LOADK, lua.OP_LOADBOOL, lua.OP_GETUPVAL, lua.OP_GETGLOBAL,
		lua.OP_GETTABLE, lua.OP_GETTABLEKS, lua.OP_NEWTABLE, lua.OP_ADD, lua.OP_SUB, lua.OP_MUL,
		lua.OP_DIV, lua.OP_MOD, lua.OP_POW, lua.OP_UNM, lua.OP_NOT, lua.OP_LEN, lua.OP_CONCAT,
		lua.OP_TESTSET, lua.OP_CLOSURE:
		return a == reg
	case lua.OP_MOVEN:
		return reg == a // the moves that follow are instructions of their own
	case lua.OP_LOADNIL:
		return reg >= a && reg <= opB(inst)
	case lua.OP_SELF:
		return reg == a || reg == a+1
	case lua.OP_CALL, lua.OP_TAILCALL, lua.OP_VARARG, lua.OP_TFORLOOP:
		return reg >= a
	case lua.OP_FORLOOP, lua.OP_FORPREP:
		return reg >= a && reg <= a+3
	}
	return false
}

// forLoopErrors are gopher-lua's words for a numeric for's wrong operands, and Lua's.
var forLoopErrors = map[string]string{
	"for statement init must be a number":  "'for' initial value must be a number",
	"for statement limit must be a number": "'for' limit must be a number",
	"for statement step must be a number":  "'for' step must be a number",
}

// quoteArgErrorFunc rewords the errors that need no look at the code: it puts the function's
// name of gopher-lua's argument errors in quotes, as luaL_argerror does ("bad argument #1 to
// pairs (...)" → "bad argument #1 to 'pairs' (...)"), and words a for loop's errors as Lua.
func quoteArgErrorFunc(msg string) string {
	if lua51, ok := forLoopErrors[msg]; ok {
		return lua51
	}
	rest, ok := strings.CutPrefix(msg, "bad argument #")
	if !ok {
		return msg
	}
	_, after, ok := strings.Cut(rest, " to ")
	if !ok || strings.HasPrefix(after, "'") {
		return msg
	}
	sp := strings.Index(after, " (")
	if sp <= 0 {
		return msg
	}
	head := msg[:len(msg)-len(after)]
	return head + "'" + after[:sp] + "'" + after[sp:]
}
