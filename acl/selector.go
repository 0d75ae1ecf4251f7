package acl

import (
	"bytes"
	"strings"

	"github.com/kvserver/kvserver/glob"
)

// Key permissions of a key pattern.
const (
	permRead  uint8 = 1
	permWrite uint8 = 2
	permAll         = permRead | permWrite
)

type keyPattern struct {
	pat  string
	bpat []byte // pat as bytes for glob.Match, so a check does not allocate
	perm uint8
	// prefixOnly: pat is a literal followed by one '*' (`app:*`, the usual shape), matched by
	// comparing the literal, prefix, instead of walking the glob.
	prefixOnly bool
	prefix     []byte
}

// newKeyPattern returns pat's keyPattern, granting perm.
func newKeyPattern(pat string, perm uint8) keyPattern {
	p := keyPattern{pat: pat, bpat: []byte(pat), perm: perm}
	if n := len(pat) - 1; n >= 0 && pat[n] == '*' && !strings.ContainsAny(pat[:n], "*?[\\") {
		p.prefixOnly, p.prefix = true, p.bpat[:n]
	}
	return p
}

// matches is glob.Match of the pattern against key. A prefix-only pattern matches every key
// that starts with its literal, the literal itself too (Redis drops trailing stars once the
// string ends), but not the empty key, which only the empty pattern matches.
func (p *keyPattern) matches(key []byte) bool {
	if p.prefixOnly {
		return len(key) > 0 && bytes.HasPrefix(key, p.prefix)
	}
	return glob.Match(p.bpat, key, false)
}

// selector is one set of permissions: the root selector (the user's own rules) or one of the
// user's "(…)" selectors. A command is allowed when any selector allows it. A selector is
// changed only while its user is being built; afterwards it is read-only.
type selector struct {
	cat         *Catalog
	root        bool
	allKeys     bool // ~* or allkeys: every key, read and write
	allChannels bool // &* or allchannels
	// allCommands skips the bitmap test (+@all with nothing removed since); future is the
	// reserved bit Redis sets only with +@all: the description starts with +@all.
	allCommands bool
	future      bool
	cmds        []uint64         // allowed command IDs
	firstArgs   map[int][]string // command ID → allowed first arguments (+select|0), lower case
	rules       []string         // the command rules in order, lower case: "+@read", "-get"
	keys        []keyPattern
	channels    []string
	bchannels   [][]byte // channels as bytes for glob.Match
}

func newSelector(cat *Catalog, root, allChannels bool) *selector {
	return &selector{cat: cat, root: root, allChannels: allChannels, cmds: make([]uint64, (cat.Len()+63)/64)}
}

func (s *selector) clone() *selector {
	d := *s
	d.cmds = append([]uint64(nil), s.cmds...)
	d.rules = append([]string(nil), s.rules...)
	d.keys = append([]keyPattern(nil), s.keys...)
	d.channels = append([]string(nil), s.channels...)
	d.bchannels = append([][]byte(nil), s.bchannels...) // the byte slices are never modified
	if s.firstArgs != nil {
		d.firstArgs = make(map[int][]string, len(s.firstArgs))
		for id, a := range s.firstArgs {
			d.firstArgs[id] = append([]string(nil), a...)
		}
	}
	return &d
}

func (s *selector) bit(id int) bool {
	if id < 0 || id/64 >= len(s.cmds) {
		return false
	}
	return s.cmds[id/64]&(1<<(uint(id)%64)) != 0
}

func (s *selector) setBit(id int, allow bool) {
	if id < 0 || id/64 >= len(s.cmds) {
		return
	}
	if allow {
		s.cmds[id/64] |= 1 << (uint(id) % 64)
	} else {
		s.cmds[id/64] &^= 1 << (uint(id) % 64)
		s.allCommands = false
	}
}

// changePerm allows or blocks a command and, for a container, all its subcommands; it drops
// the command's first-arg rules (ACLChangeSelectorPerm).
func (s *selector) changePerm(cat *Catalog, id int, allow bool) {
	s.setBit(id, allow)
	delete(s.firstArgs, id)
	for _, sub := range cat.subs[id] {
		s.setBit(sub, allow)
	}
}

