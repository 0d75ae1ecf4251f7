package command

// keyFunc finds the keys of a command line that its key specs cannot describe exactly, as
// Redis's getkeys_proc: it appends to keys (empty, with room) and returns it.
type keyFunc func(a argv, keys []KeyRef) []KeyRef

// keyFuncs are Redis 7.2's getkeys_proc of each command that has one ("get_keys_function" in
// its src/commands/*.json). They run when a key spec is unknown (SORT's BY/GET/STORE),
// incomplete (MIGRATE's KEYS), has variable flags (SET with GET, BITFIELD), or does not fit the
// line (a bad numkeys).
var keyFuncs = map[string]keyFunc{
	"bitfield":          bitfieldGetKeys,
	"blmpop":            numkeysGetKeys(0, 2, 3),
	"bzmpop":            numkeysGetKeys(0, 2, 3),
	"eval":              numkeysGetKeys(0, 2, 3),
	"eval_ro":           numkeysGetKeys(0, 2, 3),
	"evalsha":           numkeysGetKeys(0, 2, 3),
	"evalsha_ro":        numkeysGetKeys(0, 2, 3),
	"fcall":             numkeysGetKeys(0, 2, 3),
	"fcall_ro":          numkeysGetKeys(0, 2, 3),
	"georadius":         georadiusGetKeys,
	"georadiusbymember": georadiusGetKeys,
	"lmpop":             numkeysGetKeys(0, 1, 2),
	"migrate":           migrateGetKeys,
	"set":               setGetKeys,
	"sintercard":        numkeysGetKeys(0, 1, 2),
	"sort":              sortGetKeys,
	"sort_ro":           sortROGetKeys,
	"xread":             xreadGetKeys,
	"xreadgroup":        xreadGetKeys,
	"zdiff":             numkeysGetKeys(0, 1, 2),
	"zdiffstore":        numkeysGetKeys(1, 2, 3),
	"zinter":            numkeysGetKeys(0, 1, 2),
	"zintercard":        numkeysGetKeys(0, 1, 2),
	"zinterstore":       numkeysGetKeys(1, 2, 3),
	"zmpop":             numkeysGetKeys(0, 1, 2),
	"zunion":            numkeysGetKeys(0, 1, 2),
	"zunionstore":       numkeysGetKeys(1, 2, 3),
}

// numkeysGetKeys is Redis's genericGetKeys for a line "… numkeys key… ": the count at
// numkeysAt (read as atoi reads it), the keys from firstKey, and the destination at store (0:
// none) after them. A count below 1 or beyond the line gives no keys: the command will answer
// the error. Its keys carry no flags.
func numkeysGetKeys(store, numkeysAt, firstKey int) keyFunc {
	return func(a argv, keys []KeyRef) []KeyRef {
		num := atoi(a.Arg(numkeysAt))
		if num < 1 || num > a.Len()-firstKey {
			return keys
		}
		for i := 0; i < num; i++ {
			keys = append(keys, KeyRef{Pos: firstKey + i})
		}
		if store > 0 {
			keys = append(keys, KeyRef{Pos: store})
		}
		return keys
	}
}

// sortROGetKeys: SORT_RO's key is its first argument, read.
func sortROGetKeys(a argv, keys []KeyRef) []KeyRef {
	return append(keys, KeyRef{Pos: 1, Flags: KeyRO | KeyAccess})
}

// sortGetKeys: SORT's key, and the last STORE's destination. BY and GET patterns name keys
// only through the values sorted, so they are not given (as in Redis); options are skipped by
// their argument counts (LIMIT 2, GET 1, BY 1).
func sortGetKeys(a argv, keys []KeyRef) []KeyRef {
	keys = append(keys, KeyRef{Pos: 1, Flags: KeyRO | KeyAccess})
	store := 0
	for i := 2; i < a.Len(); i++ {
		switch {
		case a.is(i, "limit"):
			i += 2
		case a.is(i, "get"), a.is(i, "by"):
			i++
		case a.is(i, "store") && i+1 < a.Len():
			store = i + 1
		}
	}
	if store > 0 {
		keys = append(keys, KeyRef{Pos: store, Flags: KeyOW | KeyUpdate})
	}
	return keys
}

