package server

import (
	"fmt"
	"strings"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/conv"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/replyerr"
)

// connectionCommands are the @connection family.
func connectionCommands() []*command.Command {
	return []*command.Command{
		{Name: "ping", Handler: clientCommand(pingCommand)},
		{Name: "echo", Handler: clientCommand(echoCommand)},
		{Name: "quit", Handler: clientCommand(quitCommand)},
		{Name: "reset", Handler: clientCommand(resetCommand)},
		{Name: "hello", Handler: clientCommand(helloCommand)},
		{Name: "select", Handler: clientCommand(selectCommand)},
		{Name: "client", Subcommands: []*command.Command{
			{Name: "id", Handler: clientCommand(clientIDCommand)},
			{Name: "setname", Handler: clientCommand(clientSetNameCommand)},
			{Name: "getname", Handler: clientCommand(clientGetNameCommand)},
			{Name: "setinfo", Handler: clientCommand(clientSetInfoCommand)},
			{Name: "info", Handler: clientCommand(clientInfoCommand)},
			{Name: "list", Handler: clientCommand(clientListCommand)},
			{Name: "kill", Handler: clientCommand(clientKillCommand)},
			{Name: "unblock", Handler: clientCommand(clientUnblockCommand)},
			{Name: "no-touch", Handler: clientCommand(clientNoTouchCommand)},
			{Name: "no-evict", Handler: clientCommand(clientNoEvictCommand)},
			{Name: "help", Handler: clientCommand(clientHelpCommand)},
		}},
	}
}

func pingCommand(c *client, args querybuf.Args) {
	if args.Len() <= 2 && c.w.Proto() == 2 && c.subscribed() {
		// RESP2's subscribed mode: a reply that reads like a message.
		c.w.Array(2)
		c.w.BulkString("pong")
		if args.Len() == 2 {
			c.w.Bulk(args.Arg(1))
		} else {
			c.w.BulkString("")
		}
		return
	}
	switch args.Len() {
	case 1:
		c.w.Simple("PONG")
	case 2:
		c.w.Bulk(args.Arg(1))
	default:
		c.wrongArgs("ping")
	}
}

func echoCommand(c *client, args querybuf.Args) { c.w.Bulk(args.Arg(1)) }

func quitCommand(c *client, args querybuf.Args) {
	c.w.OK()
	c.closeAfterReply = true
}

func resetCommand(c *client, args querybuf.Args) {
	c.dropSubscriptions()
	c.endTx()
	c.db = 0
	c.sharedDB.Store(0)
	c.setProto(2)
	c.name.Store(nil)
	c.resetAuth()
	c.w.Simple("RESET")
}

func (c *client) setProto(v int) {
	c.w.SetProto(v)
	c.sharedProto.Store(int32(v))
}

// helloCommand: HELLO [protover [AUTH username password] [SETNAME name]].
func helloCommand(c *client, args querybuf.Args) {
	proto := c.w.Proto()
	next := 1
	if args.Len() >= 2 {
		v, ok := conv.String2ll(args.Arg(1))
		if !ok {
			c.w.Error(errProtoNotInteger.Error())
			return
		}
		if v < 2 || v > 3 {
			c.w.Error(errNoProto.Error())
			return
		}
		proto, next = int(v), 2
	}
	var setName, user, pass []byte
	for i := next; i < args.Len(); i++ {
		more := args.Len() - i - 1
		switch {
		case conv.EqFold(args.Arg(i), "auth") && more >= 2:
			user, pass = args.Arg(i+1), args.Arg(i+2)
			i += 2
		case conv.EqFold(args.Arg(i), "setname") && more >= 1:
			setName = args.Arg(i + 1)
			if msg := validClientName(setName); msg != "" {
				c.w.Error(msg)
				return
			}
			i++
		default:
			c.w.Error("Syntax error in HELLO option '" + string(args.Arg(i)) + "'")
			return
		}
	}
	if !c.helloAuthOrReply(args.Arg(0), user, pass) {
		return
	}
	if setName != nil {
		c.setName(setName)
	}
	c.setProto(proto)
	c.w.Map(7)
	c.w.BulkString("server")
	c.w.BulkString("redis")
	c.w.BulkString("version")
	c.w.BulkString(RedisVersion)
	c.w.BulkString("proto")
	c.w.Int(int64(proto))
	c.w.BulkString("id")
	c.w.Int(c.id)
	c.w.BulkString("mode")
	c.w.BulkString("standalone")
	c.w.BulkString("role")
	c.w.BulkString("master")
	c.w.BulkString("modules")
	c.w.Array(0)
}

func selectCommand(c *client, args querybuf.Args) {
	v, ok := conv.String2ll(args.Arg(1))
	if !ok {
		c.w.Error(replyerr.NotInteger.Error())
		return
	}
	if v < -1<<31 || v > 1<<31-1 {
		c.w.Error(replyerr.IntRange.Error())
		return
	}
	if v < 0 || v >= int64(c.srv.ks.Databases()) {
		c.w.Error(replyerr.DBIndex.Error())
		return
	}
	c.db = int32(v)
	c.sharedDB.Store(int32(v))
	c.w.OK()
}

