package command

import (
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
)

// KeySpec is one of a command's key specs, Redis 7's description of where its keys are: a
// begin_search step finds where to start (a fixed index, or after a keyword), and a find_keys
// step says which arguments from there are keys (a range, or a count read from an argument).
type KeySpec struct {
	// Notes is Redis's remark on the spec, shown by COMMAND INFO.
	Notes string
	Flags KeyFlags

	BeginSearch BeginSearchType
	// Index is the argument to start from (BeginSearchIndex).
	Index int
	// Keyword is searched from StartFrom (negative: counted from the end, searching
	// backwards); the keys start after it (BeginSearchKeyword).
	Keyword   string
	StartFrom int

	FindKeys FindKeysType
	// LastKey is the last key relative to the start (FindKeysRange); negative counts from the
	// end of the line, or, with Limit > 0, stops at 1/Limit of the remaining arguments.
	LastKey, Limit int
	// KeyNumIdx is where the number of keys is, relative to the start, and FirstKey where the
	// keys begin, relative to it too (FindKeysKeyNum).
	KeyNumIdx, FirstKey int
	// KeyStep is the distance between two keys (both kinds).
	KeyStep int
}

// BeginSearchType is how a key spec finds where its keys start.
type BeginSearchType uint8

// The begin_search kinds, by Redis's names ("unknown": only a key function can tell).
const (
	BeginSearchUnknown BeginSearchType = iota
	BeginSearchIndex
	BeginSearchKeyword
)

// FindKeysType is how a key spec finds its keys from the start.
type FindKeysType uint8

// The find_keys kinds, by Redis's names.
const (
	FindKeysUnknown FindKeysType = iota
	FindKeysRange
	FindKeysKeyNum
)

// KeyFlags are a key spec's flags: what the command does with the key (Redis's CMD_KEY_*).
type KeyFlags uint16

// The key spec flags, in the order COMMAND INFO lists them.
const (
	KeyRO            KeyFlags = 1 << iota // read only
	KeyRW                                 // read and modified
	KeyOW                                 // overwritten, not read
	KeyRM                                 // removed
	KeyAccess                             // the value is returned, copied or used
	KeyUpdate                             // the value is updated
	KeyInsert                             // data is only added
	KeyDelete                             // data is deleted
	KeyNotKey                             // not a key (a shard channel), for cluster routing only
	KeyIncomplete                         // the spec may miss keys: use the key function
	KeyVariableFlags                      // the flags depend on the arguments: use the key function
)

var keyFlagNames = [...]string{"RO", "RW", "OW", "RM", "access", "update", "insert", "delete",
	"not_key", "incomplete", "variable_flags"}

