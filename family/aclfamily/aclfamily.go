// Package aclfamily is the ACL command (Redis 7.2's aclCommand): SETUSER, GETUSER, DELUSER,
// LIST, USERS, WHOAMI, CAT, LOG, GENPASS, DRYRUN, SAVE, LOAD and HELP, over the users of
// package acl. The permission checks themselves are the pipeline's (command/acl.go).
package aclfamily

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kvserver/kvserver/acl"
	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// Host is what the family asks of the server it runs in.
type Host interface {
	// Registry is the users; Log the ACL LOG.
	Registry() *acl.Registry
	Log() *acl.Log
	// Commands is the command table (ACL DRYRUN looks commands up in it).
	Commands() *command.Table
	// ACLFile is the aclfile setting ("" when none: ACL LOAD and SAVE are refused).
	ACLFile() string
	// Changed is called after every change of the users (the pipeline's flag, requirepass's
	// default user).
	Changed()
	// KillUsers closes the clients whose user gone says no longer exists (the client running
	// ctx after its reply), as ACLFreeUserAndKillClients.
	KillUsers(ctx *command.Ctx, gone func(name string) bool)
	// UserChanged follows a change of user old into u (SETUSER, LOAD): the clients of u
	// subscribed to channels it no longer allows are closed (ACLKillPubsubClientsIfNeeded).
	UserChanged(ctx *command.Ctx, old, u *acl.User)
}

// Errors of the ACL command, Redis 7.2's texts.
const (
	errNoFile  replyerr.Error = "ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in order to store users in the Redis configuration."
	errSave    replyerr.Error = "ERR There was an error trying to save the ACLs. Please check the server logs for more information"
	errGenpass replyerr.Error = "ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096"
	errSpaces  replyerr.Error = "ERR Usernames can't contain spaces or null characters"
)

// Commands returns the family's rows, fresh on each call. None touches keys.
func Commands(h Host) []*command.Command {
	f := family{h}
	none := command.LockNone
	return []*command.Command{
		{Name: "acl", Subcommands: []*command.Command{
			{Name: "setuser", Locking: none, Handler: f.setuser},
			{Name: "getuser", Locking: none, Handler: f.getuser},
			{Name: "deluser", Locking: none, Handler: f.deluser},
			{Name: "list", Locking: none, Handler: f.list},
			{Name: "users", Locking: none, Handler: f.users},
			{Name: "whoami", Locking: none, Handler: whoami},
			{Name: "cat", Locking: none, Handler: f.cat},
			{Name: "log", Locking: none, Handler: f.log},
			{Name: "genpass", Locking: none, Handler: genpass},
			{Name: "dryrun", Locking: none, Handler: f.dryrun},
			{Name: "save", Locking: none, Handler: f.save},
			{Name: "load", Locking: none, Handler: f.load},
			{Name: "help", Locking: none, Handler: help},
		}},
	}
}

type family struct{ h Host }

// setuser: ACL SETUSER name rule… — all the rules or none.
func (f family) setuser(ctx *command.Ctx) {
	name := ctx.Args.Arg(2)
	if strings.ContainsAny(string(name), " \x00") {
		ctx.W.Error(errSpaces.Error())
		return
	}
	rules := make([][]byte, 0, ctx.Args.Len()-3)
	for i := 3; i < ctx.Args.Len(); i++ {
		rules = append(rules, ctx.Args.Arg(i))
	}
	reg := f.h.Registry()
	old := reg.User(string(name))
	if err := reg.SetUser(string(name), rules); err != nil {
		ctx.W.Error(err.Error())
		return
	}
	f.h.UserChanged(ctx, old, reg.User(string(name)))
	f.h.Changed()
	ctx.W.OK()
}

// getuser: ACL GETUSER name — flags, passwords (hashes), the root selector's commands, keys
// and channels, then the other selectors; null for no such user.
func (f family) getuser(ctx *command.Ctx) {
	u := f.h.Registry().User(string(ctx.Args.Arg(2)))
	if u == nil {
		ctx.W.Null()
		return
	}
	in := u.GetUser()
	w := ctx.W
	w.Map(6)
	w.BulkString("flags")
	w.Set(len(in.Flags))
	for _, fl := range in.Flags {
		w.BulkString(fl)
	}
	w.BulkString("passwords")
	w.Array(len(in.Passwords))
	for _, p := range in.Passwords {
		w.BulkString(p)
	}
	writeSelector(w, in.SelectorInfo, false)
	w.BulkString("selectors")
	w.Array(len(in.Selectors))
	for _, s := range in.Selectors {
		writeSelector(w, s, true)
	}
}