func clientIDCommand(c *client, args querybuf.Args) { c.w.Int(c.id) }

// validClientName returns Redis's error for a name with spaces or non-printable characters.
func validClientName(name []byte) string {
	for _, ch := range name {
		if ch < '!' || ch > '~' {
			return "ERR Client names cannot contain spaces, newlines or special characters."
		}
	}
	return ""
}

func (c *client) setName(name []byte) {
	if len(name) == 0 {
		c.name.Store(nil)
		return
	}
	s := string(name)
	c.name.Store(&s)
}

func clientSetNameCommand(c *client, args querybuf.Args) {
	if msg := validClientName(args.Arg(2)); msg != "" {
		c.w.Error(msg)
		return
	}
	c.setName(args.Arg(2))
	c.w.OK()
}

func clientGetNameCommand(c *client, args querybuf.Args) {
	if p := c.name.Load(); p != nil {
		c.w.BulkString(*p)
		return
	}
	c.w.Null()
}

func clientSetInfoCommand(c *client, args querybuf.Args) {
	val := string(args.Arg(3))
	for _, ch := range []byte(val) {
		if ch < '!' || ch > '~' {
			c.w.Error("ERR " + strings.ToUpper(string(args.Arg(2))) + " cannot contain spaces, newlines or special characters.")
			return
		}
	}
	switch {
	case conv.EqFold(args.Arg(2), "lib-name"):
		l := libInfo{name: val, ver: c.libVer()}
		c.lib.Store(&l)
	case conv.EqFold(args.Arg(2), "lib-ver"):
		l := libInfo{name: c.libName(), ver: val}
		c.lib.Store(&l)
	default:
		c.w.Error("ERR Unrecognized option '" + string(args.Arg(2)) + "'")
		return
	}
	c.w.OK()
}

func clientInfoCommand(c *client, args querybuf.Args) {
	c.w.Verbatim("txt", c.infoLine(c)+"\n")
}

// clientListCommand is CLIENT LIST [TYPE type | ID id [id ...]], in Redis's clientCommand
// order: all clients by id, those of one type, or the given ids in argument order (an unknown
// id is skipped, a repeated one listed again).
func clientListCommand(c *client, args querybuf.Args) {
	var b strings.Builder
	line := func(o *client) {
		b.WriteString(c.infoLine(o))
		b.WriteByte('\n')
	}
	switch {
	case args.Len() == 4 && conv.EqFold(args.Arg(2), "type"):
		match, ok := clientTypeMatch(string(args.Arg(3)))
		if !ok {
			c.w.Error(fmt.Sprintf("ERR Unknown client type '%s'", args.Arg(3)))
			return
		}
		for _, o := range c.srv.clientsSorted() {
			if match(o) {
				line(o)
			}
		}
	case args.Len() > 3 && conv.EqFold(args.Arg(2), "id"):
		ids := make([]int64, 0, args.Len()-3)
		for i := 3; i < args.Len(); i++ {
			id, ok := conv.String2ll(args.Arg(i))
			if !ok {
				c.w.Error("ERR Invalid client ID")
				return
			}
			ids = append(ids, id)
		}
		byID := make(map[int64]*client)
		for _, o := range c.srv.clientsSorted() {
			byID[o.id] = o
		}
		for _, id := range ids {
			if o := byID[id]; o != nil {
				line(o)
			}
		}
	case args.Len() != 2:
		c.w.Error(replyerr.Syntax.Error())
		return
	default:
		for _, o := range c.srv.clientsSorted() {
			line(o)
		}
	}
	c.w.Verbatim("txt", b.String())
}

// clientTypeMatch is the filter of a client type name (Redis's getClientTypeByName): normal
// clients and pub/sub subscribers; replicas and masters do not exist yet, so nothing matches
// them. ok is false for a name Redis does not know.
func clientTypeMatch(name string) (match func(o *client) bool, ok bool) {
	switch strings.ToLower(name) {
	case "normal":
		return func(o *client) bool { return !o.subscribed() }, true
	case "pubsub":
		return func(o *client) bool { return o.subscribed() }, true
	case "master", "slave", "replica":
		return func(*client) bool { return false }, true
	}
	return nil, false
}

