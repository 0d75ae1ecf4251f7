package acl

import (
	"strings"

	"github.com/kvserver/kvserver/glob"
)

// Reason says why a check failed; the values are ordered as Redis's ACL_DENIED_* so that the
// most relevant denial among selectors can be picked.
type Reason uint8

const (
	None    Reason = iota // allowed
	Cmd                   // the command (or its first argument) is not allowed
	Key                   // a key is outside the user's patterns
	Auth                  // failed authentication (used only by the ACL LOG)
	Channel               // a channel is outside the user's patterns
)

// String is the reason as the ACL LOG writes it.
func (r Reason) String() string {
	switch r {
	case Cmd:
		return "command"
	case Key:
		return "key"
	case Auth:
		return "auth"
	case Channel:
		return "channel"
	}
	return ""
}

// KeyAccess is one key of a command with its intent: Read for access to the value, Write for
// insert, update or delete (Redis's CMD_KEY_ACCESS / INSERT / DELETE / UPDATE). Pos is the
// key's index in the command line (argv), used to pick which denial to report.
type KeyAccess struct {
	Key         []byte
	Read, Write bool
	Pos         int
}

// Denial says why Check refused a command: Reason None means allowed. Object is the command's
// full name for Cmd, else the key or channel; Pos is its index in the command line (0 for Cmd).
type Denial struct {
	Reason Reason
	Object string
	Pos    int
}

// Message is the denial's error text without the "NOPERM " code (getAclErrorMessage): the
// pipeline uses verbose false (keys and channels not named), ACL DRYRUN verbose true.
func (d Denial) Message(user string, verbose bool) string {
	switch d.Reason {
	case Cmd:
		return "User " + user + " has no permissions to run the '" + d.Object + "' command"
	case Key:
		if verbose {
			return "User " + user + " has no permissions to access the '" + d.Object + "' key"
		}
		return "No permissions to access a key"
	case Channel:
		if verbose {
			return "User " + user + " has no permissions to access the '" + d.Object + "' channel"
		}
		return "No permissions to access a channel"
	}
	return ""
}

// Check is ACLCheckAllUserCommandPerm: whether any of the user's selectors allows running the
// command cmdID with these keys and channels. args is the whole command line (args[0] the
// command name, for a subcommand args[1] its name): a first-arg rule (+select|0) compares
// args[1], or args[2] for a subcommand. channels are the command's channels (PUBLISH,
// SUBSCRIBE …, at positions chanPos when given, else counted from 1); isPattern says they are
// PSUBSCRIBE patterns, which must equal an allowed pattern literally.
//
// When every selector refuses, the denial reported is the command if no selector allowed it,
// else the key or channel with the highest position among the selectors' first refusals.
func (u *User) Check(cmdID int, args [][]byte, keys []KeyAccess, channels [][]byte, isPattern bool) Denial {
	if u.allowsAll {
		return Denial{}
	}
	best := Denial{Reason: Cmd}
	for _, s := range u.selectors {
		d := s.check(cmdID, args, keys, channels, isPattern)
		if d.Reason == None {
			return d
		}
		if d.Reason > best.Reason || (d.Reason == best.Reason && d.Pos > best.Pos) {
			best = d
		}
	}
	if best.Reason == Cmd {
		best.Object = cmdName(u, cmdID)
		best.Pos = 0
	}
	return best
}

// cmdName is the full name of a command ID, for a denial.
func cmdName(u *User, id int) string {
	if u.cat != nil {
		if ci, ok := u.cat.Command(id); ok {
			return ci.Name
		}
	}
	return ""
}

// check is ACLSelectorCheckCmd.
func (s *selector) check(cmdID int, args [][]byte, keys []KeyAccess, channels [][]byte, isPattern bool) Denial {
	if !s.allCommands && !s.bit(cmdID) && !s.noAuth(cmdID) {
		if !s.firstArgAllowed(cmdID, args) {
			return Denial{Reason: Cmd}
		}
	}
	if !s.allKeys {
		for i, k := range keys {
			if !s.keyAllowed(k) {
				pos := k.Pos
				if pos == 0 {
					pos = i + 1
				}
				return Denial{Reason: Key, Object: string(k.Key), Pos: pos}
			}
		}
	}
	if !s.allChannels {
		for i, ch := range channels {
			if !s.channelAllowed(ch, isPattern) {
				return Denial{Reason: Channel, Object: string(ch), Pos: i + 1}
			}
		}
	}
	return Denial{}
}

