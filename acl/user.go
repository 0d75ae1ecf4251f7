package acl

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// User is one ACL user, immutable once built: a change builds a new *User (copy on write), so
// holders read it without a lock.
type User struct {
	cat       *Catalog
	name      string
	enabled   bool
	nopass    bool
	skipSanit bool     // skip-sanitize-payload (else sanitize-payload)
	passwords []string // SHA-256 hex, in order of addition
	selectors []*selector
	allowsAll bool
	desc      string // ACL LIST line without "user <name> "
}

// Name returns the user's name.
func (u *User) Name() string { return u.name }

// Enabled reports whether the user is "on" (may authenticate).
func (u *User) Enabled() bool { return u.enabled }

// NoPass reports whether every password is accepted ("nopass").
func (u *User) NoPass() bool { return u.nopass }

// SkipSanitizePayload reports skip-sanitize-payload (RESTORE skips its payload check).
func (u *User) SkipSanitizePayload() bool { return u.skipSanit }

// AllowsAll reports whether the user's root selector allows every command on every key (read
// and write) and every channel: the pipeline then skips the check. It is computed when the user
// is built and ignores on/off (a client keeps running as a user turned off, as in Redis).
func (u *User) AllowsAll() bool { return u.allowsAll }

// CheckPassword reports whether pass authenticates the user: nopass, or its SHA-256 equals one
// of the user's hashes (compared in constant time). It does not look at on/off.
func (u *User) CheckPassword(pass []byte) bool {
	if u.nopass {
		return true
	}
	sum := sha256.Sum256(pass)
	var h [64]byte
	hex.Encode(h[:], sum[:])
	ok := 0
	for _, p := range u.passwords {
		ok |= subtle.ConstantTimeCompare(h[:], []byte(p))
	}
	return ok == 1
}

