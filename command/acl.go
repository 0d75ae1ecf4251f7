package command

import (
	"strings"
	"sync/atomic"

	"github.com/kvserver/kvserver/acl"
	"github.com/kvserver/kvserver/querybuf"
)

// The pipeline's ACL step (Redis's ACLCheckAllPerm in processCommand, execCommand and
// scriptCall): after the authentication check, before MULTI queues the command, the
// connection's user must be allowed the command (or its subcommand, or its first argument),
// every key the command touches with the access its key spec declares (read, write), and the
// channels a pub/sub command publishes or subscribes to. A denial answers NOPERM, counts in
// INFO's acl_access_denied_*, and adds an ACL LOG entry.
//
// The hot path pays one atomic load while every user allows everything (the default user
// alone, as configured out of the box): Pipeline.aclOn is false and nothing else is read.

// ACL log contexts (Redis's ACL_LOG_CTX_*), the entries' "context" field.
const (
	ACLContextTop   = "toplevel"
	ACLContextMulti = "multi"
	ACLContextLua   = "lua"
)

// ACL is what the pipeline's ACL step needs: the users, the log, and the denial counters.
type ACL struct {
	Reg *acl.Registry
	Log *acl.Log
	// ClientInfo describes a connection (a Ctx's Conn) as CLIENT LIST does, for a log entry's
	// client-info (nil: empty).
	ClientInfo func(conn any) string

	// INFO's acl_access_denied_cmd, _key and _channel.
	DeniedCmd, DeniedKey, DeniedChannel atomic.Int64
}

// UserRef is a connection's user. The connection's goroutine sets it (AUTH, HELLO AUTH, RESET)
// and the pipeline refreshes it when the registry changed (a SETUSER replaces the *acl.User
// as a whole); other goroutines read it (CLIENT LIST user=, the kills of ACL DELUSER). The
// default user's connections share one. The user and the registry generation it was looked
// up at are one immutable pair, stored as a whole: a refresh that lost a race stores an older
// generation, which the next command sees and looks up again.
type UserRef struct {
	p atomic.Pointer[userAt]
}

// userAt is a user as of a registry generation.
type userAt struct {
	u   *acl.User
	gen uint64
}

// Set makes u the connection's user, as of the registry's generation gen.
func (r *UserRef) Set(u *acl.User, gen uint64) { r.p.Store(&userAt{u, gen}) }

// User is the connection's user as last looked up (nil: none set).
func (r *UserRef) User() *acl.User {
	if a := r.p.Load(); a != nil {
		return a.u
	}
	return nil
}

// Name is the user's name ("default" when none is set).
func (r *UserRef) Name() string {
	if u := r.User(); u != nil {
		return u.Name()
	}
	return "default"
}

// current is the connection's user as the registry has it now: looked up again by name when
// the registry changed since (nil: the user was deleted). The generation is read before the
// lookup, so a pair never claims a newer generation than its user.
func (r *UserRef) current(reg *acl.Registry) *acl.User {
	a := r.p.Load()
	if a == nil || a.u == nil {
		return nil
	}
	if g := reg.Generation(); g != a.gen {
		u := reg.User(a.u.Name())
		if u == nil {
			return nil
		}
		r.Set(u, g)
		return u
	}
	return a.u
}

// SetACL installs the ACL step (nil: none; every command is allowed) and computes whether
// any user is restricted.
func (p *Pipeline) SetACL(a *ACL) {
	p.acl = a
	p.ACLChanged()
}

// ACL returns the ACL step's state (nil: none).
func (p *Pipeline) ACL() *ACL { return p.acl }

// ACLChanged is called after every change of the users (SETUSER, DELUSER, LOAD, CONFIG SET
// requirepass): the step is skipped as long as every user allows everything. Once on, it
// stays on: a connection of a user since deleted must be denied until it is closed.
func (p *Pipeline) ACLChanged() {
	on := p.aclOn.Load()
	if p.acl != nil {
		for _, name := range p.acl.Reg.Names() {
			if u := p.acl.Reg.User(name); u != nil && !u.AllowsAll() {
				on = true
				break
			}
		}
	}
	p.aclOn.Store(on)
}

// aclAllows is the ACL step's quick yes, asked before aclRefuses: the connection's user allows
// everything, or allows the command and its one key outright (the usual command of a user such
// as ~app:* +@read +@write). false means only that aclRefuses must decide.
func (p *Pipeline) aclAllows(ctx *Ctx) bool {
	if ctx.User == nil || p.acl == nil {
		return true
	}
	u := ctx.User.current(p.acl.Reg)
	if u == nil {
		return false
	}
	if u.AllowsAll() {
		return true
	}
	cmd := ctx.Cmd
	pos := cmd.oneKeyPos
	if pos <= 0 || pos >= ctx.Args.Len() {
		return false
	}
	// One key, no channel: asked without building the lists that Check takes.
	f := cmd.oneKeyFlags
	return u.AllowsOneKey(cmd.ID, ctx.Args.Arg(pos), f&KeyAccess != 0, f&(KeyInsert|KeyDelete|KeyUpdate) != 0)
}

// aclRefuses runs the ACL step for ctx's command in the given log context (conn: the client
// the log entry describes), and reports
// whether it is denied: ctx.aclErr is then the NOPERM reply (without its '-').
func (p *Pipeline) aclRefuses(ctx *Ctx, logCtx string, conn any) bool {
	d, u := p.aclCheck(ctx, ctx.Cmd, ctx.Args)
	if d.Reason == acl.None {
		return false
	}
	p.aclDenied(ctx, u, d, logCtx, conn)
	ctx.aclErr = aclErrorText(u, ctx.Cmd, d)
	return true
}

