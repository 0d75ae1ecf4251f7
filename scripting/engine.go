package scripting

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// Options configure an Engine.
type Options struct {
	Version    string // redis.REDIS_VERSION ("7.2.4")
	VersionNum int    // redis.REDIS_VERSION_NUM (0x070204)
	// Log receives redis.log lines written while a library loads (runs log through their
	// Caller); nil drops them.
	Log func(level int, msg string)
	// MaxIdle bounds the idle states each pool keeps (0: 32).
	MaxIdle int
}

// Engine compiles, caches and runs scripts and function libraries. It is safe for concurrent
// use: runs go on in parallel, each on its own pooled state.
type Engine struct {
	opts Options

	// The script cache: read under mu's read lock (every EVALSHA looks up; readers do not
	// wait on one another), written under its lock (SCRIPT LOAD, EVAL of a new body, SCRIPT
	// FLUSH).
	mu struct {
		sync.RWMutex
		scripts map[string]*Script // by SHA
		memory  int64              // their bodies and protos (an estimate)
	}

	rand *rand48 // math.random's generator, one for all states as Redis has one

	evalPool pool // states running EVAL scripts
	funcPool pool // states running functions
}

// Script is a compiled EVAL body, cached by its SHA1.
type Script struct {
	SHA     string // 40 lowercase hex digits
	Body    []byte
	Flags   ScriptFlags
	Shebang bool // the body had a "#!" line: flags declared (none: Redis's legacy eval mode)

	proto *lua.FunctionProto // shared by every state: a state makes its closure from it
}

// New returns an Engine.
func New(opts Options) *Engine {
	if opts.MaxIdle <= 0 {
		opts.MaxIdle = 32
	}
	e := &Engine{opts: opts, rand: newRand48()}
	e.mu.scripts = make(map[string]*Script)
	e.evalPool = pool{max: opts.MaxIdle, build: func() *state { return e.newState(true) }}
	e.funcPool = pool{max: opts.MaxIdle, build: func() *state { return e.newState(false) }}
	// One state of each kind from the start, as Redis builds its Lua VMs at startup: the first
	// script does not pay for it, and INFO's VM memory is never 0.
	e.evalPool.put(e.evalPool.get())
	e.funcPool.put(e.funcPool.get())
	return e
}

// SHA1Hex returns the lowercase hex SHA1 of body, a script's name in the cache.
func SHA1Hex(body []byte) string {
	sum := sha1.Sum(body)
	return hex.EncodeToString(sum[:])
}

// Load compiles body and caches it under its SHA1 (SCRIPT LOAD, EVAL); a body already cached
// is not compiled again. The error's text is Redis's reply: "ERR Error compiling script (new
// function): user_script:1: ..." or a shebang error.
func (e *Engine) Load(body []byte) (*Script, error) {
	sha := SHA1Hex(body)
	e.mu.RLock()
	cached := e.mu.scripts[sha]
	e.mu.RUnlock()
	if cached != nil {
		return cached, nil
	}
	flags, shebangLen, err := parseShebang(body)
	if err != nil {
		return nil, err
	}
	proto, err := compile(body, shebangLen, "user_script")
	if err != nil {
		return nil, scriptError("Error compiling script (new function): " + err.Error())
	}
	s := &Script{SHA: sha, Body: bytes.Clone(body), Flags: flags, Shebang: shebangLen > 0, proto: proto}
	e.mu.Lock()
	defer e.mu.Unlock()
	if old := e.mu.scripts[sha]; old != nil {
		return old, nil
	}
	e.mu.scripts[sha] = s
	e.mu.memory += scriptMemory(s)
	return s, nil
}

// compile parses and compiles a chunk, skipping a shebang line of skip bytes but keeping its
// newline so that line numbers stay the user's. The error reads as Lua's:
// "user_script:1: ...".
func compile(body []byte, skip int, name string) (*lua.FunctionProto, error) {
	chunk, err := parse.Parse(bytes.NewReader(body[skip:]), name)
	if err != nil {
		if pe, ok := err.(*parse.Error); ok {
			// In Lua 5.1's words where gopher-lua's differ; an error at the end of the input
			// is "near '<eof>'" on the last line.
			msg := pe.Message
			switch msg {
			case "syntax error":
				msg = "unexpected symbol"
			case "unterminated string":
				msg = "unfinished string"
			case "unterminated multiline string":
				msg = "unfinished long string"
			}
			tok, line := pe.Token, pe.Pos.Line
			if line == parse.EOF || line <= 0 {
				tok, line = "<eof>", bytes.Count(body[skip:], []byte{'\n'})+1
			}
			return nil, fmt.Errorf("%s:%d: %s near '%s'", name, line, msg, tok)
		}
		return nil, fmt.Errorf("%s: %s", name, strings.TrimSpace(err.Error()))
	}
	proto, err := lua.Compile(chunk, name)
	if err != nil {
		if ce, ok := err.(*lua.CompileError); ok {
			return nil, fmt.Errorf("%s:%d: %s", name, ce.Line, ce.Message)
		}
		return nil, fmt.Errorf("%s: %s", name, err.Error())
	}
	// The chunk is a vararg function that does not use "...": Lua 5.0's compatibility would
	// build an `arg` table on every run (a map allocation in gopher-lua). Scripts get no
	// arguments, so the chunk's `arg` is nil instead of {n=0}.
	proto.IsVarArg &^= lua.VarArgNeedsArg
	return proto, nil
}

// Lookup returns the cached script whose SHA1 is sha, in any case (EVALSHA); nil if none.
func (e *Engine) Lookup(sha []byte) *Script {
	if len(sha) != 40 {
		return nil
	}
	var buf [40]byte
	for i, c := range sha {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	e.mu.RLock()
	s := e.mu.scripts[string(buf[:])]
	e.mu.RUnlock()
	return s
}

// Flush empties the script cache (SCRIPT FLUSH). Runs under way finish with their script.
func (e *Engine) Flush() {
	e.mu.Lock()
	e.mu.scripts = make(map[string]*Script)
	e.mu.memory = 0
	e.mu.Unlock()
}

// Len is the number of cached scripts (INFO number_of_cached_scripts).
func (e *Engine) Len() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return len(e.mu.scripts)
}

// ScriptsMemory estimates the memory of the cached scripts (INFO used_memory_scripts_eval):
// their bodies, SHAs and compiled protos.
func (e *Engine) ScriptsMemory() int64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.mu.memory
}

// VMMemory estimates the memory of the states that run EVAL scripts (INFO
// used_memory_vm_eval): the states built and not closed (one from the start), at stateMemory
// each.
func (e *Engine) VMMemory() int64 { return e.evalPool.memory() }

// FunctionsVMMemory is VMMemory for the states that run functions (used_memory_vm_functions).
func (e *Engine) FunctionsVMMemory() int64 { return e.funcPool.memory() }

// scriptMemory estimates a cached script's memory: its body and SHA, and its proto's
// instructions, constants and debug positions (8 bytes an instruction and its line, 16 a
// constant, a few hundred bytes of headers).
func scriptMemory(s *Script) int64 {
	return int64(len(s.Body)+len(s.SHA)) + protoMemory(s.proto)
}

func protoMemory(p *lua.FunctionProto) int64 {
	if p == nil {
		return 0
	}
	n := int64(256 + 8*len(p.Code) + 8*len(p.DbgSourcePositions) + 16*len(p.Constants))
	for _, c := range p.Constants {
		if s, ok := c.(lua.LString); ok {
			n += int64(len(s))
		}
	}
	for _, fp := range p.FunctionPrototypes {
		n += protoMemory(fp)
	}
	return n
}
