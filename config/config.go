package config

import (
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kvserver/kvserver/glob"
)

// RedisVersion is the Redis release whose parameters, defaults and messages this
// package reproduces.
const RedisVersion = "7.2.4"

// NameValue is one CONFIG GET result.
type NameValue struct {
	Name  string // the name as matched: canonical, alias, or as the client typed it
	Value string // as CONFIG GET prints it
}

// entry is one name that CONFIG GET, CONFIG SET and the config file accept: a
// parameter's canonical name or its alias (config.c registers both in one dict).
type entry struct {
	name  string
	param int
}

// registry is the name index over params, built once.
type registry struct {
	entries []entry        // every name, sorted: CONFIG GET's order
	byName  map[string]int // lower-case name -> index in entries
}

var reg = buildRegistry()

func buildRegistry() *registry {
	r := &registry{byName: make(map[string]int, 2*len(params))}
	for i := range params {
		r.entries = append(r.entries, entry{params[i].Name, i})
		if params[i].Alias != "" {
			r.entries = append(r.entries, entry{params[i].Alias, i})
		}
	}
	sort.Slice(r.entries, func(a, b int) bool { return r.entries[a].name < r.entries[b].name })
	for i, e := range r.entries {
		if _, dup := r.byName[e.name]; dup {
			panic("config: duplicate name " + e.name)
		}
		r.byName[e.name] = i
	}
	return r
}

// lookup finds a name in any case, as Redis's case-insensitive configs dict does.
func lookup(name string) (entry, bool) {
	i, ok := reg.byName[name]
	if !ok {
		i, ok = reg.byName[strings.ToLower(name)]
	}
	if !ok {
		return entry{}, false
	}
	return reg.entries[i], true
}

// paramIndex is the index in params of a canonical name known to exist.
func paramIndex(name string) int {
	e, ok := lookup(name)
	if !ok || params[e.param].Name != name {
		panic("config: no parameter " + name)
	}
	return e.param
}

// Params returns a copy of the parameter table, in Redis's static_configs[] order.
func Params() []Param {
	return append([]Param(nil), params...)
}

// Lookup returns the parameter a name (canonical or alias, any case) refers to.
func Lookup(name string) (Param, bool) {
	e, ok := lookup(name)
	if !ok {
		return Param{}, false
	}
	return params[e.param], true
}

// Config is the server's configuration: one value per parameter, kept as the text
// CONFIG GET prints. It is safe for concurrent use: readers share a read lock, and
// writers (Set, Load) are serialised with the listener calls that follow them.
type Config struct {
	// writeMu serialises Set and Load with the OnChange listeners they call, so that
	// listeners see changes in order. Listeners run with writeMu held: they may read the
	// Config but must not Set, Load or register listeners.
	writeMu   sync.Mutex
	listeners map[int][]func(string)       // guarded by writeMu
	appliers  map[int][]func(string) error // guarded by writeMu; see OnApply

	// permissive turns the refusals of the support table off: only this package's tests of
	// the parsing and rewriting mechanics set it, to use maxmemory and friends as material.
	permissive bool

	mu struct {
		sync.RWMutex
		values []string    // by params index, CONFIG GET text
		other  []directive // non-parameter directives kept by Load, the name lower-cased
	}
}

// New returns a Config holding Redis 7.2's defaults, with dir set to the current
// working directory (Redis's getcwd) and bind to kvserver's default "127.0.0.1 -::1".
func New() *Config {
	c := &Config{listeners: map[int][]func(string){}, appliers: map[int][]func(string) error{}}
	c.mu.values = make([]string, len(params))
	for i := range params {
		c.mu.values[i] = params[i].Default
	}
	if wd, err := os.Getwd(); err == nil {
		c.mu.values[idxDir] = wd
	}
	return c
}