// writeSelector writes a selector's commands, keys and channels: as three pairs of the
// user's map, or as a map of its own.
func writeSelector(w interface {
	Map(int)
	BulkString(string)
}, s acl.SelectorInfo, own bool) {
	if own {
		w.Map(3)
	}
	w.BulkString("commands")
	w.BulkString(s.Commands)
	w.BulkString("keys")
	w.BulkString(s.Keys)
	w.BulkString("channels")
	w.BulkString(s.Channels)
}

// deluser: ACL DELUSER name… — the number deleted; their clients are closed.
func (f family) deluser(ctx *command.Ctx) {
	names := make([]string, 0, ctx.Args.Len()-2)
	for i := 2; i < ctx.Args.Len(); i++ {
		names = append(names, string(ctx.Args.Arg(i)))
	}
	n, err := f.h.Registry().DelUser(names...)
	if err != nil {
		ctx.W.Error(err.Error())
		return
	}
	if n > 0 {
		reg := f.h.Registry()
		f.h.KillUsers(ctx, func(name string) bool { return reg.User(name) == nil })
		f.h.Changed()
	}
	ctx.W.Int(int64(n))
}

func (f family) list(ctx *command.Ctx) {
	lines := f.h.Registry().List()
	ctx.W.Array(len(lines))
	for _, l := range lines {
		ctx.W.BulkString(l)
	}
}

func (f family) users(ctx *command.Ctx) {
	names := f.h.Registry().Names()
	ctx.W.Array(len(names))
	for _, n := range names {
		ctx.W.BulkString(n)
	}
}

// whoami: the connection's user's name.
func whoami(ctx *command.Ctx) {
	if ctx.User == nil {
		ctx.W.BulkString("default")
		return
	}
	ctx.W.BulkString(ctx.User.Name())
}

// cat: ACL CAT [category] — the categories, or the commands in one.
func (f family) cat(ctx *command.Ctx) {
	c := f.h.Registry().Catalog()
	if ctx.Args.Len() == 2 {
		cats := c.Categories()
		ctx.W.Array(len(cats))
		for _, n := range cats {
			ctx.W.BulkString(n)
		}
		return
	}
	if ctx.Args.Len() != 3 {
		ctx.W.Error(replyerr.WrongArgs("acl|cat").Error())
		return
	}
	names, ok := c.CommandsIn(strings.ToLower(string(ctx.Args.Arg(2))))
	if !ok {
		ctx.W.Error("ERR Unknown category '" + trunc(string(ctx.Args.Arg(2)), 128) + "'")
		return
	}
	ctx.W.Array(len(names))
	for _, n := range names {
		ctx.W.BulkString(n)
	}
}

// log: ACL LOG [count | RESET] — the newest entries first (10 by default).
func (f family) log(ctx *command.Ctx) {
	count := int64(10)
	if ctx.Args.Len() > 3 {
		ctx.W.Error(replyerr.WrongArgs("acl|log").Error())
		return
	}
	if ctx.Args.Len() == 3 {
		arg := ctx.Args.Arg(2)
		if conv.EqFold(arg, "reset") {
			f.h.Log().Reset()
			ctx.W.OK()
			return
		}
		n, err := strconv.ParseInt(string(arg), 10, 64)
		if err != nil {
			ctx.W.Error(replyerr.NotInteger.Error())
			return
		}
		count = max(n, 0)
	}
	entries := f.h.Log().Entries(int(min(count, 1<<30)))
	now := time.Now().UnixMilli()
	w := ctx.W
	w.Array(len(entries))
	for _, e := range entries {
		w.Map(10)
		w.BulkString("count")
		w.Int(int64(e.Count))
		w.BulkString("reason")
		w.BulkString(e.Reason.String())
		w.BulkString("context")
		w.BulkString(e.Context)
		w.BulkString("object")
		w.BulkString(e.Object)
		w.BulkString("username")
		w.BulkString(e.Username)
		w.BulkString("age-seconds")
		w.Double(float64(now-e.Updated) / 1000)
		w.BulkString("client-info")
		w.BulkString(e.ClientInfo)
		w.BulkString("entry-id")
		w.Int(e.EntryID)
		w.BulkString("timestamp-created")
		w.Int(e.Created)
		w.BulkString("timestamp-last-updated")
		w.Int(e.Updated)
	}
}