// aclCheck is ACLCheckAllPerm of cmd with args for ctx's user (u: that user, nil when it
// was deleted, which is denied every command).
func (p *Pipeline) aclCheck(ctx *Ctx, cmd *Command, args querybuf.Args) (acl.Denial, *acl.User) {
	if ctx.User == nil || p.acl == nil {
		return acl.Denial{}, nil
	}
	u := ctx.User.current(p.acl.Reg)
	if u == nil {
		return acl.Denial{Reason: acl.Cmd, Object: cmd.FullName}, nil
	}
	if u.AllowsAll() {
		return acl.Denial{}, u
	}
	return checkUser(ctx, u, cmd, args), u
}

// checkUser asks u about cmd with args: its keys, with the access each key spec declares
// (Redis's ACLSelectorCheckKey: access → read; insert, delete, update → write; none: any
// pattern), and its channels.
func checkUser(ctx *Ctx, u *acl.User, cmd *Command, args querybuf.Args) acl.Denial {
	ctx.aclArgs = ctx.aclArgs[:0]
	for i := range args.Len() {
		ctx.aclArgs = append(ctx.aclArgs, args.Arg(i))
	}
	ctx.aclKeys = ctx.aclKeys[:0]
	if cmd.Meta != nil && cmd.Meta.HasKeys() {
		ctx.aclRefs = GetKeys(cmd.Meta, args, ctx.aclRefs[:0])
		for _, k := range ctx.aclRefs {
			ctx.aclKeys = append(ctx.aclKeys, acl.KeyAccess{
				Key:   args.Arg(k.Pos),
				Read:  k.Flags&KeyAccess != 0,
				Write: k.Flags&(KeyInsert|KeyDelete|KeyUpdate) != 0,
				Pos:   k.Pos,
			})
		}
	}
	chans, pattern := aclChannels(cmd, ctx.aclArgs)
	return u.Check(cmd.ID, ctx.aclArgs, ctx.aclKeys, chans, pattern)
}

// aclChannels are the channels a command publishes or subscribes to (Redis's
// getChannelsFromCommand with CMD_CHANNEL_PUBLISH or CMD_CHANNEL_SUBSCRIBE: unsubscribing is
// never denied), and whether they are patterns.
func aclChannels(cmd *Command, args [][]byte) ([][]byte, bool) {
	if len(args) < 2 {
		return nil, false
	}
	switch cmd.FullName {
	case "publish", "spublish":
		return args[1:2], false
	case "subscribe", "ssubscribe":
		return args[1:], false
	case "psubscribe":
		return args[1:], true
	}
	return nil, false
}

// aclDenied counts a denial and logs it (Redis's addACLLogEntry).
func (p *Pipeline) aclDenied(ctx *Ctx, u *acl.User, d acl.Denial, logCtx string, conn any) {
	switch d.Reason {
	case acl.Key:
		p.acl.DeniedKey.Add(1)
	case acl.Channel:
		p.acl.DeniedChannel.Add(1)
	default:
		p.acl.DeniedCmd.Add(1)
	}
	if p.acl.Log == nil {
		return
	}
	name := ctx.User.Name()
	if u != nil {
		name = u.Name()
	}
	info := ""
	if p.acl.ClientInfo != nil {
		info = p.acl.ClientInfo(conn)
	}
	p.acl.Log.Add(acl.Entry{Reason: d.Reason, Context: logCtx, Object: d.Object, Username: name, ClientInfo: info})
}

// aclErrorText is getAclErrorMessage's short form, as processCommand answers it (a deleted
// user is named "default", which the connection falls back to).
func aclErrorText(u *acl.User, cmd *Command, d acl.Denial) string {
	name := "default"
	if u != nil {
		name = u.Name()
	}
	if d.Reason == acl.Cmd && d.Object == "" {
		d.Object = cmd.FullName
	}
	return "NOPERM " + d.Message(name, false)
}

// aclExecText is EXEC's answer for a queued command the rules now deny (execCommand).
func aclExecText(d acl.Denial) string {
	reason := "no permission to execute the command or subcommand"
	switch d.Reason {
	case acl.Key:
		reason = "no permission to touch the specified keys"
	case acl.Channel:
		reason = "no permission to access one of the channels used as arguments"
	}
	return "NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. This command is no longer allowed for the following reason: " + reason
}

// ACLCheckCommand answers redis.acl_check_cmd and ACL DRYRUN: whether u may run cmd with
// args (args.Arg(0) is the command's name), and the denial when not.
func ACLCheckCommand(u *acl.User, cmd *Command, args querybuf.Args) acl.Denial {
	var ctx Ctx
	return checkUser(&ctx, u, cmd, args)
}

// aclContext is the log context of a command refused by Run: inside MULTI, "multi".
func aclContext(ctx *Ctx) string {
	if ctx.Tx.InMulti() {
		return ACLContextMulti
	}
	return ACLContextTop
}

// ACLCatalog describes table t's rows to the ACL: IDs, full names, containers, categories.
func ACLCatalog(t *Table) *acl.Catalog {
	infos := make([]acl.CommandInfo, 0, len(t.ByID()))
	for _, cmd := range t.ByID() {
		ci := acl.CommandInfo{ID: cmd.ID, Name: cmd.FullName, Parent: -1, NoAuth: cmd.Flags&NoAuth != 0}
		if cmd.parent != nil {
			ci.Parent = cmd.parent.ID
		}
		for _, c := range cmd.CatNames {
			ci.Cats = append(ci.Cats, strings.TrimPrefix(c, "@"))
		}
		infos = append(infos, ci)
	}
	return acl.NewCatalog(infos, CatNames)
}