// updateRules records a command rule (without its sign, lower case) so that the description
// reproduces the order of rules: an earlier rule for the same command, or for one of its
// subcommands or first arguments ("config|get" when "config" comes), is dropped first.
func (s *selector) updateRules(rule string, allow bool) {
	rule = strings.ToLower(rule)
	kept := s.rules[:0]
	for _, r := range s.rules {
		body := r[1:]
		if body == rule || (len(body) > len(rule) && body[len(rule)] == '|' && body[:len(rule)] == rule) {
			continue
		}
		kept = append(kept, r)
	}
	s.rules = kept
	if allow {
		s.rules = append(s.rules, "+"+rule)
	} else {
		s.rules = append(s.rules, "-"+rule)
	}
}

func (s *selector) setAll(allow bool) {
	for i := range s.cmds {
		if allow {
			s.cmds[i] = ^uint64(0)
		} else {
			s.cmds[i] = 0
		}
	}
	s.allCommands, s.future = allow, allow
	s.rules = nil
	s.firstArgs = nil
}

// set applies one selector rule (ACLSetSelector); the error is one of the err* texts.
func (s *selector) set(cat *Catalog, op string) error {
	switch {
	case op == "": // inside "(…)" only: the root skips empty rules
		return errSyntax
	case strings.EqualFold(op, "allkeys") || op == "~*":
		s.allKeys = true
		s.keys = nil
	case strings.EqualFold(op, "resetkeys"):
		s.allKeys = false
		s.keys = nil
	case strings.EqualFold(op, "allchannels") || op == "&*":
		s.allChannels = true
		s.channels, s.bchannels = nil, nil
	case strings.EqualFold(op, "resetchannels"):
		s.allChannels = false
		s.channels, s.bchannels = nil, nil
	case strings.EqualFold(op, "allcommands") || strings.EqualFold(op, "+@all"):
		s.setAll(true)
	case strings.EqualFold(op, "nocommands") || strings.EqualFold(op, "-@all"):
		s.setAll(false)
	case op[0] == '~' || op[0] == '%':
		return s.addKeyPattern(op)
	case op[0] == '&':
		if s.allChannels {
			return errChannelAfterAll
		}
		if hasSpaces(op[1:]) {
			return errSyntax
		}
		pat := op[1:]
		for _, c := range s.channels {
			if c == pat {
				return nil
			}
		}
		s.channels = append(s.channels, pat)
		s.bchannels = append(s.bchannels, []byte(pat))
	case len(op) >= 2 && (op[0] == '+' || op[0] == '-') && op[1] == '@':
		k, ok := cat.catSet[strings.ToLower(op[2:])]
		if !ok {
			return errUnknownCommand
		}
		allow := op[0] == '+'
		s.updateRules(op[1:], allow)
		for _, id := range cat.inCat[k] {
			s.changePerm(cat, id, allow)
		}
	case op[0] == '+':
		return s.allowCommand(cat, op[1:])
	case op[0] == '-':
		id := cat.lookup(op[1:])
		if id < 0 {
			return errUnknownCommand
		}
		s.changePerm(cat, id, false)
		s.updateRules(cat.cmds[id].Name, false)
	default:
		return errSyntax
	}
	return nil
}

// allowCommand applies "+name", "+container|sub" or the first-arg rule "+cmd|arg".
func (s *selector) allowCommand(cat *Catalog, name string) error {
	bar := strings.LastIndexByte(name, '|')
	if bar < 0 {
		id := cat.lookup(name)
		if id < 0 {
			return errUnknownCommand
		}
		s.changePerm(cat, id, true)
		s.updateRules(cat.cmds[id].Name, true)
		return nil
	}
	id := cat.lookup(name[:bar])
	if id < 0 {
		return errUnknownCommand
	}
	if cat.cmds[id].Parent >= 0 {
		return errFirstArgOfSub
	}
	sub := name[bar+1:]
	if sub == "" {
		return errSyntax
	}
	if len(cat.subs[id]) > 0 {
		sid := cat.lookup(name)
		if sid < 0 {
			return errUnknownCommand
		}
		s.changePerm(cat, sid, true)
	} else {
		// Redis logs a deprecation warning here: allowing one first argument of an
		// otherwise blocked command (SELECT 0, DEBUG OBJECT).
		s.addFirstArg(id, strings.ToLower(sub)) // matched case-insensitively
	}
	s.updateRules(name, true)
	return nil
}

