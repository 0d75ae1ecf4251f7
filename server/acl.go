package server

import (
	"os"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/kvserver/kvserver/acl"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/config"
)

// The server's ACL (Redis 7.2's acl.c around the users): the registry of users built from the
// command table, requirepass as the default user's password, the `user` directives and the
// aclfile at start-up, the ACL LOG, and each client's user. Clients of the default user share
// one command.UserRef (defaultRef); a client that authenticated as another user has its own,
// in a side table by client id (the client struct has no room left), and the switchUser bit.

// errUsersAndFile is ACLLoadUsersAtStartup's refusal of both ways of defining users.
const errUsersAndFile = "Configuring Redis with users defined in redis.conf and at the same setting an ACL file path is invalid. This setup is very likely to lead to configuration errors and security holes, please define either an ACL file or declare users directly in your redis.conf, but not both."

// serverACL is the server's ACL state.
type serverACL struct {
	reg        *acl.Registry
	log        *acl.Log
	step       command.ACL     // the pipeline's ACL step (counters, log, users)
	defaultRef command.UserRef // the default user's clients
}

// startACL builds the users after the command table: the default user with requirepass, then
// the `user` directives or the aclfile (not both). An error refuses the start, as Redis exits.
func (s *Server) startACL() error {
	a := &s.acl
	a.reg = acl.NewRegistry(command.ACLCatalog(s.cmds))
	a.log = acl.NewLog()
	a.step = command.ACL{Reg: a.reg, Log: a.log, ClientInfo: func(conn any) string {
		if c, ok := conn.(*client); ok {
			return c.infoLine(c)
		}
		return ""
	}}
	pubsubAll, _ := s.cfg.Value("acl-pubsub-default")
	a.reg.SetPubsubDefault(pubsubAll == "allchannels")
	if n, ok := s.cfg.Value("acllog-max-len"); ok {
		a.log.SetMaxLen(atoiOr(n, acl.DefaultLogMaxLen))
	}
	if err := s.setDefaultPassword(s.cfg.RequirePass()); err != nil {
		return &config.LoadError{Reason: err.Error()}
	}
	users := acl.NewConfigUsers(a.reg.Catalog())
	for _, d := range s.cfg.OtherDirectives() {
		if d.Args[0] != "user" {
			continue
		}
		if err := users.Add(d.Args); err != nil {
			return d.Fail(err.Error()) // Redis's block names the line, as it checks while reading
		}
	}
	file, _ := s.cfg.Value("aclfile")
	if file != "" && users.Len() > 0 {
		return &config.LoadError{Reason: errUsersAndFile}
	}
	if users.Len() > 0 {
		disabled, err := users.Load(a.reg)
		if err != nil {
			return &config.LoadError{Reason: err.Error()}
		}
		for _, name := range disabled {
			s.log.Info("the user is disabled (no 'on' rule): it cannot authenticate", zap.String("user", name))
		}
	}
	if file != "" {
		text, err := os.ReadFile(file)
		if err != nil {
			return &config.LoadError{Reason: "Aborting Redis startup because of ACL errors: Error loading ACLs, opening file '" + file + "': " + err.Error()}
		}
		if err := a.reg.LoadFileNamed(file, text); err != nil {
			return &config.LoadError{Reason: "Aborting Redis startup because of ACL errors: " + strings.TrimPrefix(err.Error(), "ERR ")}
		}
	}
	a.defaultRef.Set(a.reg.Default(), a.reg.Generation())
	s.pipeline.SetACL(&a.step)
	s.aclChanged()
	s.cfg.OnChange("requirepass", func(v string) {
		if err := s.setDefaultPassword(v); err != nil {
			s.log.Warn("requirepass", zap.Error(err))
		}
		s.aclChanged()
	})
	s.cfg.OnChange("acllog-max-len", func(v string) { a.log.SetMaxLen(atoiOr(v, acl.DefaultLogMaxLen)) })
	s.cfg.OnChange("acl-pubsub-default", func(v string) { a.reg.SetPubsubDefault(v == "allchannels") })
	return nil
}

// setDefaultPassword is requirepass's effect (ACLUpdateDefaultUserPassword): the default
// user's passwords are reset to this one, or to nopass when it is empty.
func (s *Server) setDefaultPassword(pass string) error {
	rules := [][]byte{[]byte("resetpass"), []byte("nopass")}
	if pass != "" {
		rules[1] = []byte(">" + pass)
	}
	return s.acl.reg.SetUser("default", rules)
}

// aclChanged follows every change of the users: the pipeline's flag, and whether clients
// must authenticate (the default user has a password, or is off).
func (s *Server) aclChanged() {
	s.pipeline.ACLChanged()
	d := s.acl.reg.Default()
	s.authNeeded.Store(d == nil || !d.NoPass() || !d.Enabled())
}

// defaultNoPass reports whether the default user is nopass (protected mode's test).
func (s *Server) defaultNoPass() bool {
	d := s.acl.reg.Default()
	return d != nil && d.NoPass()
}

// userRef is the client's user.
func (c *client) userRef() *command.UserRef {
	if c.switchOn(switchUser) {
		if r, ok := c.srv.clientUsers.Load(c.id); ok {
			return r.(*command.UserRef)
		}
	}
	return &c.srv.acl.defaultRef
}

// userName is the client's user's name (CLIENT LIST user=).
func (c *client) userName() string { return c.userRef().Name() }