// genpass: ACL GENPASS [bits] — a random password of hex digits (256 bits by default).
func genpass(ctx *command.Ctx) {
	bits := int64(256)
	if ctx.Args.Len() > 3 {
		ctx.W.Error(replyerr.WrongArgs("acl|genpass").Error())
		return
	}
	if ctx.Args.Len() == 3 {
		n, err := strconv.ParseInt(string(ctx.Args.Arg(2)), 10, 64)
		if err != nil {
			ctx.W.Error(replyerr.NotInteger.Error())
			return
		}
		bits = n
	}
	if bits <= 0 || bits > 4096 {
		ctx.W.Error(errGenpass.Error())
		return
	}
	ctx.W.BulkString(acl.GenPass(int(bits)))
}

// dryrun: ACL DRYRUN user command arg… — OK, or the verbose denial as a bulk string.
func (f family) dryrun(ctx *command.Ctx) {
	u := f.h.Registry().User(string(ctx.Args.Arg(2)))
	if u == nil {
		ctx.W.Error("ERR User '" + string(ctx.Args.Arg(2)) + "' not found")
		return
	}
	var flat []byte
	var ends []uint32
	for i := 3; i < ctx.Args.Len(); i++ {
		flat = append(flat, ctx.Args.Arg(i)...)
		ends = append(ends, uint32(len(flat)))
	}
	p := querybuf.NewParser(querybuf.DefaultLimits())
	args := p.AppendFlat(flat, ends)
	cmd, _ := f.h.Commands().Lookup(args)
	if cmd == nil {
		ctx.W.Error("ERR Command '" + string(ctx.Args.Arg(3)) + "' not found")
		return
	}
	if !cmd.ArityOK(args.Len()) {
		ctx.W.Error("ERR wrong number of arguments for '" + cmd.FullName + "' command")
		return
	}
	if d := command.ACLCheckCommand(u, cmd, args); d.Reason != acl.None {
		ctx.W.BulkString(d.Message(u.Name(), true))
		return
	}
	ctx.W.OK()
}

// save: ACL SAVE — the users to the aclfile, through a temporary file renamed over it.
func (f family) save(ctx *command.Ctx) {
	path := f.h.ACLFile()
	if path == "" {
		ctx.W.Error(errNoFile.Error())
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".acl-*.tmp")
	if err == nil {
		_, err = tmp.Write(f.h.Registry().FormatFile())
		if err == nil {
			err = tmp.Sync()
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}
	if err != nil {
		ctx.W.Error(errSave.Error())
		return
	}
	ctx.W.OK()
}

// load: ACL LOAD — the aclfile's users replace all users (all or nothing); the clients of
// users no longer there are closed.
func (f family) load(ctx *command.Ctx) {
	path := f.h.ACLFile()
	if path == "" {
		ctx.W.Error(errNoFile.Error())
		return
	}
	text, err := os.ReadFile(path)
	if err != nil {
		ctx.W.Error("ERR Error loading ACLs, opening file '" + path + "': " + err.Error())
		return
	}
	reg := f.h.Registry()
	before := map[string]*acl.User{}
	for _, n := range reg.Names() {
		before[n] = reg.User(n)
	}
	if err := reg.LoadFileNamed(path, text); err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "ERR ") {
			msg = "ERR " + msg
		}
		ctx.W.Error(msg)
		return
	}
	f.h.KillUsers(ctx, func(name string) bool { return reg.User(name) == nil })
	for name, old := range before {
		if u := reg.User(name); u != nil {
			f.h.UserChanged(ctx, old, u)
		}
	}
	f.h.Changed()
	ctx.W.OK()
}

var helpLines = []string{
	"CAT [<category>]",
	"    List all commands that belong to <category>, or all command categories",
	"    when no category is specified.",
	"DELUSER <username> [<username> ...]",
	"    Delete a list of users.",
	"DRYRUN <username> <command> [<arg> ...]",
	"    Returns whether the user can execute the given command without executing the command.",
	"GETUSER <username>",
	"    Get the user's details.",
	"GENPASS [<bits>]",
	"    Generate a secure 256-bit user password. The optional `bits` argument can",
	"    be used to specify a different size.",
	"LIST",
	"    Show users details in config file format.",
	"LOAD",
	"    Reload users from the ACL file.",
	"LOG [<count> | RESET]",
	"    Show the ACL log entries.",
	"SAVE",
	"    Save the current config to the ACL file.",
	"SETUSER <username> <attribute> [<attribute> ...]",
	"    Create or modify a user with the specified attributes.",
	"USERS",
	"    List all the registered usernames.",
	"WHOAMI",
	"    Return the current connection username.",
}

func help(ctx *command.Ctx) { command.ReplyHelp(ctx.W, "ACL", helpLines) }

// trunc cuts s to n bytes (Redis's %.128s).
func trunc(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