func (s *selector) addFirstArg(id int, arg string) {
	if s.firstArgs == nil {
		s.firstArgs = map[int][]string{}
	}
	for _, a := range s.firstArgs[id] {
		if strings.EqualFold(a, arg) {
			return
		}
	}
	s.firstArgs[id] = append(s.firstArgs[id], arg)
}

// addKeyPattern applies "~pattern", "%R~pattern", "%W~pattern", "%RW~pattern".
func (s *selector) addKeyPattern(op string) error {
	if s.allKeys {
		return errKeyAfterAll
	}
	var perm uint8
	off := 1
	if op[0] == '%' {
		// As Redis, the loop may also end at the end of op without '~' ("%R" is the empty
		// pattern, read only); with no permission letter at all it is a syntax error.
		for ; off < len(op); off++ {
			c := op[off]
			if (c == 'R' || c == 'r') && perm&permRead == 0 {
				perm |= permRead
			} else if (c == 'W' || c == 'w') && perm&permWrite == 0 {
				perm |= permWrite
			} else if c == '~' && perm != 0 {
				off++
				break
			} else {
				return errSyntax
			}
		}
		if perm == 0 {
			return errSyntax
		}
	} else {
		perm = permAll
	}
	pat := op[off:]
	if hasSpaces(pat) {
		return errSyntax
	}
	for i := range s.keys {
		if s.keys[i].pat == pat {
			s.keys[i].perm |= perm
			return nil
		}
	}
	s.keys = append(s.keys, newKeyPattern(pat, perm))
	return nil
}

// hasSpaces is Redis's ACLStringHasSpaces: white space or NUL.
func hasSpaces(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\v', '\f', '\r', 0:
			return true
		}
	}
	return false
}

// describeCommands is ACLDescribeSelectorCommandRules: +@all or -@all, then the rules.
func (s *selector) describeCommands() string {
	var b strings.Builder
	if s.future {
		b.WriteString("+@all")
	} else {
		b.WriteString("-@all")
	}
	for _, r := range s.rules {
		b.WriteByte(' ')
		b.WriteString(r)
	}
	return b.String()
}

func (kp keyPattern) String() string {
	switch kp.perm {
	case permRead:
		return "%R~" + kp.pat
	case permWrite:
		return "%W~" + kp.pat
	}
	return "~" + kp.pat
}

// describeKeys is the keys part of GETUSER: "~*" or the patterns separated by spaces.
func (s *selector) describeKeys() string {
	if s.allKeys {
		return "~*"
	}
	parts := make([]string, len(s.keys))
	for i, k := range s.keys {
		parts[i] = k.String()
	}
	return strings.Join(parts, " ")
}

// describeChannels is the channels part of GETUSER: "&*" or the patterns.
func (s *selector) describeChannels() string {
	if s.allChannels {
		return "&*"
	}
	parts := make([]string, len(s.channels))
	for i, c := range s.channels {
		parts[i] = "&" + c
	}
	return strings.Join(parts, " ")
}

// describe is ACLDescribeSelector: keys, channels (resetchannels first when not all), commands.
func (s *selector) describe() string {
	var b strings.Builder
	if s.allKeys {
		b.WriteString("~* ")
	} else {
		for _, k := range s.keys {
			b.WriteString(k.String())
			b.WriteByte(' ')
		}
	}
	if s.allChannels {
		b.WriteString("&* ")
	} else {
		b.WriteString("resetchannels ")
		for _, c := range s.channels {
			b.WriteString("&" + c + " ")
		}
	}
	b.WriteString(s.describeCommands())
	return b.String()
}
