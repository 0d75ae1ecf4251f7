package acl

import (
	"errors"
	"fmt"
	"strings"
)

// LoadFile is LoadFileNamed with the file name "aclfile" in errors.
func (r *Registry) LoadFile(text []byte) error { return r.LoadFileNamed("aclfile", text) }

// LoadFileNamed replaces all users with the aclfile's (ACL LOAD, aclfile at start-up): all or
// nothing. Lines are "user <name> <rules…>" split on single spaces (no quoting, as Redis);
// empty lines are skipped; a missing "default" user is created as NewRegistry's. filename
// prefixes the errors, which are Redis's texts joined: "<file>:<line>: <error>. " … then
// "WARNING: ACL errors detected, no change to the previously active ACL rules was performed".
func (r *Registry) LoadFileNamed(filename string, text []byte) error {
	var errs strings.Builder
	users := map[string]*User{}
	allCh := r.allChannels.Load()
	for i, line := range strings.Split(string(text), "\n") {
		n := i + 1
		line = strings.Trim(line, " \t\r\n")
		if line == "" {
			continue
		}
		argv := strings.Split(line, " ")
		if argv[0] != "user" || len(argv) < 2 {
			fmt.Fprintf(&errs, "%s:%d should start with user keyword followed by the username. ", filename, n)
			continue
		}
		name := argv[1]
		if hasSpaces(name) {
			fmt.Fprintf(&errs, "'%s:%d: username '%s' contains invalid characters. ", filename, n, name)
			continue
		}
		if _, dup := users[name]; dup {
			fmt.Fprintf(&errs, "WARNING: Duplicate user '%s' found on line %d. ", name, n)
			continue
		}
		u := newUser(r.cat, name, allCh)
		users[name] = u
		ops, err := mergeSelectors(argv[2:])
		if err != nil {
			fmt.Fprintf(&errs, "%s:%d: Unmatched parenthesis in selector definition.", filename, n)
		}
		syntax := false
		for _, op := range ops {
			op = strings.Trim(op, "\t\r\n")
			if err := u.set(r.cat, op, allCh); err != nil {
				if err == errUnknownCommand {
					fmt.Fprintf(&errs, "%s:%d: Error in applying operation '%s': %s. ", filename, n, op, err)
				} else if !syntax {
					fmt.Fprintf(&errs, "%s:%d: %s. ", filename, n, err)
					syntax = true
				}
			}
		}
		u.finish()
	}
	if errs.Len() > 0 {
		errs.WriteString("WARNING: ACL errors detected, no change to the previously active ACL rules was performed")
		return errors.New(errs.String())
	}
	if users["default"] == nil {
		users["default"] = r.defaultUser()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.publishLocked(func(m map[string]*User) {
		for k := range m {
			delete(m, k)
		}
		for k, v := range users {
			m[k] = v
		}
	})
	return nil
}