// migrateGetKeys: MIGRATE host port key|"" db timeout [COPY] [REPLACE] [AUTH pw | AUTH2 user
// pw] [KEYS key…] — the key, or with KEYS (and an empty key) every key after it.
func migrateGetKeys(a argv, keys []KeyRef) []KeyRef {
	first, num := 3, 1
	for i := 6; i < a.Len(); i++ {
		if a.is(i, "keys") {
			if len(a.Arg(3)) > 0 {
				num = 0 // a key and KEYS: MIGRATE answers the syntax error
			} else {
				first, num = i+1, a.Len()-(i+1)
			}
			break
		}
		switch {
		case a.is(i, "auth"):
			i++
		case a.is(i, "auth2"):
			i += 2
		}
	}
	for i := 0; i < num; i++ {
		keys = append(keys, KeyRef{Pos: first + i, Flags: KeyRW | KeyAccess | KeyDelete})
	}
	return keys
}

// georadiusGetKeys: GEORADIUS[BYMEMBER]'s key and the last STORE or STOREDIST destination.
func georadiusGetKeys(a argv, keys []KeyRef) []KeyRef {
	keys = append(keys, KeyRef{Pos: 1})
	stored := 0
	for i := 5; i < a.Len(); i++ {
		if (a.is(i, "store") || a.is(i, "storedist")) && i+1 < a.Len() {
			stored = i + 1
			i++
		}
	}
	if stored > 0 {
		keys = append(keys, KeyRef{Pos: stored})
	}
	return keys
}

// xreadGetKeys: the streams after XREAD[GROUP]'s STREAMS option — half of what follows it
// (the other half are IDs) — found by skipping the options before it, since STREAMS may also
// be a group's or a consumer's name.
func xreadGetKeys(a argv, keys []KeyRef) []KeyRef {
	streams := -1
scan:
	for i := 1; i < a.Len(); i++ {
		switch {
		case a.is(i, "block"), a.is(i, "count"):
			i++
		case a.is(i, "group"):
			i += 2
		case a.is(i, "noack"):
		case a.is(i, "streams"):
			streams = i
			break scan
		default:
			break scan
		}
	}
	if streams < 0 {
		return keys
	}
	num := a.Len() - streams - 1
	if num == 0 || num%2 != 0 {
		return keys
	}
	for i := streams + 1; i < a.Len()-num/2; i++ {
		keys = append(keys, KeyRef{Pos: i})
	}
	return keys
}

// setGetKeys: SET's key is overwritten, or read and updated when GET is among the options.
func setGetKeys(a argv, keys []KeyRef) []KeyRef {
	for i := 3; i < a.Len(); i++ {
		if a.is(i, "get") {
			return append(keys, KeyRef{Pos: 1, Flags: KeyRW | KeyAccess | KeyUpdate})
		}
	}
	return append(keys, KeyRef{Pos: 1, Flags: KeyOW | KeyUpdate})
}

// bitfieldGetKeys: BITFIELD's key is only read when every operation is a GET (or OVERFLOW);
// a SET, an INCRBY or anything unparsable makes it read and updated.
func bitfieldGetKeys(a argv, keys []KeyRef) []KeyRef {
	readonly := true
	for i := 2; i < a.Len(); i++ {
		rem := a.Len() - i - 1
		switch {
		case a.is(i, "get") && rem >= 2:
			i += 2
		case (a.is(i, "set") || a.is(i, "incrby")) && rem >= 3:
			readonly = false
		case a.is(i, "overflow") && rem >= 1:
			i++
		default:
			readonly = false
		}
		if !readonly {
			break
		}
	}
	if readonly {
		return append(keys, KeyRef{Pos: 1, Flags: KeyRO | KeyAccess})
	}
	return append(keys, KeyRef{Pos: 1, Flags: KeyRW | KeyAccess | KeyUpdate})
}

// atoi is C's atoi as Redis's genericGetKeys uses it: leading spaces, a sign, the digits up to
// the first other byte; 0 when there are none. Values past the int range saturate.
func atoi(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] >= '\t' && b[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	n := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if n < 1<<40 {
			n = n*10 + int(b[i]-'0')
		}
	}
	if neg {
		return -n
	}
	return n
}