// Get answers CONFIG GET: for each pattern, every parameter whose name (canonical or
// alias) matches it without case, under Redis's glob rules. A pattern without `*`, `?`
// or `[` is looked up directly and may name a hidden parameter; it is returned under
// the name as given. A name is returned once however many patterns match it. The
// result is sorted by name.
func (c *Config) Get(patterns ...string) []NameValue {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []NameValue
	seen := map[string]bool{}
	add := func(name string, param int) {
		if key := strings.ToLower(name); !seen[key] {
			seen[key] = true
			out = append(out, NameValue{name, c.mu.values[param]})
		}
	}
	for _, pat := range patterns {
		if !glob.HasMeta(pat) {
			if e, ok := lookup(pat); ok {
				add(pat, e.param)
			}
			continue
		}
		for _, e := range reg.entries {
			if !params[e.param].Has(Hidden) && glob.MatchString(pat, e.name, true) {
				add(e.name, e.param)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

// Value returns the value of one parameter by name (canonical or alias, any case), as
// CONFIG GET prints it.
func (c *Config) Value(name string) (string, bool) {
	e, ok := lookup(name)
	if !ok {
		return "", false
	}
	return c.value(e.param), true
}

func (c *Config) value(i int) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.values[i]
}

// Error is a CONFIG SET error; its text is Redis's, "ERR " included.
type Error string

func (e Error) Error() string { return string(e) }

// Set answers CONFIG SET from a client that is not local: every name/value pair is
// checked and parsed first, and the values change together or not at all. Errors are
// Redis's, word for word:
//
//	ERR Unknown option or number of arguments for CONFIG SET - 'x'
//	ERR CONFIG SET failed (possibly related to argument 'x') - <reason>
//
// Immutable parameters are refused ("can't set immutable config"), protected ones
// (dir, dbfilename) unless enable-protected-configs is yes ("can't set protected
// config"). A name given twice fails with "duplicate parameter"; as in Redis 7.2 an
// alias and its canonical name are not duplicates (the later value wins). The value of
// a MultiArg parameter is split on single spaces.
func (c *Config) Set(pairs ...[2]string) error {
	return c.set(false, pairs)
}

// SetLocal is Set for a client connected over the loopback interface or a Unix socket,
// for which enable-protected-configs "local" also allows protected parameters.
func (c *Config) SetLocal(pairs ...[2]string) error {
	return c.set(true, pairs)
}

func (c *Config) set(local bool, pairs [][2]string) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()

	// The checks of configSetCommand, in its order. Redis goes on scanning after the
	// first error (to redact passwords from its logs) but reports only that first one.
	protectedOK := false
	switch c.value(idxEnableProtectedConfigs) {
	case "yes":
		protectedOK = true
	case "local":
		protectedOK = local
	}
	ents := make([]entry, len(pairs))
	for i, pv := range pairs {
		e, ok := lookup(pv[0])
		if !ok {
			return Error("ERR Unknown option or number of arguments for CONFIG SET - '" + pv[0] + "'")
		}
		p := &params[e.param]
		if p.Has(Immutable) {
			return setFailed(pv[0], "can't set immutable config")
		}
		if p.Has(Protected) && !protectedOK {
			return setFailed(pv[0], "can't set protected config")
		}
		for j := range i {
			if ents[j].name == e.name {
				return setFailed(pv[0], "duplicate parameter")
			}
		}
		ents[i] = e
	}

	// Parse every value against the value before it (client-output-buffer-limit merges),
	// then commit them all.
	staged := map[int]string{}
	for i, pv := range pairs {
		p := &params[ents[i].param]
		cur, ok := staged[ents[i].param]
		if !ok {
			cur = c.value(ents[i].param)
		}
		args := []string{pv[1]}
		if p.Has(MultiArg) {
			args = splitSpaces(pv[1])
		}
		v, reason := p.setValue(cur, args)
		if reason == "" && !c.permissive {
			reason = p.refusal(v)
		}
		if reason != "" {
			return setFailed(ents[i].name, reason)
		}
		staged[ents[i].param] = v
	}
	old := make(map[int]string, len(staged))
	for i := range staged {
		old[i] = c.value(i)
	}
	c.commit(staged)
	return c.apply(staged, old)
}

// apply runs the OnApply functions of the parameters that changed, in table order. When one
// fails, every value goes back to old and the functions that ran are run again with the old
// values (Redis's restoreBackupConfig), and the error is CONFIG SET's. writeMu is held.
func (c *Config) apply(staged, old map[int]string) error {
	var order []int
	for i, v := range staged {
		if v != old[i] && len(c.appliers[i]) > 0 {
			order = append(order, i)
		}
	}
	sort.Ints(order)
	for n, i := range order {
		for _, fn := range c.appliers[i] {
			err := fn(staged[i])
			if err == nil {
				continue
			}
			c.commit(old)
			for _, j := range order[:n+1] {
				for _, undo := range c.appliers[j] {
					_ = undo(old[j])
				}
			}
			return setFailed(params[i].Name, err.Error())
		}
	}
	return nil
}

// OnApply registers fn to put a new value into effect when CONFIG SET changes the parameter
// (port and bind: listen again). It runs after the value is visible and after the OnChange
// listeners; an error undoes the whole CONFIG SET — every value goes back and the appliers that
// ran are called again with the old values — and the client gets "ERR CONFIG SET failed
// (possibly related to argument 'name') - " and the error's text. Load does not call it: at
// start-up the server applies what it reads. The same rules as OnChange apply to fn.
func (c *Config) OnApply(name string, fn func(value string) error) {
	e, ok := lookup(name)
	if !ok {
		panic("config: OnApply of unknown parameter " + name)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.appliers[e.param] = append(c.appliers[e.param], fn)
}

// setFailed is configSetCommand's error for a known parameter.
func setFailed(name, reason string) error {
	return Error("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason)
}

// splitSpaces is sdssplitlen(value, " "): every single space separates, so two spaces
// make an empty word, and "" has no words at all.
func splitSpaces(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ")
}

// commit stores new values and calls the listeners of those that changed. writeMu is
// held.
func (c *Config) commit(staged map[int]string) {
	type change struct {
		param int
		value string
	}
	var changed []change
	c.mu.Lock()
	for i, v := range staged {
		if c.mu.values[i] != v {
			c.mu.values[i] = v
			changed = append(changed, change{i, v})
		}
	}
	c.mu.Unlock()
	sort.Slice(changed, func(a, b int) bool { return changed[a].param < changed[b].param })
	for _, ch := range changed {
		for _, fn := range c.listeners[ch.param] {
			fn(ch.value)
		}
	}
}

// OnChange registers fn to be called with the new value (as CONFIG GET prints it)
// each time the parameter changes, by Set or Load. name may be an alias; an unknown
// name panics. fn runs after the change is visible to readers, with Set's write lock
// held: it may read the Config but must not change it.
func (c *Config) OnChange(name string, fn func(value string)) {
	e, ok := lookup(name)
	if !ok {
		panic("config: OnChange of unknown parameter " + name)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.listeners[e.param] = append(c.listeners[e.param], fn)
}

// Indexes of the parameters the server acts on.
var (
	idxPort                   = paramIndex("port")
	idxBind                   = paramIndex("bind")
	idxMaxclients             = paramIndex("maxclients")
	idxHz                     = paramIndex("hz")
	idxDatabases              = paramIndex("databases")
	idxProtoMaxBulkLen        = paramIndex("proto-max-bulk-len")
	idxClientQueryBufferLimit = paramIndex("client-query-buffer-limit")
	idxMaxmemory              = paramIndex("maxmemory")
	idxMaxmemoryPolicy        = paramIndex("maxmemory-policy")
	idxLoglevel               = paramIndex("loglevel")
	idxLogfile                = paramIndex("logfile")
	idxTimeout                = paramIndex("timeout")
	idxTCPKeepalive           = paramIndex("tcp-keepalive")
	idxRequirepass            = paramIndex("requirepass")
	idxProtectedMode          = paramIndex("protected-mode")
	idxPidfile                = paramIndex("pidfile")
	idxDaemonize              = paramIndex("daemonize")
	idxSave                   = paramIndex("save")
	idxAppendonly             = paramIndex("appendonly")
	idxDir                    = paramIndex("dir")
	idxDBFilename             = paramIndex("dbfilename")
	idxEnableProtectedConfigs = paramIndex("enable-protected-configs")
	idxClusterEnabled         = paramIndex("cluster-enabled")
	idxReplicaof              = paramIndex("replicaof")
)

func (c *Config) int64At(i int) int64 {
	v, _ := strconv.ParseInt(c.value(i), 10, 64)
	return v
}

// Port is port: the TCP port to listen on, 0 for none.
func (c *Config) Port() int { return int(c.int64At(idxPort)) }

// Bind is bind: the addresses to listen on; a leading '-' marks one that may fail.
func (c *Config) Bind() []string { return strings.Fields(c.value(idxBind)) }

// MaxClients is maxclients.
func (c *Config) MaxClients() int { return int(c.int64At(idxMaxclients)) }

// Hz is hz, already capped to 1..500 as Redis caps it.
func (c *Config) Hz() int { return int(c.int64At(idxHz)) }

// Databases is databases.
func (c *Config) Databases() int { return int(c.int64At(idxDatabases)) }

// ProtoMaxBulkLen is proto-max-bulk-len, in bytes.
func (c *Config) ProtoMaxBulkLen() int64 { return c.int64At(idxProtoMaxBulkLen) }

// ClientQueryBufferLimit is client-query-buffer-limit, in bytes.
func (c *Config) ClientQueryBufferLimit() int64 { return c.int64At(idxClientQueryBufferLimit) }

// MaxMemory is maxmemory, in bytes; 0 means no limit.
func (c *Config) MaxMemory() uint64 {
	v, _ := strconv.ParseUint(c.value(idxMaxmemory), 10, 64)
	return v
}

// MaxMemoryPolicy is maxmemory-policy, e.g. "noeviction" or "allkeys-lru".
func (c *Config) MaxMemoryPolicy() string { return c.value(idxMaxmemoryPolicy) }

// LogLevel is loglevel: debug, verbose, notice, warning or nothing.
func (c *Config) LogLevel() string { return c.value(idxLoglevel) }

// LogFile is logfile; "" means standard output.
func (c *Config) LogFile() string { return c.value(idxLogfile) }

// Timeout is timeout: how long a client may idle before it is closed; 0 means never.
func (c *Config) Timeout() time.Duration {
	return time.Duration(c.int64At(idxTimeout)) * time.Second
}

// TCPKeepAlive is tcp-keepalive: the keep-alive period of client sockets; 0 means off.
func (c *Config) TCPKeepAlive() time.Duration {
	return time.Duration(c.int64At(idxTCPKeepalive)) * time.Second
}

// RequirePass is requirepass; "" means no password.
func (c *Config) RequirePass() string { return c.value(idxRequirepass) }

// ProtectedMode is protected-mode.
func (c *Config) ProtectedMode() bool { return c.value(idxProtectedMode) == "yes" }

// PidFile is pidfile; "" means none.
func (c *Config) PidFile() string { return c.value(idxPidfile) }

// Daemonize is daemonize.
func (c *Config) Daemonize() bool { return c.value(idxDaemonize) == "yes" }

// SavePoint is one save rule: snapshot after Seconds if at least Changes writes.
type SavePoint struct {
	Seconds int64
	Changes int
}

// Save is save: the snapshot rules; none means snapshots are off.
func (c *Config) Save() []SavePoint {
	f := strings.Fields(c.value(idxSave))
	out := make([]SavePoint, 0, len(f)/2)
	for i := 0; i+1 < len(f); i += 2 {
		s, _ := strconv.ParseInt(f[i], 10, 64)
		n, _ := strconv.Atoi(f[i+1])
		out = append(out, SavePoint{s, n})
	}
	return out
}

// AppendOnly is appendonly.
func (c *Config) AppendOnly() bool { return c.value(idxAppendonly) == "yes" }

// Dir is dir: an absolute path, where snapshots and the append-only file go.
func (c *Config) Dir() string { return c.value(idxDir) }

// DBFilename is dbfilename.
func (c *Config) DBFilename() string { return c.value(idxDBFilename) }
