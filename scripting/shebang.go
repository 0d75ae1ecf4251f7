package scripting

import (
	"bytes"
	"strings"
)

// ScriptFlags are a script's shebang flags (#!lua flags=...) or a function's register_function
// flags: what the script declares it does, which the server checks before running it
// (script.c scriptFlagsToCmdFlags and scriptPrepareForRun).
type ScriptFlags uint8

// The flags, with Redis's names (script.c scripts_flags_def).
const (
	NoWrites       ScriptFlags = 1 << iota // no-writes: the script only reads
	AllowOOM                               // allow-oom: may run when used memory is over maxmemory
	AllowStale                             // allow-stale: may run on a stale replica
	NoCluster                              // no-cluster: refused in cluster mode
	AllowCrossSlot                         // allow-cross-slot-keys: may touch keys of several slots
)

// flagNames lists the flags in Redis's order with their names.
var flagNames = [...]struct {
	name string
	flag ScriptFlags
}{
	{"no-writes", NoWrites},
	{"allow-oom", AllowOOM},
	{"allow-stale", AllowStale},
	{"no-cluster", NoCluster},
	{"allow-cross-slot-keys", AllowCrossSlot},
}

// Names returns the flags' names in Redis's order (FUNCTION LIST shows them so).
func (f ScriptFlags) Names() []string {
	var out []string
	for _, fn := range flagNames {
		if f&fn.flag != 0 {
			out = append(out, fn.name)
		}
	}
	return out
}

// flagByName finds a flag by its name; fold compares without case (register_function does,
// a shebang does not).
func flagByName(name string, fold bool) (ScriptFlags, bool) {
	for _, fn := range flagNames {
		if fn.name == name || (fold && strings.EqualFold(fn.name, name)) {
			return fn.flag, true
		}
	}
	return 0, false
}

// ParseShebang reads the flags of an EVAL body's first line, as Redis 7.2's
// evalExtractShebangFlags: a body not starting with "#!" has none and shebang is false
// (Redis's legacy "compat" mode); "#!lua" alone declares no flags; "#!lua flags=a,b" declares
// a and b. The error's text is Redis's reply (without the "ERR " its funnel adds).
func ParseShebang(body []byte) (flags ScriptFlags, shebang bool, err error) {
	flags, n, err := parseShebang(body)
	return flags, n > 0, err
}

// parseShebang is ParseShebang that also returns the length of the shebang line (without its
// newline, kept so that line numbers do not move); 0 when there is none.
func parseShebang(body []byte) (ScriptFlags, int, error) {
	if !bytes.HasPrefix(body, []byte("#!")) {
		return 0, 0, nil
	}
	end := bytes.IndexByte(body, '\n')
	if end < 0 {
		return 0, 0, scriptError("Invalid script shebang")
	}
	parts, ok := splitArgs(string(body[:end]))
	if !ok || len(parts) == 0 {
		return 0, 0, scriptError("Invalid engine in script shebang")
	}
	if parts[0] != "#!lua" {
		return 0, 0, scriptError("Unexpected engine in script shebang: " + parts[0])
	}
	var flags ScriptFlags
	for _, p := range parts[1:] {
		list, found := strings.CutPrefix(p, "flags=")
		if !found {
			return 0, 0, scriptError("Unknown lua shebang option: " + p)
		}
		if list == "" {
			continue // sdssplitlen of an empty string has no parts
		}
		for _, name := range strings.Split(list, ",") {
			f, ok := flagByName(name, false)
			if !ok {
				return 0, 0, scriptError("Unexpected flag in script shebang: " + name)
			}
			flags |= f
		}
	}
	return flags, end, nil
}

// splitArgs splits a line into words as Redis's sdssplitargs does for the cases a shebang
// has: words separated by blanks, "double" or 'single' quoted words; ok is false for an
// unbalanced quote or a closing quote not followed by a blank.
func splitArgs(line string) (words []string, ok bool) {
	i := 0
	for {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			return words, true
		}
		var w strings.Builder
		for i < len(line) && !isBlank(line[i]) {
			c := line[i]
			if c != '"' && c != '\'' {
				w.WriteByte(c)
				i++
				continue
			}
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, false
			}
			w.WriteString(line[i+1 : i+1+j])
			i += j + 2
			if i < len(line) && !isBlank(line[i]) {
				return nil, false
			}
		}
		words = append(words, w.String())
	}
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}