// Names returns the flags' names in COMMAND INFO's order (a new slice).
func (f KeyFlags) Names() []string {
	names := []string{}
	for i, n := range keyFlagNames {
		if f&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return names
}

func keyFlagByName(name string) KeyFlags {
	for i, n := range keyFlagNames {
		if n == name {
			return 1 << i
		}
	}
	return 0
}

// KeyRef is one key of a command line: the index of its argument (0 is the command's name)
// and the flags of the key spec that found it (0 from key functions that give none).
type KeyRef struct {
	Pos   int
	Flags KeyFlags
}

// argv is a command line within an argument vector: Arg(i) is args.Arg(base+i), so that
// COMMAND GETKEYS can look at the line after its own two words without a copy.
type argv struct {
	args querybuf.Args
	base int
}

func (a argv) Len() int                { return a.args.Len() - a.base }
func (a argv) Arg(i int) []byte        { return a.args.Arg(a.base + i) }
func (a argv) is(i int, w string) bool { return conv.EqFold(a.Arg(i), w) }

// GetKeys appends to keys[:0] the keys of a command line (args.Arg(0) is the name), as Redis's
// getKeysFromCommandWithSpecs: by the key specs when they are all exact, else by the command's
// key function (keyfuncs.go); none when the line is malformed (a bad numkeys, a keyword with
// nothing after it). It allocates nothing when keys has room for them.
func GetKeys(m *Meta, args querybuf.Args, keys []KeyRef) []KeyRef {
	return getKeys(m, argv{args, 0}, keys)
}

// GetKeysFrom is GetKeys of the command line that starts at args.Arg(first) (COMMAND GETKEYS
// looks at its arguments after its own two); positions count from that argument.
func GetKeysFrom(m *Meta, args querybuf.Args, first int, keys []KeyRef) []KeyRef {
	return getKeys(m, argv{args, first}, keys)
}

func getKeys(m *Meta, a argv, keys []KeyRef) []KeyRef {
	keys = keys[:0]
	var hasSpec, variable bool
	for i := range m.KeySpecs {
		hasSpec = hasSpec || m.KeySpecs[i].Flags&KeyNotKey == 0
		variable = variable || m.KeySpecs[i].Flags&KeyVariableFlags != 0
	}
	if hasSpec && !variable {
		if out, ok := keysFromSpecs(m, a, keys); ok {
			return out
		}
	}
	if m.keyFunc != nil {
		return m.keyFunc(a, keys[:0])
	}
	return keys[:0]
}

// HasKeys reports whether a command may have keys, as Redis's doesCommandHaveKeys: a key
// function, or a key spec that is not not_key.
func (m *Meta) HasKeys() bool {
	if m.keyFunc != nil {
		return true
	}
	for i := range m.KeySpecs {
		if m.KeySpecs[i].Flags&KeyNotKey == 0 {
			return true
		}
	}
	return false
}

// keysFromSpecs is getKeysUsingKeySpecs without its options (not_key specs skipped, no
// partial result): false when a spec is unknown, incomplete or does not fit the line.
func keysFromSpecs(m *Meta, a argv, keys []KeyRef) ([]KeyRef, bool) {
	argc := a.Len()
	for i := range m.KeySpecs {
		spec := &m.KeySpecs[i]
		if spec.Flags&KeyNotKey != 0 {
			continue
		}
		var first int
		switch spec.BeginSearch {
		case BeginSearchIndex:
			first = spec.Index
		case BeginSearchKeyword:
			first = findKeyword(a, spec.Keyword, spec.StartFrom)
			if first == 0 {
				continue // keyword absent: this spec has no keys here
			}
		default:
			return keys, false
		}
		var last, step int
		switch spec.FindKeys {
		case FindKeysRange:
			step = spec.KeyStep
			switch {
			case spec.LastKey >= 0:
				last = first + spec.LastKey
			case spec.Limit == 0:
				last = argc + spec.LastKey
			default: // lastkey -1 with a limit: 1/limit of what follows (XREAD STREAMS k1 k2 id1 id2)
				last = first + (argc-first)/spec.Limit + spec.LastKey
			}
		case FindKeysKeyNum:
			step = spec.KeyStep
			if spec.KeyNumIdx >= argc || first+spec.KeyNumIdx >= argc {
				return keys, false
			}
			n, ok := conv.String2ll(a.Arg(first + spec.KeyNumIdx))
			if !ok || n < 0 || n > int64(argc) {
				return keys, false
			}
			first += spec.FirstKey
			last = first + int(n) - 1
		default:
			return keys, false
		}
		if last >= argc || last < first || first >= argc || step <= 0 {
			return keys, false
		}
		for j := first; j <= last; j += step {
			keys = append(keys, KeyRef{Pos: j, Flags: spec.Flags})
		}
		if spec.Flags&KeyIncomplete != 0 {
			return keys, false
		}
	}
	return keys, true
}

// findKeyword returns the position after the keyword, searched from startfrom towards the end
// (startfrom > 0) or from argc+startfrom towards the start; 0 when it is not there. As in
// Redis, a forward search stops before the last argument and a backward one before the
// second: a keyword there has no key after it, or is the command's own first argument.
func findKeyword(a argv, keyword string, startfrom int) int {
	argc := a.Len()
	if startfrom > 0 {
		for i := startfrom; i < argc-1; i++ {
			if a.is(i, keyword) {
				return i + 1
			}
		}
		return 0
	}
	for i := argc + startfrom; i > 1 && i < argc; i-- {
		if a.is(i, keyword) {
			return i + 1
		}
	}
	return 0
}