// noAuth reports a NoAuth command (AUTH, HELLO …): it needs no command permission.
func (s *selector) noAuth(id int) bool {
	return s.cat != nil && id >= 0 && id < len(s.cat.cmds) && s.cat.cmds[id].NoAuth
}

func (s *selector) firstArgAllowed(id int, args [][]byte) bool {
	allowed := s.firstArgs[id]
	if len(allowed) == 0 || len(args) < 2 {
		return false
	}
	idx := 1
	if s.cat != nil && id >= 0 && id < len(s.cat.cmds) && s.cat.cmds[id].Parent >= 0 {
		idx = 2
	}
	if idx >= len(args) {
		return false
	}
	for _, a := range allowed {
		if strings.EqualFold(a, string(args[idx])) {
			return true
		}
	}
	return false
}

// keyAllowed is ACLSelectorCheckKey: a pattern with at least the key's permissions matching it.
func (s *selector) keyAllowed(k KeyAccess) bool {
	var need uint8
	if k.Read {
		need |= permRead
	}
	if k.Write {
		need |= permWrite
	}
	for i := range s.keys {
		p := &s.keys[i]
		if p.perm&need == need && p.matches(k.Key) {
			return true
		}
	}
	return false
}

// AllowsOneKey is Check's quick yes for a command with one key and no channel (GET, SET …),
// asked without building the command line: true when a selector allows the command outright
// (by its bit, not a first-argument rule) and the key with this intent. false means only that
// Check must decide, and name the denial.
func (u *User) AllowsOneKey(cmdID int, key []byte, read, write bool) bool {
	if u.allowsAll {
		return true
	}
	k := KeyAccess{Key: key, Read: read, Write: write}
	for _, s := range u.selectors {
		if (s.allCommands || s.bit(cmdID) || s.noAuth(cmdID)) && (s.allKeys || s.keyAllowed(k)) {
			return true
		}
	}
	return false
}

// channelAllowed is ACLCheckChannelAgainstList: a channel matches the patterns as globs, a
// PSUBSCRIBE pattern only an identical pattern.
func (s *selector) channelAllowed(ch []byte, isPattern bool) bool {
	for i, p := range s.bchannels {
		if isPattern {
			if s.channels[i] == string(ch) {
				return true
			}
		} else if glob.Match(p, ch, false) {
			return true
		}
	}
	return false
}

// CheckKey is ACLUserCheckKeyPerm: whether any selector allows this key with this intent
// (used by commands that find keys while running, such as SORT BY/GET or scripts).
func (u *User) CheckKey(k KeyAccess) bool {
	for _, s := range u.selectors {
		if s.allKeys || s.keyAllowed(k) {
			return true
		}
	}
	return false
}

// CheckChannel is ACLUserCheckChannelPerm: whether any selector allows the channel (or, with
// isPattern, the literal pattern).
func (u *User) CheckChannel(ch []byte, isPattern bool) bool {
	for _, s := range u.selectors {
		if s.allChannels || s.channelAllowed(ch, isPattern) {
			return true
		}
	}
	return false
}

// HasUnrestrictedKeyAccess reports whether the command is allowed by a selector that also
// grants the intent on every key (~*, allkeys, %R~* …): ACLUserCheckCmdWithUnrestrictedKeyAccess,
// used by commands touching the whole keyspace (FLUSHALL-like checks, SCAN with a pattern …).
func (u *User) HasUnrestrictedKeyAccess(cmdID int, args [][]byte, keys []KeyAccess, read, write bool) bool {
	var need uint8
	if read {
		need |= permRead
	}
	if write {
		need |= permWrite
	}
	for _, s := range u.selectors {
		if s.check(cmdID, args, keys, nil, false).Reason != None {
			continue
		}
		if s.allKeys {
			return true
		}
		for _, p := range s.keys {
			if p.perm&need == need && p.pat == "*" {
				return true
			}
		}
	}
	return false
}
