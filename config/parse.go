package config

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/kvserver/kvserver/conv"
)

func itoa(v int64) string  { return strconv.FormatInt(v, 10) }
func utoa(v uint64) string { return strconv.FormatUint(v, 10) }

// ParseMemory converts a memory amount as Redis's memtoull does: digits, optionally
// followed by a unit b, k (1000), kb (1024), m (10^6), mb (1024²), g (10^9) or gb (1024³),
// in any case. A sign, spaces or any other suffix are an error. Like memtoull it reads
// "" (and a bare unit) as 0 and saturates a digit string too long for 64 bits.
func ParseMemory(s string) (uint64, bool) {
	if strings.HasPrefix(s, "-") {
		return 0, false
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	var mul uint64
	switch strings.ToLower(s[i:]) {
	case "", "b":
		mul = 1
	case "k":
		mul = 1000
	case "kb":
		mul = 1024
	case "m":
		mul = 1000 * 1000
	case "mb":
		mul = 1024 * 1024
	case "g":
		mul = 1000 * 1000 * 1000
	case "gb":
		mul = 1024 * 1024 * 1024
	default:
		return 0, false
	}
	if i >= 128 { // memtoull copies the digits into a 128-byte buffer
		return 0, false
	}
	var v uint64
	for _, c := range []byte(s[:i]) {
		d := uint64(c - '0')
		if v > (math.MaxUint64-d)/10 {
			v = math.MaxUint64 // strtoull saturates, and memtoull accepts the result
			break
		}
		v = v*10 + d
	}
	if v > math.MaxUint64/mul {
		return 0, false
	}
	return v * mul, true
}

// setValue parses args for p as config.c's type interface does and returns the value
// as CONFIG GET prints it, or Redis's reason for refusing it. cur is p's current value.
// Every type but Special and EnumFlags takes exactly one argument.
func (p *Param) setValue(cur string, args []string) (string, string) {
	switch p.Type {
	case Bool:
		var v string
		switch strings.ToLower(args[0]) {
		case "yes":
			v = "yes"
		case "no":
			v = "no"
		default:
			return "", "argument must be 'yes' or 'no'"
		}
		if p.check != nil {
			if reason := p.check(v); reason != "" {
				return "", reason
			}
		}
		return v, ""
	case Integer, Memory, MemoryPercent, Octal:
		return p.setNumeric(args[0])
	case Enum, EnumFlags:
		return p.setEnum(args)
	case String:
		if p.check != nil {
			if reason := p.check(args[0]); reason != "" {
				return "", reason
			}
		}
		return args[0], ""
	default:
		return p.special(cur, args)
	}
}

// setNumeric is numericParseString, numericBoundaryCheck and numericConfigGet.
func (p *Param) setNumeric(s string) (string, string) {
	var v int64
	parsed := false
	if p.Type == Memory || p.Type == MemoryPercent {
		if u, ok := ParseMemory(s); ok {
			v, parsed = int64(u), true // config.c keeps it in a long long
		}
	}
	if !parsed && p.Type == MemoryPercent && len(s) > 1 && s[len(s)-1] == '%' {
		if n, ok := conv.String2ll(s[:len(s)-1]); ok && n >= 0 {
			v, parsed = -n, true // a percentage is stored negative
		}
	}
	if !parsed && p.Type == Octal {
		if n, whole, overflow := conv.Strtoll(s, 8); whole && !overflow {
			v, parsed = n, true
		}
	}
	if !parsed && p.Type == Integer {
		v, parsed = conv.String2ll(s)
	}
	if !parsed {
		switch p.Type {
		case MemoryPercent:
			return "", "argument must be a memory or percent value"
		case Memory:
			return "", "argument must be a memory value"
		case Octal:
			return "", "argument couldn't be parsed as an octal number"
		}
		return "", "argument couldn't be parsed into an integer"
	}

	if p.Has(Unsigned) {
		if uint64(v) > uint64(p.Max) || uint64(v) < uint64(p.Min) {
			if p.Type == Octal {
				return "", "argument must be between " + strconv.FormatUint(uint64(p.Min), 8) +
					" and " + strconv.FormatUint(uint64(p.Max), 8) + " inclusive"
			}
			return "", "argument must be between " + utoa(uint64(p.Min)) + " and " + utoa(uint64(p.Max)) + " inclusive"
		}
	} else if p.Type == MemoryPercent && v < 0 {
		if v < p.Min {
			return "", "percentage argument must be less or equal to " + itoa(-p.Min)
		}
	} else if v > p.Max || v < p.Min {
		return "", "argument must be between " + itoa(p.Min) + " and " + itoa(p.Max) + " inclusive"
	}
	if p.clamp != nil {
		v = p.clamp(v)
	}
	return formatNumeric(p.Type, v), ""
}

func formatNumeric(t Type, v int64) string {
	switch {
	case t == MemoryPercent && v < 0:
		return itoa(-v) + "%"
	case t == Memory || t == MemoryPercent:
		return utoa(uint64(v))
	case t == Octal:
		return strconv.FormatInt(v, 8)
	}
	return itoa(v)
}

// setEnum is enumConfigSet: names match in any case; an EnumFlags value ORs several.
func (p *Param) setEnum(args []string) (string, string) {
	value, ok := 0, len(args) == 1 || (p.Type == EnumFlags && len(args) > 0)
	for _, a := range args {
		matched := false
		for _, ev := range p.Values {
			if strings.EqualFold(a, ev.Name) {
				value |= ev.Value
				matched = true
			}
		}
		ok = ok && matched
	}
	if !ok {
		var b strings.Builder
		b.WriteString("argument(s) must be one of the following: ")
		for i, ev := range p.Values {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(ev.Name)
		}
		return "", b.String()
	}
	if p.Type == EnumFlags && value&shutdownSave != 0 && value&shutdownNoSave != 0 {
		return "", "shutdown options SAVE and NOSAVE can't be used simultaneously"
	}
	return enumName(p.Values, value, p.Type == EnumFlags), ""
}

// enumName is configEnumGetName: the first name with exactly this value, or for flags
// the names of the bits set, in table order.
func enumName(values []EnumValue, v int, flags bool) string {
	var names []string
	unmatched := v
	for _, ev := range values {
		if ev.Value == v {
			return ev.Name
		}
		if flags && ev.Value != 0 && ev.Value == unmatched&ev.Value {
			names = append(names, ev.Name)
			unmatched &^= ev.Value
		}
	}
	if len(names) == 0 || unmatched != 0 {
		return "unknown"
	}
	return strings.Join(names, " ")
}

// Validators of String and Bool parameters: each returns Redis's reason, or "".

func pathIsBaseName(s string) bool { return !strings.ContainsAny(s, `/\`) }

func checkDBFilename(v string) string {
	if !pathIsBaseName(v) {
		return "dbfilename can't be a path, just a filename"
	}
	return ""
}

func checkAOFFilename(v string) string {
	if v == "" {
		return "appendfilename can't be empty"
	}
	if !pathIsBaseName(v) {
		return "appendfilename can't be a path, just a filename"
	}
	return ""
}

func checkAOFDirname(v string) string {
	if v == "" {
		return "appenddirname can't be empty"
	}
	if !pathIsBaseName(v) {
		return "appenddirname can't be a path, just a dirname"
	}
	return ""
}

// checkHostname is isValidAnnouncedHostname (NET_HOST_STR_LEN is 256).
func checkHostname(v string) string {
	if len(v) >= 256 {
		return "Hostnames must be less than 256 characters"
	}
	for _, c := range []byte(v) {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return "Hostnames may only contain alphanumeric characters, hyphens or dots"
		}
	}
	return ""
}

// checkNodename is isValidAnnouncedNodename: isValidAuxChar refuses NUL and
// "!#$%&()*+;<>?@[]^{|}~".
func checkNodename(v string) string {
	for _, c := range []byte(v) {
		if c == 0 || strings.IndexByte("!#$%&()*+;<>?@[]^{|}~", c) >= 0 {
			return "Announced human node name contained invalid character"
		}
	}
	return ""
}

// checkActiveDefrag is isValidActiveDefrag in a build without Redis's jemalloc, which
// is what kvserver is.
func checkActiveDefrag(v string) string {
	if v == "yes" {
		return "Active defragmentation cannot be enabled: it requires a Redis server compiled " +
			"with a modified Jemalloc like the one shipped by default with the Redis source distribution"
	}
	return ""
}

// checkProcTitleTemplate is validateProcTitleTemplate: sdstemplate expansion with the
// variables Redis knows ("{{" is a literal brace), and a result that is not blank.
func checkProcTitleTemplate(v string) string {
	const bad = "template format is invalid or contains unknown variables"
	vars := map[string]string{
		"title": "", "listen-addr": "*:6379", "server-mode": "", "port": "6379",
		"tls-port": "0", "unixsocket": "", "config-file": "",
	}
	var out strings.Builder
	for p := v; p != ""; {
		i := strings.IndexByte(p, '{')
		if i < 0 {
			out.WriteString(p)
			break
		}
		out.WriteString(p[:i])
		p = p[i+1:]
		if p == "" {
			return bad
		}
		if p[0] == '{' {
			out.WriteByte('{')
			p = p[1:]
			continue
		}
		j := strings.IndexByte(p, '}')
		if j < 0 {
			return bad
		}
		val, ok := vars[p[:j]]
		if !ok {
			return bad
		}
		out.WriteString(val)
		p = p[j+1:]
	}
	if strings.Trim(out.String(), " ") == "" {
		return bad
	}
	return ""
}

// Special parameters. Each takes the current value and the arguments, and returns the
// new value as CONFIG GET prints it or Redis's reason.

// parseDir is setConfigDirOption without the chdir: it checks that the directory can be
// entered and returns its absolute path (CONFIG GET prints getcwd). Changing the working
// directory is left to the server's OnChange("dir") listener.
func parseDir(_ string, args []string) (string, string) {
	if len(args) != 1 {
		return "", "wrong number of arguments"
	}
	fi, err := os.Stat(args[0])
	if err == nil && !fi.IsDir() {
		err = syscall.ENOTDIR
	}
	if err == nil {
		err = syscall.Access(args[0], 1) // X_OK: chdir needs search permission
	}
	if err != nil {
		return "", strerror(err)
	}
	abs, err := filepath.Abs(args[0])
	if err != nil {
		return "", strerror(err)
	}
	return abs, ""
}

// strerror gives the C library's wording for an errno, as Redis prints it.
func strerror(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "No such file or directory"
	}
	return err.Error()
}

// parseSave is setConfigSaveOption: pairs of seconds (>= 1) and changes (>= 0); a single
// "" means no snapshots.
func parseSave(_ string, args []string) (string, string) {
	if len(args) == 1 && args[0] == "" {
		args = nil
	}
	if len(args)%2 != 0 {
		return "", "Invalid save parameters"
	}
	out := make([]string, 0, len(args))
	for j, a := range args {
		v, whole, _ := conv.Strtoll(a, 10)
		if !whole || j%2 == 0 && v < 1 || j%2 == 1 && v < 0 {
			return "", "Invalid save parameters"
		}
		if j%2 == 1 {
			v = int64(int32(v)) // changes is a C int
		}
		out = append(out, itoa(v))
	}
	return strings.Join(out, " "), ""
}

// parseBind is setConfigBindOption (CONFIG_BINDADDR_MAX is 16).
func parseBind(_ string, args []string) (string, string) {
	if len(args) > 16 {
		return "", "Too many bind addresses specified."
	}
	if len(args) == 1 && args[0] == "" {
		return "", ""
	}
	return strings.Join(args, " "), ""
}

// parseClientOutputBufferLimit is updateClientOutputBufferLimit: groups of
// <class> <hard> <soft> <soft seconds>; classes not named keep their limits.
func parseClientOutputBufferLimit(cur string, args []string) (string, string) {
	if len(args)%4 != 0 {
		return "", "Wrong number of arguments in buffer limit configuration."
	}
	limits := strings.Fields(cur) // "normal h s t slave h s t pubsub h s t"
	for j := 0; j < len(args); j += 4 {
		class := -1
		switch strings.ToLower(args[j]) {
		case "normal":
			class = 0
		case "slave", "replica":
			class = 1
		case "pubsub":
			class = 2
		}
		if class < 0 {
			return "", "Invalid client class specified in buffer limit configuration."
		}
		hard, okHard := ParseMemory(args[j+1])
		soft, okSoft := ParseMemory(args[j+2])
		secs, whole, _ := conv.Strtoll(args[j+3], 10)
		secs = int64(int32(secs)) // soft_seconds is a C int
		if !okHard || !okSoft || secs < 0 || !whole {
			return "", "Error in hard, soft or soft_seconds setting in buffer limit configuration."
		}
		limits[class*4+1], limits[class*4+2], limits[class*4+3] = utoa(hard), utoa(soft), itoa(secs)
	}
	return strings.Join(limits, " "), ""
}

// parseOOMScoreAdjValues is setConfigOOMScoreAdjValuesOption.
func parseOOMScoreAdjValues(_ string, args []string) (string, string) {
	if len(args) != 3 {
		return "", "wrong number of arguments"
	}
	out := make([]string, 3)
	for i, a := range args {
		v, whole, _ := conv.Strtoll(a, 10)
		if !whole || v < -2000 || v > 2000 {
			return "", "Invalid oom-score-adj-values, elements must be between -2000 and 2000."
		}
		out[i] = itoa(v)
	}
	return strings.Join(out, " "), ""
}

// Keyspace notification classes (server.h's NOTIFY_*).
const (
	notifyKeyspace = 1 << 0
	notifyKeyevent = 1 << 1
	notifyGeneric  = 1 << 2
	notifyString   = 1 << 3
	notifyList     = 1 << 4
	notifySet      = 1 << 5
	notifyHash     = 1 << 6
	notifyZset     = 1 << 7
	notifyExpired  = 1 << 8
	notifyEvicted  = 1 << 9
	notifyStream   = 1 << 10
	notifyKeyMiss  = 1 << 11
	notifyModule   = 1 << 13
	notifyNew      = 1 << 14
	notifyAll      = notifyGeneric | notifyString | notifyList | notifySet | notifyHash |
		notifyZset | notifyExpired | notifyEvicted | notifyStream | notifyModule
)

// parseNotifyKeyspaceEvents is keyspaceEventsStringToFlags then
// keyspaceEventsFlagsToString, with one difference: Redis prints n only without A (its flags
// keep n, its CONFIG GET and CONFIG REWRITE lose it), while here the value is all there is, so
// n follows A ("AKEn" reads back "AnKE" rather than "AKE") and new-key events stay on.
func parseNotifyKeyspaceEvents(_ string, args []string) (string, string) {
	if len(args) != 1 {
		return "", "wrong number of arguments"
	}
	flags := 0
	for _, c := range []byte(args[0]) {
		switch c {
		case 'A':
			flags |= notifyAll
		case 'g':
			flags |= notifyGeneric
		case '$':
			flags |= notifyString
		case 'l':
			flags |= notifyList
		case 's':
			flags |= notifySet
		case 'h':
			flags |= notifyHash
		case 'z':
			flags |= notifyZset
		case 'x':
			flags |= notifyExpired
		case 'e':
			flags |= notifyEvicted
		case 'K':
			flags |= notifyKeyspace
		case 'E':
			flags |= notifyKeyevent
		case 't':
			flags |= notifyStream
		case 'm':
			flags |= notifyKeyMiss
		case 'd':
			flags |= notifyModule
		case 'n':
			flags |= notifyNew
		default:
			return "", "Invalid event class character. Use 'Ag$lshzxeKEtmdn'."
		}
	}
	var b strings.Builder
	if flags&notifyAll == notifyAll {
		b.WriteByte('A')
		if flags&notifyNew != 0 {
			b.WriteByte('n')
		}
	} else {
		for _, f := range []struct {
			bit int
			c   byte
		}{{notifyGeneric, 'g'}, {notifyString, '$'}, {notifyList, 'l'}, {notifySet, 's'},
			{notifyHash, 'h'}, {notifyZset, 'z'}, {notifyExpired, 'x'}, {notifyEvicted, 'e'},
			{notifyStream, 't'}, {notifyModule, 'd'}, {notifyNew, 'n'}} {
			if flags&f.bit != 0 {
				b.WriteByte(f.c)
			}
		}
	}
	if flags&notifyKeyspace != 0 {
		b.WriteByte('K')
	}
	if flags&notifyKeyevent != 0 {
		b.WriteByte('E')
	}
	if flags&notifyKeyMiss != 0 {
		b.WriteByte('m')
	}
	return b.String(), ""
}

// parseReplicaOf is setConfigReplicaOfOption: "<host> <port>" or "no one".
func parseReplicaOf(_ string, args []string) (string, string) {
	if len(args) != 2 {
		return "", "wrong number of arguments"
	}
	if strings.EqualFold(args[0], "no") && strings.EqualFold(args[1], "one") {
		return "", ""
	}
	port, whole, overflow := conv.Strtoll(args[1], 10)
	if port < 0 || port > 65535 || !whole || overflow {
		return "", "Invalid master port"
	}
	return args[0] + " " + itoa(port), ""
}

// parseLatencyPercentiles is setConfigLatencyTrackingInfoPercentilesOutputOption; the
// value prints as "%f" with trailing zeros trimmed.
func parseLatencyPercentiles(_ string, args []string) (string, string) {
	if len(args) == 1 && args[0] == "" {
		return "", ""
	}
	out := make([]string, len(args))
	for i, a := range args {
		f, ok := string2d(a)
		if !ok {
			return "", "Invalid latency-tracking-info-percentiles parameters"
		}
		if f > 100 || f < 0 {
			return "", "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]"
		}
		s := strconv.FormatFloat(f, 'f', 6, 64)
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		out[i] = s
	}
	return strings.Join(out, " "), ""
}

// string2d is Redis's strict float parser: the whole string, no leading space, no NaN.
func string2d(s string) (float64, bool) {
	if s == "" || s[0] == ' ' || s[0] >= '\t' && s[0] <= '\r' || strings.ContainsRune(s, '_') {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}