// HashPassword is the SHA-256 hex form a password is stored in.
func HashPassword(pass []byte) string {
	sum := sha256.Sum256(pass)
	return hex.EncodeToString(sum[:])
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// newUser is ACLCreateUser: off, sanitize-payload, no passwords, a root selector with no
// commands, no keys, and all channels only when acl-pubsub-default is allchannels.
func newUser(cat *Catalog, name string, allChannels bool) *User {
	return &User{cat: cat, name: name, selectors: []*selector{newSelector(cat, true, allChannels)}}
}

func (u *User) clone() *User {
	d := *u
	d.passwords = append([]string(nil), u.passwords...)
	d.selectors = make([]*selector, len(u.selectors))
	for i, s := range u.selectors {
		d.selectors[i] = s.clone()
	}
	return &d
}

// set applies one user rule (ACLSetUser).
func (u *User) set(cat *Catalog, op string, allChannelsDefault bool) error {
	if op == "" {
		return nil
	}
	switch {
	case strings.EqualFold(op, "on"):
		u.enabled = true
	case strings.EqualFold(op, "off"):
		u.enabled = false
	case strings.EqualFold(op, "skip-sanitize-payload"):
		u.skipSanit = true
	case strings.EqualFold(op, "sanitize-payload"):
		u.skipSanit = false
	case strings.EqualFold(op, "nopass"):
		u.nopass = true
		u.passwords = nil
	case strings.EqualFold(op, "resetpass"):
		u.nopass = false
		u.passwords = nil
	case op[0] == '>' || op[0] == '#':
		var h string
		if op[0] == '>' {
			h = HashPassword([]byte(op[1:]))
		} else {
			if !validHash(op[1:]) {
				return errBadHash
			}
			h = op[1:]
		}
		found := false
		for _, p := range u.passwords {
			if p == h {
				found = true
			}
		}
		if !found {
			u.passwords = append(u.passwords, h)
		}
		u.nopass = false
	case op[0] == '<' || op[0] == '!':
		var h string
		if op[0] == '<' {
			h = HashPassword([]byte(op[1:]))
		} else {
			if !validHash(op[1:]) {
				return errBadHash
			}
			h = op[1:]
		}
		i := 0
		for i < len(u.passwords) && u.passwords[i] != h {
			i++
		}
		if i == len(u.passwords) {
			return errNoSuchPassword
		}
		u.passwords = append(u.passwords[:i], u.passwords[i+1:]...)
	case op[0] == '(' && op[len(op)-1] == ')':
		s := newSelector(cat, false, allChannelsDefault)
		for _, f := range splitArgs(op[1 : len(op)-1]) {
			if err := s.set(cat, f); err != nil {
				return err
			}
		}
		u.selectors = append(u.selectors, s)
	case strings.EqualFold(op, "clearselectors"):
		u.selectors = u.selectors[:1]
	case strings.EqualFold(op, "reset"):
		u.nopass, u.passwords = false, nil
		root := u.selectors[0]
		root.allKeys, root.keys = false, nil
		root.allChannels, root.channels, root.bchannels = allChannelsDefault, nil, nil
		u.enabled = false
		u.skipSanit = false
		u.selectors = u.selectors[:1]
		root.setAll(false)
	default:
		return u.selectors[0].set(cat, op)
	}
	return nil
}

// finish computes the derived fields of a user about to be published.
func (u *User) finish() {
	r := u.selectors[0]
	u.allowsAll = r.allCommands && r.allKeys && r.allChannels
	var b strings.Builder
	if u.enabled {
		b.WriteString("on ")
	} else {
		b.WriteString("off ")
	}
	if u.nopass {
		b.WriteString("nopass ")
	}
	if u.skipSanit {
		b.WriteString("skip-sanitize-payload ")
	} else {
		b.WriteString("sanitize-payload ")
	}
	for _, p := range u.passwords {
		b.WriteString("#" + p + " ")
	}
	b.WriteString(r.describe())
	for _, s := range u.selectors[1:] {
		b.WriteString(" (" + s.describe() + ")")
	}
	u.desc = b.String()
}

// Describe is the user's rules as ACL LIST prints them after "user <name> " (ACLDescribeUser):
// flags, password hashes, the root selector, then each selector in parentheses. Given back to
// SetUser it rebuilds the same user.
func (u *User) Describe() string { return u.desc }

// SelectorInfo is one selector in ACL GETUSER's reply.
type SelectorInfo struct {
	Commands string // "-@all +@read -get"
	Keys     string // "~app:* %R~r:*", "~*" or ""
	Channels string // "&ch*", "&*" or ""
}

// UserInfo is ACL GETUSER's reply (Redis 7.2): "flags" (array), "passwords" (array of hashes),
// "commands", "keys", "channels" (strings, the root selector), "selectors" (array of maps with
// commands, keys, channels).
type UserInfo struct {
	Flags     []string
	Passwords []string
	SelectorInfo
	Selectors []SelectorInfo
}

// GetUser returns the user's ACL GETUSER description.
func (u *User) GetUser() UserInfo {
	var in UserInfo
	if u.enabled {
		in.Flags = append(in.Flags, "on")
	} else {
		in.Flags = append(in.Flags, "off")
	}
	if u.nopass {
		in.Flags = append(in.Flags, "nopass")
	}
	if u.skipSanit {
		in.Flags = append(in.Flags, "skip-sanitize-payload")
	} else {
		in.Flags = append(in.Flags, "sanitize-payload")
	}
	in.Passwords = append([]string{}, u.passwords...)
	in.SelectorInfo = u.selectors[0].info()
	in.Selectors = []SelectorInfo{}
	for _, s := range u.selectors[1:] {
		in.Selectors = append(in.Selectors, s.info())
	}
	return in
}

func (s *selector) info() SelectorInfo {
	return SelectorInfo{Commands: s.describeCommands(), Keys: s.describeKeys(), Channels: s.describeChannels()}
}

// splitArgs splits a selector's inside or an aclfile line on spaces, with Redis's
// sdssplitargs quoting ("…" with escapes, '…').
func splitArgs(line string) []string {
	args, _ := SplitArgs(line)
	return args
}
