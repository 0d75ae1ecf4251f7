package command

import (
	"strings"

	"github.com/kvserver/kvserver/querybuf"
)

// Flags are Redis's command flags (COMMAND INFO prints them by these names).
type Flags uint32

// The flags of Redis's commands/*.json, by Redis's names.
const (
	Write Flags = 1 << iota
	ReadOnly
	DenyOOM
	Admin
	PubSub
	NoScript
	Blocking
	Loading
	Stale
	SkipMonitor
	SkipSlowlog
	Fast
	NoAuth
	MayReplicate
	NoMandatoryKeys
	AllowBusy
	NoMulti
	Sentinel
	Protected
)

// FlagNames are the flags' names, in the order Redis's COMMAND INFO lists them.
var FlagNames = []struct {
	Flag Flags
	Name string
}{
	{Write, "write"}, {ReadOnly, "readonly"}, {DenyOOM, "denyoom"},
	{Admin, "admin"}, {PubSub, "pubsub"}, {NoScript, "noscript"},
	{Blocking, "blocking"}, {Loading, "loading"}, {Stale, "stale"},
	{SkipMonitor, "skip_monitor"}, {SkipSlowlog, "skip_slowlog"}, {Fast, "fast"},
	{NoAuth, "no_auth"}, {MayReplicate, "may_replicate"}, {Sentinel, "sentinel"},
	{NoMandatoryKeys, "no_mandatory_keys"}, {NoMulti, "no_multi"}, {AllowBusy, "allow_busy"}, {Protected, "protected"},
}

// Cats are ACL categories. A row names its family's category and any extra ones (such as
// dangerous); @read, @write, @fast, @slow, @admin and @dangerous follow from the flags as in
// Redis's setImplicitACLCategories.
type Cats uint32

// The ACL categories, by Redis's names.
const (
	CatKeyspace Cats = 1 << iota
	CatRead
	CatWrite
	CatSet
	CatSortedSet
	CatList
	CatHash
	CatString
	CatBitmap
	CatHyperLogLog
	CatGeo
	CatStream
	CatPubSub
	CatAdmin
	CatFast
	CatSlow
	CatBlocking
	CatDangerous
	CatConnection
	CatTransaction
	CatScripting
)

// CatNames are the categories' names, in bit order.
var CatNames = []string{"keyspace", "read", "write", "set", "sortedset", "list", "hash",
	"string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow",
	"blocking", "dangerous", "connection", "transaction", "scripting"}

// Locking says which shards the pipeline locks for a command, before its handler runs and
// until it returns (DESIGN §4): declared by the row, never taken by the handler.
type Locking uint8

const (
	// LockKeys locks the shard of every key the row's key positions name (none when the
	// command has no key: PING, CLIENT …).
	LockKeys Locking = iota
	// LockAll locks every shard, for commands that must see the whole keyspace at one instant
	// (FLUSHALL, FLUSHDB, SWAPDB, KEYS).
	LockAll
	// LockNone locks nothing: the handler reads counters only (DBSIZE) or no data at all.
	LockNone
	// LockFunc locks the shards the row's Shards function picks from the arguments (SCAN: the
	// shard its cursor is in; RANDOMKEY: one shard chosen at random).
	LockFunc
)

// Command is one row of the command table: what Redis's commands/*.json say of a command,
// how the pipeline locks for it, and its handler. The pipeline checks existence and arity
// before Handler runs, so Handler may index its arguments up to the arity freely.
type Command struct {
	Name  string // lower case; a subcommand's bare name ("get" under "config")
	Arity int    // argument count including the name; negative: at least -Arity
	Flags Flags
	// First, Last and Step locate the keys (Last -1: the last argument; -2 the one before), as
	// COMMAND INFO's legacy key positions.
	First, Last, Step int
	Cats              Cats    // family and explicit categories
	Locking           Locking // which shards the pipeline locks
	// Shards picks the shards to lock for LockFunc rows: it appends shard indexes to dst.
	Shards      func(ctx *Ctx, dst []int) []int
	Handler     Handler // nil for a container
	Subcommands []*Command
	// InlineIf, when set on a row that is not Inline by its flags, lets a readiness loop run one
	// call whose arguments bound its cost (a small range of ranks: SmallRange).
	InlineIf func(args querybuf.Args) bool

	// Derived by the table.
	FullName string // "config|get"
	// ID numbers the rows of one table, subcommands and containers included, from 0: the
	// index of the row's counters in per-command statistics (Table.ByID).
	ID       int
	Meta     *Meta    // Redis 7.2's metadata of the command as this server has it (COMMAND)
	CatNames []string // "@write", "@string", …, in bit order
	Inline   bool     // a readiness loop may run it (see runsInline)
	// keysFromSpecs: the pipeline finds the keys to lock by Meta's key specs (GetKeys), as
	// COMMAND GETKEYS does; false for rows Redis has not, which use First/Last/Step.
	keysFromSpecs bool
	movableKeys   bool // Redis's movablekeys flag: the keys are found by GetKeys
	// oneKeyPos is the index of the command's only key when its key specs name exactly one,
	// at a fixed index (GET, SET, INCR …), with that spec's flags: the ACL step's quick path.
	// 0 for every other command. A command whose key function refines the flags per line
	// (SET … GET, BITFIELD) declares the most its lines need (variable_flags), so a user
	// allowed that is allowed every line.
	oneKeyPos   int
	oneKeyFlags KeyFlags
	IsDebug     bool   // DEBUG: allowed by enable-debug-command only
	txRole      txRole // what it does inside MULTI (multi.go)
	typedName   string // the name clients type: Name, or rename-command's ("" when removed)
	subs        map[string]*Command
	parent      *Command
	catsFinal   Cats
}

