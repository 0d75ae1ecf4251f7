// Package cjson is Lua CJSON 2.1.0 as Redis 7.2 loads it (deps/lua/src/lua_cjson.c) for
// gopher-lua: the global table "cjson" with encode, decode, the configuration functions
// (encode_sparse_array, encode_max_depth, decode_max_depth, encode_number_precision,
// encode_keep_buffer, encode_invalid_numbers, decode_invalid_numbers), new (a table with its
// own configuration) and null. Redis loads neither cjson.safe nor a global "cjson.safe".
//
// Output is byte for byte lua_cjson's, with one exception that cannot be helped: the order of
// an object's keys is gopher-lua's table order (array part, then insertion order) where C Lua
// walks its hash part.
package cjson

import (
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"

	"github.com/kvserver/kvserver/scripting/lualib/internal/clua"
)

// Null is cjson.null, JSON's null in decoded values (C's NULL light userdata: the same value
// in every table cjson.new returns, and in every state). Scripts can only compare it.
var Null = &lua.LUserData{Metatable: lua.LNil}

// Defaults of lua_cjson.c.
const (
	defaultSparseRatio     = 2
	defaultSparseSafe      = 10
	defaultEncodeMaxDepth  = 1000
	defaultDecodeMaxDepth  = 1000
	defaultNumberPrecision = 14
)

// Values of encodeInvalid (encode_invalid_numbers): off, on, or "null".
const (
	invalidOff = iota
	invalidOn
	invalidNull
)

// config is one module table's settings (json_config_t). It belongs to one Lua state.
type config struct {
	sparseConvert   bool
	sparseRatio     int
	sparseSafe      int
	encodeMaxDepth  int
	decodeMaxDepth  int
	encodeInvalid   int
	numberPrecision int
	keepBuffer      bool
	decodeInvalid   bool
	buf             []byte // the kept encode buffer (encode_keep_buffer on)
}

// Open sets the global table "cjson".
func Open(L *lua.LState) {
	L.SetGlobal("cjson", newModule(L))
}

// newModule is lua_cjson_new: a module table with a fresh configuration.
func newModule(L *lua.LState) *lua.LTable {
	cfg := &config{
		sparseRatio:     defaultSparseRatio,
		sparseSafe:      defaultSparseSafe,
		encodeMaxDepth:  defaultEncodeMaxDepth,
		decodeMaxDepth:  defaultDecodeMaxDepth,
		numberPrecision: defaultNumberPrecision,
		keepBuffer:      true,
		decodeInvalid:   true,
	}
	t := L.CreateTable(0, 14)
	for _, f := range []struct {
		name string
		fn   func(*lua.LState, *config) int
	}{
		{"encode", encode},
		{"decode", decode},
		{"encode_sparse_array", cfgEncodeSparseArray},
		{"encode_max_depth", cfgEncodeMaxDepth},
		{"decode_max_depth", cfgDecodeMaxDepth},
		{"encode_number_precision", cfgEncodeNumberPrecision},
		{"encode_keep_buffer", cfgEncodeKeepBuffer},
		{"encode_invalid_numbers", cfgEncodeInvalidNumbers},
		{"decode_invalid_numbers", cfgDecodeInvalidNumbers},
	} {
		fn := f.fn
		t.RawSetString(f.name, L.NewFunction(func(L *lua.LState) int { return fn(L, cfg) }))
	}
	t.RawSetString("new", L.NewFunction(func(L *lua.LState) int {
		L.Push(newModule(L))
		return 1
	}))
	t.RawSetString("null", Null)
	t.RawSetString("_NAME", lua.LString("cjson"))
	t.RawSetString("_VERSION", lua.LString("2.1.0"))
	return t
}

// argInit is json_arg_init: at most args arguments, padded with nils so that the settings
// pushed afterwards come after them.
func argInit(L *lua.LState, args int) {
	if L.GetTop() > args {
		clua.ArgError(L, args+1, "found too many arguments")
	}
	for L.GetTop() < args {
		L.Push(lua.LNil)
	}
}

// integerOption is json_integer_option: sets *setting from argument i when given (as C's int:
// the integer's low 32 bits), checking it lies in [lo, hi] (the error always names argument 1,
// as lua_cjson does), and pushes the setting.
func integerOption(L *lua.LState, i int, setting *int, lo, hi int) {
	if L.Get(i) != lua.LNil {
		v := int(int32(clua.CheckInteger(L, i)))
		if v < lo || v > hi {
			clua.ArgError(L, 1, "expected integer between "+strconv.Itoa(lo)+" and "+strconv.Itoa(hi))
		}
		*setting = v
	}
	L.Push(lua.LNumber(*setting))
}

var boolOptions = []string{"off", "on"}

// enumOption is json_enum_option with bool_true = 1: a boolean, or one of options by name
// (luaL_checkoption); pushes a boolean for 0 and 1 and the option's name otherwise.
func enumOption(L *lua.LState, i int, setting *int, options []string) {
	if options == nil {
		options = boolOptions
	}
	switch v := L.Get(i).(type) {
	case *lua.LNilType:
	case lua.LBool:
		*setting = 0
		if v {
			*setting = 1
		}
	default:
		name := clua.CheckString(L, i)
		found := -1
		for k, o := range options {
			if o == name {
				found = k
				break
			}
		}
		if found < 0 {
			clua.ArgError(L, i, "invalid option '"+name+"'")
		}
		*setting = found
	}
	if *setting == 0 || *setting == 1 {
		L.Push(lua.LBool(*setting == 1))
	} else {
		L.Push(lua.LString(options[*setting]))
	}
}

func boolOption(L *lua.LState, i int, setting *bool) {
	v := 0
	if *setting {
		v = 1
	}
	enumOption(L, i, &v, nil)
	*setting = v == 1
}

func cfgEncodeSparseArray(L *lua.LState, cfg *config) int {
	argInit(L, 3)
	boolOption(L, 1, &cfg.sparseConvert)
	integerOption(L, 2, &cfg.sparseRatio, 0, math.MaxInt32)
	integerOption(L, 3, &cfg.sparseSafe, 0, math.MaxInt32)
	return 3
}

func cfgEncodeMaxDepth(L *lua.LState, cfg *config) int {
	argInit(L, 1)
	integerOption(L, 1, &cfg.encodeMaxDepth, 1, math.MaxInt32)
	return 1
}

func cfgDecodeMaxDepth(L *lua.LState, cfg *config) int {
	argInit(L, 1)
	integerOption(L, 1, &cfg.decodeMaxDepth, 1, math.MaxInt32)
	return 1
}

func cfgEncodeNumberPrecision(L *lua.LState, cfg *config) int {
	argInit(L, 1)
	integerOption(L, 1, &cfg.numberPrecision, 1, 14)
	return 1
}

func cfgEncodeKeepBuffer(L *lua.LState, cfg *config) int {
	argInit(L, 1)
	old := cfg.keepBuffer
	boolOption(L, 1, &cfg.keepBuffer)
	if old != cfg.keepBuffer {
		cfg.buf = nil
	}
	return 1
}

func cfgEncodeInvalidNumbers(L *lua.LState, cfg *config) int {
	argInit(L, 1)
	enumOption(L, 1, &cfg.encodeInvalid, []string{"off", "on", "null"})
	return 1
}

func cfgDecodeInvalidNumbers(L *lua.LState, cfg *config) int {
	argInit(L, 1)
	boolOption(L, 1, &cfg.decodeInvalid)
	return 1
}
