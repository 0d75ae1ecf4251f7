package acl

import (
	"errors"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Registry holds the users by name. It is safe for concurrent use: readers (User, Names, List)
// load an immutable map without a lock; writers serialize on mu and publish a new map.
type Registry struct {
	cat   *Catalog
	users atomic.Pointer[map[string]*User]
	gen   atomic.Uint64
	// allChannels is acl-pubsub-default: whether new users and selectors start with &*.
	allChannels atomic.Bool
	mu          sync.Mutex // serializes writers
}

// NewRegistry returns a registry holding only "default": on nopass ~* &* +@all.
func NewRegistry(cat *Catalog) *Registry {
	r := &Registry{cat: cat}
	m := map[string]*User{"default": r.defaultUser()}
	r.users.Store(&m)
	return r
}

// Catalog returns the catalog the registry's rules are resolved against.
func (r *Registry) Catalog() *Catalog { return r.cat }

func (r *Registry) defaultUser() *User {
	u := newUser(r.cat, "default", false)
	for _, op := range []string{"+@all", "~*", "&*", "on", "nopass"} {
		if err := u.set(r.cat, op, false); err != nil {
			panic("acl: default user: " + err.Error())
		}
	}
	u.finish()
	return u
}

// SetPubsubDefault sets acl-pubsub-default: true for allchannels, false for resetchannels
// (Redis 7's default). It applies to users and selectors created afterwards and to "reset".
func (r *Registry) SetPubsubDefault(allChannels bool) { r.allChannels.Store(allChannels) }

// Generation is bumped on every change of the users: a client holding a *User compares it
// with the one it saw to know when to look its user up again.
func (r *Registry) Generation() uint64 { return r.gen.Load() }

// User returns the user named name, or nil.
func (r *Registry) User(name string) *User { return (*r.users.Load())[name] }

// Default returns the default user.
func (r *Registry) Default() *User { return r.User("default") }

// Names lists the users' names, sorted (ACL USERS).
func (r *Registry) Names() []string {
	return sortedNames(*r.users.Load())
}

func sortedNames(m map[string]*User) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// List returns ACL LIST's lines, sorted by user name: "user default on nopass … +@all".
func (r *Registry) List() []string {
	m := *r.users.Load()
	lines := make([]string, 0, len(m))
	for _, n := range sortedNames(m) {
		lines = append(lines, "user "+n+" "+m[n].Describe())
	}
	return lines
}

// mergeSelectors joins the words of a selector spread over several arguments ("(~a*" "+get)")
// as ACLMergeSelectorArguments; the error is Redis's "Unmatched parenthesis" text.
func mergeSelectors(rules []string) ([]string, error) {
	var out []string
	open := -1
	var cur string
	for j, op := range rules {
		if open < 0 && len(op) > 0 && op[0] == '(' && op[len(op)-1] != ')' {
			open, cur = j, op
			continue
		}
		if open >= 0 {
			cur += " " + op
			if len(op) > 0 && op[len(op)-1] == ')' {
				open = -1
				out = append(out, cur)
			}
			continue
		}
		out = append(out, op)
	}
	if open >= 0 {
		return nil, errors.New("ERR Unmatched parenthesis in acl selector starting at '" + rules[open] + "'.")
	}
	return out, nil
}

// build applies rules to a copy of base (or to a new user when base is nil) and returns the
// finished user; the error is the ACL SETUSER reply text without the "ERR " prefix added by
// the caller.
func (r *Registry) build(name string, base *User, rules []string) (*User, error) {
	merged, err := mergeSelectors(rules)
	if err != nil {
		return nil, err
	}
	allCh := r.allChannels.Load()
	var u *User
	if base != nil {
		u = base.clone()
	} else {
		u = newUser(r.cat, name, allCh)
	}
	for _, op := range merged {
		if err := u.set(r.cat, op, allCh); err != nil {
			return nil, errors.New("ERR Error in ACL SETUSER modifier '" + op + "': " + err.Error())
		}
	}
	u.finish()
	return u, nil
}

// SetUser is ACL SETUSER: it creates the user or changes it by the rules, all or nothing. The
// error is Redis's reply text ("ERR Error in ACL SETUSER modifier '…': Syntax error" …).
func (r *Registry) SetUser(name string, rules [][]byte) error {
	if hasSpaces(name) {
		return errors.New("ERR Usernames can't contain spaces or null characters")
	}
	ops := make([]string, len(rules))
	for i, b := range rules {
		ops[i] = string(b)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := *r.users.Load()
	u, err := r.build(name, old[name], ops)
	if err != nil {
		return err
	}
	r.publishLocked(func(m map[string]*User) { m[name] = u })
	return nil
}

// publishLocked copies the map, lets change edit it, and stores it; r.mu is held.
func (r *Registry) publishLocked(change func(map[string]*User)) {
	old := *r.users.Load()
	m := make(map[string]*User, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	change(m)
	r.users.Store(&m)
	r.gen.Add(1)
}

// DelUser is ACL DELUSER: it removes the named users and counts those that existed. Removing
// "default" is refused, and then nothing is removed.
func (r *Registry) DelUser(names ...string) (deleted int, err error) {
	for _, n := range names {
		if n == "default" {
			return 0, errors.New("ERR The 'default' user cannot be removed")
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := *r.users.Load()
	seen := map[string]bool{}
	for _, n := range names {
		if _, ok := old[n]; ok && !seen[n] {
			seen[n] = true
			deleted++
		}
	}
	if deleted == 0 {
		return 0, nil
	}
	r.publishLocked(func(m map[string]*User) {
		for n := range seen {
			delete(m, n)
		}
	})
	return deleted, nil
}

// ParseUser builds a user from rules without storing it (for validating aclfile lines and
// config "user" directives).
func (r *Registry) ParseUser(name string, rules []string) (*User, error) {
	return r.build(name, nil, rules)
}

// FormatFile is ACL SAVE's file: one "user <name> <rules>" line per user, sorted by name.
func (r *Registry) FormatFile() []byte {
	var b strings.Builder
	for _, l := range r.List() {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