// ArityOK reports whether n arguments suit cmd.
func (cmd *Command) ArityOK(n int) bool {
	if cmd.Arity >= 0 {
		return n == cmd.Arity
	}
	return n >= -cmd.Arity
}

// Sub returns the subcommand named name (lower case), or nil.
func (cmd *Command) Sub(name string) *Command { return cmd.subs[name] }

// AllCats returns the row's categories, explicit and derived from its flags.
func (cmd *Command) AllCats() Cats { return cmd.catsFinal }

// finish lower-cases the name, derives the full name and categories, and indexes the
// subcommands; a duplicate subcommand panics (a programming error).
func (cmd *Command) finish(parent *Command) {
	cmd.Name = strings.ToLower(cmd.Name)
	cmd.FullName = cmd.Name
	cmd.parent = parent
	if parent != nil {
		cmd.FullName = parent.Name + "|" + cmd.Name
	}
	if m := LookupMeta(cmd.FullName); m != nil {
		cmd.fromMeta(m)
	}
	cats := cmd.Cats
	if cmd.Flags&Write != 0 {
		cats |= CatWrite
	}
	if cmd.Flags&ReadOnly != 0 && cats&CatScripting == 0 {
		cats |= CatRead
	}
	if cmd.Flags&Admin != 0 {
		cats |= CatAdmin | CatDangerous
	}
	if cmd.Flags&PubSub != 0 {
		cats |= CatPubSub
	}
	if cmd.Flags&Fast != 0 {
		cats |= CatFast
	}
	if cmd.Flags&Blocking != 0 {
		cats |= CatBlocking
	}
	if cats&CatFast == 0 {
		cats |= CatSlow
	}
	cmd.catsFinal = cats
	cmd.Inline = runsInline(cmd.Flags, cats)
	cmd.IsDebug = cmd.FullName == "debug"
	cmd.txRole = txRoleOf(cmd.FullName, cmd.Flags)
	cmd.CatNames = cmd.CatNames[:0]
	for i, name := range CatNames {
		if cats&(1<<i) != 0 {
			cmd.CatNames = append(cmd.CatNames, "@"+name)
		}
	}
	if len(cmd.Subcommands) > 0 {
		cmd.subs = make(map[string]*Command)
		for _, sub := range cmd.Subcommands {
			sub.finish(cmd)
			if _, dup := cmd.subs[sub.Name]; dup {
				panic("command: subcommand registered twice: " + sub.FullName)
			}
			cmd.subs[sub.Name] = sub
		}
	}
}

// TypedByHand reports whether a row, before New finishes it, types what Redis 7.2's metadata
// says (arity, flags other than the hidden ones, key positions, categories): the metadata must
// stay the one source for the commands Redis has.
func TypedByHand(cmd *Command, parent string) bool {
	name := strings.ToLower(cmd.Name)
	if parent != "" {
		name = parent + "|" + name
	}
	if LookupMeta(name) != nil && (cmd.Arity != 0 || cmd.First != 0 || cmd.Last != 0 || cmd.Step != 0 ||
		cmd.Cats != 0 || cmd.Flags&^hiddenFlags != 0) {
		return true
	}
	for _, sub := range cmd.Subcommands {
		if TypedByHand(sub, name) {
			return true
		}
	}
	return false
}

// hiddenFlags are the flags COMMAND INFO does not show, so the generated metadata lacks them:
// a row states them itself (CONFIG SET's may_replicate and protected, DEBUG's protected;
// sentinel, for Redis's sentinel mode, does not apply).
const hiddenFlags = MayReplicate | Protected

// fromMeta takes what Redis 7.2 says of the command — arity, flags, legacy key positions, ACL
// categories — from the generated metadata (redis72.json), over anything the row says: a row
// that Redis has states only its name, handler, locking and hidden flags (TypedByHand finds
// one that says more). Rows Redis has not (tests' own) keep what they say.
func (cmd *Command) fromMeta(m *Meta) {
	cmd.keysFromSpecs = true
	cmd.movableKeys = m.HasFlag("movablekeys")
	if ks := m.KeySpecs; len(ks) == 1 && !cmd.movableKeys && ks[0].BeginSearch == BeginSearchIndex &&
		ks[0].FindKeys == FindKeysRange && ks[0].LastKey == 0 && ks[0].Index > 0 && ks[0].Flags&KeyNotKey == 0 {
		cmd.oneKeyPos, cmd.oneKeyFlags = ks[0].Index, ks[0].Flags
	}
	cmd.Flags &= hiddenFlags
	cmd.Cats = 0
	cmd.Arity, cmd.First, cmd.Last, cmd.Step = m.Arity, m.FirstKey, m.LastKey, m.KeyStep
	for _, name := range m.Flags {
		for _, f := range FlagNames {
			if f.Name == name {
				cmd.Flags |= f.Flag
			}
		}
	}
	for _, name := range m.ACLCategories {
		for i, c := range CatNames {
			if "@"+c == name {
				cmd.Cats |= 1 << i
			}
		}
	}
}

// runsInline says whether a readiness loop may run a command itself, between reading and
// writing its client's socket, rather than hand the client to a goroutine: a fast command, or a
// string command (whose cost is bounded by its own arguments, as a SET's or an MGET's), or a
// blocking one (BLPOP, BZPOPMIN: a pop when there is something, else a registration; a
// goroutine per call would only be started to end at once, parked blocked). What may take long
// — admin commands, whole-keyspace ones such as KEYS or FLUSHALL — runs on a goroutine, so that
// it does not hold up the other clients of the loop.
func runsInline(flags Flags, cats Cats) bool {
	if flags&Admin != 0 {
		return false
	}
	return flags&(Fast|Blocking) != 0 || cats&CatString != 0
}
