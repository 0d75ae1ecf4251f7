package acl

import (
	"errors"
	"strings"
)

// ConfigUsers collects the configuration file's "user" directives (ACLAppendUserForLoading)
// and applies them at start-up (ACLLoadConfiguredUsers). The zero value is not usable: use
// NewConfigUsers.
type ConfigUsers struct {
	cat   *Catalog
	users [][]string // name, then its merged rules
}

// NewConfigUsers returns an empty collection checking rules against cat.
func NewConfigUsers(cat *Catalog) *ConfigUsers { return &ConfigUsers{cat: cat} }

// Len is the number of users declared.
func (c *ConfigUsers) Len() int { return len(c.users) }

// Add checks one directive, argv = "user", name, rules…, and keeps it. Unknown commands and
// categories pass here (Redis lets modules add them later; Load refuses them). The error is
// the config loader's text "Error in user declaration '<arg>': <error>", where <arg> is, as
// in Redis, argv[j] for the j-th rule that failed (so the name or "user", not the rule).
func (c *ConfigUsers) Add(argv []string) error {
	declErr := func(j int, msg string) error {
		return errors.New("Error in user declaration '" + argv[j] + "': " + msg)
	}
	if len(argv) < 2 || !strings.EqualFold(argv[0], "user") {
		return declErr(0, errSyntax.Error())
	}
	for _, u := range c.users {
		if u[0] == argv[1] {
			return declErr(1, errDuplicateUser.Error())
		}
	}
	rules, err := mergeSelectors(argv[2:])
	if err != nil {
		// Redis reports argv[0] and a stale errno here; 7.0.15 prints this text.
		return declErr(0, errUnknownCommand.Error())
	}
	u := newUser(c.cat, argv[1], false)
	for j, op := range rules {
		if err := u.set(c.cat, op, false); err != nil && err != errUnknownCommand {
			return declErr(j, err.Error())
		}
	}
	c.users = append(c.users, append([]string{argv[1]}, rules...))
	return nil
}

// Load creates the declared users in r, in order ("default" is reset first, then given its
// rules). The error is Redis's log line for the first failing rule: "Error loading ACL rule
// '<rule>' for the user named '<name>': <error>" (Redis then exits), or "Spaces not allowed
// in ACL usernames". Disabled lists the users declared without "on" (Redis logs a notice).
func (c *ConfigUsers) Load(r *Registry) (disabled []string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	allCh := r.allChannels.Load()
	built := map[string]*User{}
	var order []string
	for _, decl := range c.users {
		name := decl[0]
		if hasSpaces(name) {
			return nil, errors.New("Spaces not allowed in ACL usernames")
		}
		var u *User
		if old := (*r.users.Load())[name]; old != nil {
			u = old.clone()
			if err := u.set(r.cat, "reset", allCh); err != nil {
				return nil, err
			}
		} else {
			u = newUser(r.cat, name, allCh)
		}
		for _, op := range decl[1:] {
			if err := u.set(r.cat, op, allCh); err != nil {
				return nil, errors.New("Error loading ACL rule '" + op + "' for the user named '" + name + "': " + err.Error())
			}
		}
		u.finish()
		if !u.enabled {
			disabled = append(disabled, name)
		}
		built[name] = u
		order = append(order, name)
	}
	if len(built) > 0 {
		r.publishLocked(func(m map[string]*User) {
			for _, n := range order {
				m[n] = built[n]
			}
		})
	}
	return disabled, nil
}
