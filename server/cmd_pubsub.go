package server

import (
	"sync/atomic"

	"github.com/kvserver/kvserver/command"
	"github.com/kvserver/kvserver/querybuf"
)

// pubsubCommands are the @pubsub family: subscriptions act on the connection (its sets,
// its subscribed mode), publications and PUBSUB on the server's hub only. None locks a
// shard: channels are not keys (SPUBLISH's and SSUBSCRIBE's key specs say not_key).
func (s *Server) pubsubCommands() []*command.Command {
	none := command.LockNone
	return []*command.Command{
		{Name: "subscribe", Locking: none, Handler: clientCommand(subscribeCommand)},
		{Name: "unsubscribe", Locking: none, Handler: clientCommand(unsubscribeCommand)},
		{Name: "psubscribe", Locking: none, Handler: clientCommand(psubscribeCommand)},
		{Name: "punsubscribe", Locking: none, Handler: clientCommand(punsubscribeCommand)},
		{Name: "ssubscribe", Locking: none, Handler: clientCommand(ssubscribeCommand)},
		{Name: "sunsubscribe", Locking: none, Handler: clientCommand(sunsubscribeCommand)},
		{Name: "publish", Locking: none, Handler: func(ctx *command.Ctx) {
			ctx.W.Int(int64(s.hub.Publish(ctx.Args.Arg(1), ctx.Args.Arg(2))))
		}},
		{Name: "spublish", Locking: none, Handler: func(ctx *command.Ctx) {
			ctx.W.Int(int64(s.hub.SPublish(ctx.Args.Arg(1), ctx.Args.Arg(2))))
		}},
		{Name: "pubsub", Subcommands: []*command.Command{
			{Name: "channels", Locking: none, Handler: s.pubsubChannelsCommand(false)},
			{Name: "shardchannels", Locking: none, Handler: s.pubsubChannelsCommand(true)},
			{Name: "numsub", Locking: none, Handler: s.pubsubNumSubCommand(false)},
			{Name: "shardnumsub", Locking: none, Handler: s.pubsubNumSubCommand(true)},
			{Name: "numpat", Locking: none, Handler: func(ctx *command.Ctx) { ctx.W.Int(int64(s.hub.NumPat())) }},
			{Name: "help", Locking: none, Handler: pubsubHelpCommand},
		}},
	}
}

// subscriptionKind is what differs between the three kinds of subscription: the names of
// their replies, their counter and their hub calls.
type subscriptionKind struct {
	kind                   subKind
	subscribe, unsubscribe string // the replies' first element
	counter                func(s *clientSubs) *atomic.Int32
	add, remove            func(c *client, name []byte)
}

// subKinds are the three kinds, by subKind.
var subKinds = [numSubKinds]*subscriptionKind{
	subChannel: {
		kind: subChannel, subscribe: "subscribe", unsubscribe: "unsubscribe",
		counter: func(s *clientSubs) *atomic.Int32 { return &s.nsub },
		add:     func(c *client, n []byte) { c.srv.hub.Subscribe(n, c) },
		remove:  func(c *client, n []byte) { c.srv.hub.Unsubscribe(n, c) },
	},
	subPattern: {
		kind: subPattern, subscribe: "psubscribe", unsubscribe: "punsubscribe",
		counter: func(s *clientSubs) *atomic.Int32 { return &s.npsub },
		add:     func(c *client, n []byte) { c.srv.hub.PSubscribe(n, c) },
		remove:  func(c *client, n []byte) { c.srv.hub.PUnsubscribe(n, c) },
	},
	subShard: {
		kind: subShard, subscribe: "ssubscribe", unsubscribe: "sunsubscribe",
		counter: func(s *clientSubs) *atomic.Int32 { return &s.nssub },
		add:     func(c *client, n []byte) { c.srv.hub.SSubscribe(n, c) },
		remove:  func(c *client, n []byte) { c.srv.hub.SUnsubscribe(n, c) },
	},
}

func subscribeCommand(c *client, args querybuf.Args)  { c.subscribeGeneric(subKinds[subChannel], args) }
func psubscribeCommand(c *client, args querybuf.Args) { c.subscribeGeneric(subKinds[subPattern], args) }
func ssubscribeCommand(c *client, args querybuf.Args) { c.subscribeGeneric(subKinds[subShard], args) }
func unsubscribeCommand(c *client, args querybuf.Args) {
	c.unsubscribeGeneric(subKinds[subChannel], args)
}
func punsubscribeCommand(c *client, args querybuf.Args) {
	c.unsubscribeGeneric(subKinds[subPattern], args)
}
func sunsubscribeCommand(c *client, args querybuf.Args) {
	c.unsubscribeGeneric(subKinds[subShard], args)
}

// subscriptionCount is the count a (un)subscribe reply of kind k carries: channels and
// patterns together, or shard channels alone.
func (s *clientSubs) subscriptionCount(k *subscriptionKind) int {
	if k.kind == subShard {
		return int(s.nssub.Load())
	}
	return s.count()
}