// clientKillCommand supports the forms clients use: CLIENT KILL ID id and CLIENT KILL addr.
func clientKillCommand(c *client, args querybuf.Args) {
	if args.Len() == 3 { // old form: CLIENT KILL ip:port
		if n := c.srv.killClients(func(o *client) bool { return o.remoteAddr() == string(args.Arg(2)) }); n == 0 {
			c.w.Error("ERR No such client")
			return
		}
		c.w.OK()
		return
	}
	if args.Len()%2 != 0 {
		c.w.Error(replyerr.Syntax.Error())
		return
	}
	var match []func(o *client) bool
	skipMe := true // Redis's default for the filter form
	for i := 2; i < args.Len(); i += 2 {
		val := string(args.Arg(i + 1))
		switch {
		case conv.EqFold(args.Arg(i), "id"):
			id, ok := conv.String2ll(args.Arg(i + 1))
			if !ok || id <= 0 {
				c.w.Error("ERR client-id should be greater than 0")
				return
			}
			match = append(match, func(o *client) bool { return o.id == id })
		case conv.EqFold(args.Arg(i), "addr"):
			match = append(match, func(o *client) bool { return o.remoteAddr() == val })
		case conv.EqFold(args.Arg(i), "laddr"):
			match = append(match, func(o *client) bool { return o.localAddr() == val })
		case conv.EqFold(args.Arg(i), "skipme"):
			switch {
			case conv.EqFold(args.Arg(i+1), "yes"):
				skipMe = true
			case conv.EqFold(args.Arg(i+1), "no"):
				skipMe = false
			default:
				c.w.Error(replyerr.Syntax.Error())
				return
			}
		case conv.EqFold(args.Arg(i), "user"):
			if c.srv.acl.reg.User(val) == nil {
				c.w.Error(fmt.Sprintf("ERR No such user '%s'", val))
				return
			}
			name := val
			match = append(match, func(o *client) bool { return o.userName() == name })
		case conv.EqFold(args.Arg(i), "type"):
			m, ok := clientTypeMatch(val)
			if !ok {
				c.w.Error(fmt.Sprintf("ERR Unknown client type '%s'", val))
				return
			}
			match = append(match, m)
		default:
			c.w.Error(replyerr.Syntax.Error())
			return
		}
	}
	n := c.srv.killClients(func(o *client) bool {
		if skipMe && o == c {
			return false
		}
		for _, m := range match {
			if !m(o) {
				return false
			}
		}
		return true
	})
	c.w.Int(int64(n))
}

// clientNoTouchCommand: CLIENT NO-TOUCH on|off — the client's commands, TOUCH excepted, leave
// the LRU/LFU clocks of the keys they read and write alone (Redis 7.2).
func clientNoTouchCommand(c *client, args querybuf.Args) { setClientSwitch(c, args, switchNoTouch) }

// clientNoEvictCommand: CLIENT NO-EVICT on|off — the client is exempt from client eviction
// (maxmemory-clients, client_eviction.go).
func clientNoEvictCommand(c *client, args querybuf.Args) { setClientSwitch(c, args, switchNoEvict) }

// setClientSwitch sets a client flag from an on|off argument, as Redis's CLIENT NO-EVICT and
// NO-TOUCH: anything else is a syntax error.
func setClientSwitch(c *client, args querybuf.Args, bit uint32) {
	switch a := args.Arg(2); {
	case conv.EqFold(a, "on"):
		c.setSwitch(bit, true)
	case conv.EqFold(a, "off"):
		c.setSwitch(bit, false)
	default:
		c.w.Error(replyerr.Syntax.Error())
		return
	}
	c.w.OK()
}

func clientHelpCommand(c *client, args querybuf.Args) {
	command.ReplyHelp(&c.w, "CLIENT", []string{
		"ID", "    Return the ID of the current connection.",
		"INFO", "    Return information about the current client connection.",
		"KILL <ip:port>", "    Kill connection made from <ip:port>.",
		"KILL <option> <value> [<option> <value> [...]]", "    Kill connections. Options are: ID, TYPE, USER, ADDR, LADDR, SKIPME.",
		"LIST", "    Return information about client connections.",
		"GETNAME", "    Return the name of the current connection.",
		"SETNAME <name>", "    Assign the name <name> to the current connection.",
		"SETINFO <option> <value>", "    Set client meta attr. Options are: LIB-NAME, LIB-VER.",
		"NO-EVICT (ON|OFF)", "    Protect current client connection from eviction.",
		"NO-TOUCH (ON|OFF)", "    Will not touch LRU/LFU stats when this mode is on.",
		"UNBLOCK <clientid> [TIMEOUT|ERROR]", "    Unblock the specified blocked client.",
	})
}

// clientUnblockCommand is CLIENT UNBLOCK id [TIMEOUT|ERROR]: a client blocked in a command is
// answered as if timed out (or with the UNBLOCKED error) before this reply, which is 1; 0 when
// no such client is blocked. Its checks in Redis's order: the reason, then the id.
func clientUnblockCommand(c *client, args querybuf.Args) {
	if args.Len() > 4 {
		c.w.Error("ERR unknown subcommand or wrong number of arguments for 'unblock'. Try CLIENT HELP.")
		return
	}
	withError := false
	if args.Len() == 4 {
		switch {
		case conv.EqFold(args.Arg(3), "timeout"):
		case conv.EqFold(args.Arg(3), "error"):
			withError = true
		default:
			c.w.Error("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR")
			return
		}
	}
	id, ok := conv.String2ll(args.Arg(2))
	if !ok {
		c.w.Error(replyerr.NotInteger.Error())
		return
	}
	if o := c.srv.clientByID(id); o != nil && o != c {
		if b := o.blockedState(); b != nil && b.Unblock(withError) {
			c.w.Int(1)
			return
		}
	}
	c.w.Int(0)
}

// wrongArgs answers Redis's arity error for a command that checks its own argument count.
func (c *client) wrongArgs(name string) {
	c.w.Error(replyerr.WrongArgs(name).Error())
}