// setUser makes u the client's user (AUTH, HELLO AUTH; nil: back to the default user).
func (c *client) setUser(u *acl.User) {
	ref := &c.srv.acl.defaultRef
	if u != nil && u.Name() != "default" {
		ref = &command.UserRef{}
		ref.Set(u, c.srv.acl.reg.Generation())
		c.srv.clientUsers.Store(c.id, ref)
		c.setSwitch(switchUser, true)
	} else {
		c.setSwitch(switchUser, false)
		c.srv.clientUsers.Delete(c.id)
	}
	if c.activeState != nil {
		c.ctx.User = ref
	}
}

// killUserClients closes the clients of the named users (ACL DELUSER, ACL LOAD without them:
// ACLFreeUserAndKillClients). The client running the command (self) is closed after its
// reply. It returns how many were closed.
func (s *Server) killUserClients(self *client, gone func(name string) bool) int {
	n := 0
	for _, o := range s.clientsSnapshot() {
		if !o.switchOn(switchUser) || !gone(o.userName()) {
			continue
		}
		o.authenticated.Store(false)
		if o == self {
			o.closeAfterReply = true
			n++
			continue
		}
		o.killed.Store(true)
		if !s.closeParked(o) {
			o.shutdownSocket()
		}
		n++
	}
	return n
}

// logAuthFailure is a failed AUTH or HELLO AUTH: counted (acl_access_denied_auth), an ACL
// LOG entry (reason auth, the command as typed for object), and a rate-limited log line.
func (c *client) logAuthFailure(cmdName, user []byte, inMulti bool) {
	c.srv.stats.authFailures.Add(1)
	logCtx := command.ACLContextTop
	if inMulti {
		logCtx = command.ACLContextMulti
	}
	c.srv.acl.log.Add(acl.Entry{Reason: acl.Auth, Context: logCtx, Object: string(cmdName),
		Username: string(user), ClientInfo: c.infoLine(c)})
	c.srv.logLimited(logKindAuth, zap.WarnLevel, "authentication failed", c, zap.ByteString("user", user))
}

// atoiOr parses a decimal integer, or returns def.
func atoiOr(s string, def int) int {
	n := 0
	if s == "" {
		return def
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return def
		}
		n = n*10 + int(ch-'0')
	}
	return n
}

// aclHost is the server as the ACL command's family sees it.
type aclHost struct{ s *Server }

func (h aclHost) Registry() *acl.Registry  { return h.s.acl.reg }
func (h aclHost) Log() *acl.Log            { return h.s.acl.log }
func (h aclHost) Commands() *command.Table { return h.s.cmds }
func (h aclHost) ACLFile() string {
	v, _ := h.s.cfg.Value("aclfile")
	return v
}
func (h aclHost) Changed() { h.s.aclChanged() }
func (h aclHost) KillUsers(ctx *command.Ctx, gone func(name string) bool) {
	self, _ := ctx.Conn.(*client)
	h.s.killUserClients(self, gone)
}

// killRevokedSubscribers closes the clients of user u holding a subscription u no longer
// allows (ACLKillPubsubClientsIfNeeded, after a change that narrowed u's channels: the
// caller asks acl.User.ChannelsNarrowedFrom). A client's subscriptions belong to whoever
// serves it: they are read under its mu, waited for up to revokeLockWait (lockWithin); a
// client whose mu stays held that long (a long batch) is closed if subscribed at all (it may
// hold a revoked one). The client running the command (self) is closed after its reply.
func (s *Server) killRevokedSubscribers(self *client, u *acl.User) {
	for _, o := range s.clientsSnapshot() {
		subs := o.subs.Load()
		if subs == nil || o.userName() != u.Name() {
			continue
		}
		if subs.nsub.Load()+subs.npsub.Load()+subs.nssub.Load() == 0 {
			continue
		}
		revoked := true
		switch {
		case o == self:
			revoked = subsRevoked(subs, u)
		case lockWithin(&o.mu, revokeLockWait):
			revoked = subsRevoked(subs, u)
			o.mu.Unlock()
		}
		if !revoked {
			continue
		}
		if o == self {
			o.closeAfterReply = true
			continue
		}
		o.killed.Store(true)
		if !s.closeParked(o) {
			o.shutdownSocket()
		}
	}
}

// revokeLockWait bounds how long an ACL change waits for a subscribed client's lock. Its
// holders keep it for the rest of a batch: a client that has just received its SUBSCRIBE reply
// may still be held while its server thread finishes the batch, and on a loaded machine
// that thread may be descheduled there for milliseconds. Closing such a client at once
// closed clients whose channels were all still allowed (TestACLPubsubRevocation under CI's
// load). The bound keeps an ACL change from waiting on a long-running command.
const revokeLockWait = 100 * time.Millisecond

// lockWithin takes mu if it comes free within d, polling, and reports whether it did.
func lockWithin(mu *sync.Mutex, d time.Duration) bool {
	if mu.TryLock() {
		return true
	}
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Microsecond)
		if mu.TryLock() {
			return true
		}
	}
	return false
}

// subsRevoked reports whether u refuses one of the subscriptions (patterns literally).
func subsRevoked(subs *clientSubs, u *acl.User) bool {
	for _, sub := range subs.set.list {
		if !u.CheckChannel([]byte(sub.name), sub.kind == subPattern) {
			return true
		}
	}
	return false
}

func (h aclHost) UserChanged(ctx *command.Ctx, old, u *acl.User) {
	if old == nil || u == nil || !u.ChannelsNarrowedFrom(old) {
		return
	}
	self, _ := ctx.Conn.(*client)
	h.s.killRevokedSubscribers(self, u)
}