// subscribeGeneric is (P|S)SUBSCRIBE: each name is added unless already there, and each
// answered with a confirmation (a push in RESP3).
func (c *client) subscribeGeneric(k *subscriptionKind, args querybuf.Args) {
	s := c.ensureSubs()
	for i := 1; i < args.Len(); i++ {
		name := args.Arg(i)
		if s.set.find(k.kind, name) < 0 {
			s.set.add(k.kind, name)
			k.counter(s).Add(1)
			k.add(c, name)
		}
		c.replySubscription(k.subscribe, name, s.subscriptionCount(k))
	}
}

// unsubscribeGeneric is (P|S)UNSUBSCRIBE: the names given, or every subscription of the kind
// when none is; with nothing to unsubscribe from, one reply with a null name.
func (c *client) unsubscribeGeneric(k *subscriptionKind, args querybuf.Args) {
	s := c.ensureSubs()
	remove := func(name []byte) {
		if i := s.set.find(k.kind, name); i >= 0 {
			s.set.removeAt(i)
			k.counter(s).Add(-1)
			k.remove(c, name)
		}
		c.replySubscription(k.unsubscribe, name, s.subscriptionCount(k))
	}
	if args.Len() > 1 {
		for i := 1; i < args.Len(); i++ {
			remove(args.Arg(i))
		}
		return
	}
	names := s.set.names(k.kind)
	if len(names) == 0 {
		c.replySubscription(k.unsubscribe, nil, s.subscriptionCount(k))
		return
	}
	for _, name := range names {
		remove([]byte(name))
	}
}

// replySubscription writes a (un)subscribe confirmation: [kind, name, count], a push in
// RESP3; a nil name is a null.
func (c *client) replySubscription(kind string, name []byte, count int) {
	c.w.Push(3)
	c.w.BulkString(kind)
	if name == nil {
		c.w.Null()
	} else {
		c.w.Bulk(name)
	}
	c.w.Int(int64(count))
}

// allowedWhenSubscribed reports whether a RESP2 client in subscribed mode may run cmd:
// (P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE, PING, QUIT and RESET (Redis's processCommand).
func allowedWhenSubscribed(cmd *command.Command) bool {
	switch cmd.FullName {
	case "subscribe", "unsubscribe", "psubscribe", "punsubscribe", "ssubscribe", "sunsubscribe",
		"ping", "quit", "reset":
		return true
	}
	return false
}

// subscribedModeError is Redis 7.2's refusal of a command in RESP2's subscribed mode.
func subscribedModeError(cmd *command.Command) string {
	return "ERR Can't execute '" + cmd.FullName +
		"': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"
}

// refuseInSubscribedMode answers cmd with the subscribed-mode error, counted as the pipeline
// counts its refusals, when c is a RESP2 client with subscriptions and cmd is not allowed
// then. Arity and authentication errors come first, as in Redis.
func (c *client) refuseInSubscribedMode(cmd *command.Command, args querybuf.Args) bool {
	if cmd == nil || c.subs.Load() == nil || c.w.Proto() != 2 || !c.subscribed() ||
		allowedWhenSubscribed(cmd) || !cmd.ArityOK(args.Len()) || c.authRequired() {
		return false
	}
	c.w.Error(subscribedModeError(cmd))
	if o := c.srv.pipeline.Observer; o != nil {
		c.ctx.Cmd = cmd
		o.Rejected(&c.ctx, []byte("ERR"))
	}
	return true
}

func (s *Server) pubsubChannelsCommand(shard bool) command.Handler {
	return func(ctx *command.Ctx) {
		var pattern []byte
		switch ctx.Args.Len() {
		case 2:
		case 3:
			pattern = ctx.Args.Arg(2)
		default:
			command.ReplySubcommandSyntaxError(ctx.W, ctx.Args)
			return
		}
		var names []string
		if shard {
			names = s.hub.ShardChannels(pattern)
		} else {
			names = s.hub.Channels(pattern)
		}
		ctx.W.Array(len(names))
		for _, n := range names {
			ctx.W.BulkString(n)
		}
	}
}

func (s *Server) pubsubNumSubCommand(shard bool) command.Handler {
	return func(ctx *command.Ctx) {
		ctx.W.Array((ctx.Args.Len() - 2) * 2)
		for i := 2; i < ctx.Args.Len(); i++ {
			ch := ctx.Args.Arg(i)
			n := s.hub.NumSub(ch)
			if shard {
				n = s.hub.NumShardSub(ch)
			}
			ctx.W.Bulk(ch)
			ctx.W.Int(int64(n))
		}
	}
}

// pubsubHelpLines are Redis 7.2's PUBSUB HELP.
var pubsubHelpLines = []string{
	"CHANNELS [<pattern>]",
	"    Return the currently active channels matching a <pattern> (default: '*').",
	"NUMPAT",
	"    Return number of subscriptions to patterns.",
	"NUMSUB [<channel> ...]",
	"    Return the number of subscribers for the specified channels, excluding",
	"    pattern subscriptions(default: no channels).",
	"SHARDCHANNELS [<pattern>]",
	"    Return the currently active shard level channels matching a <pattern> (default: '*').",
	"SHARDNUMSUB [<shardchannel> ...]",
	"    Return the number of subscribers for the specified shard level channel(s)",
}

func pubsubHelpCommand(ctx *command.Ctx) { command.ReplyHelp(ctx.W, "PUBSUB", pubsubHelpLines) }
