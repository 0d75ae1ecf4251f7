package command

import (
	"strconv"

	"github.com/kvserver/kvserver/keyspace"
)

// Keyspace notifications (Redis's notify.c). A handler records each event with ctx.Notify —
// one atomic load and a branch while notify-keyspace-events enables none of its class — into
// the Ctx's buffer, the key copied; keys expired under the command's locks (lazy expiry) join
// the buffer from their shards' logs in the order they happened. The pipeline publishes the
// buffer once the command's locks are released (deliverEvents: EXEC calls it once for its whole
// transaction), never under a shard lock, and drops it when the handler panicked. Expiry by the
// cron and eviction, which run outside any command, publish through PublishKeyEvent.

// Event names shared by several families (Redis's own words).
const (
	EventDel     = "del"
	EventExpire  = "expire"
	EventExpired = "expired"
	EventEvicted = "evicted"
	EventNew     = "new"
	EventKeyMiss = "keymiss"
)

// notifyEvents is a Ctx's buffer of events not yet published.
type notifyEvents struct {
	keys  []byte // the events' keys, one after the other
	list  []notifyEvent
	chBuf []byte // room for the channel names when publishing
}

type notifyEvent struct {
	class keyspace.NotifyClass
	event string
	db    int32
	end   uint32 // the key's end in keys
}

// Notify records event of class for key in the selected database: Redis's
// notifyKeyspaceEvent. It is sent after the command's locks are released, if the command does
// not panic. Call it after the change it reports, in Redis's order.
func (ctx *Ctx) Notify(class keyspace.NotifyClass, event string, key []byte) {
	if ctx.KS.NotifyClasses()&class == 0 {
		return
	}
	ctx.addEvent(class, event, ctx.DB, key)
}

// NotifyDB is Notify for database db (MOVE's and COPY's destination).
func (ctx *Ctx) NotifyDB(class keyspace.NotifyClass, event string, db int, key []byte) {
	if ctx.KS.NotifyClasses()&class == 0 {
		return
	}
	ctx.addEvent(class, event, db, key)
}

// NotifyNew records the `new` event of a key a write created (Redis's dbAdd).
func (ctx *Ctx) NotifyNew(key []byte) { ctx.Notify(keyspace.NotifyNew, EventNew, key) }

// addEvent appends an event after the expiries its shards logged before it.
func (ctx *Ctx) addEvent(class keyspace.NotifyClass, event string, db int, key []byte) {
	ctx.takeExpired()
	ev := &ctx.events
	ev.keys = append(ev.keys, key...)
	ev.list = append(ev.list, notifyEvent{class: class, event: event, db: int32(db), end: uint32(len(ev.keys))})
}

// takeExpired moves the `expired` events the locked shards logged into the Ctx's buffer.
func (ctx *Ctx) takeExpired() {
	for _, i := range ctx.locked {
		log := ctx.KS.Shard(i).ExpiredLogLocked()
		if log.Len() == 0 {
			continue
		}
		ev := &ctx.events
		for j := range log.Len() {
			db, key := log.At(j)
			ev.keys = append(ev.keys, key...)
			ev.list = append(ev.list, notifyEvent{class: keyspace.NotifyExpired, event: EventExpired, db: int32(db), end: uint32(len(ev.keys))})
		}
		log.Reset()
	}
}

// collectEvents is the pipeline's step before unlocking: the expiries of the command's shards
// not yet taken join its events (a GET that expired its key raised no event of its own).
func (p *Pipeline) collectEvents(ctx *Ctx) {
	if p.KS.NotifyClasses() != 0 {
		ctx.takeExpired()
	}
}

// maxKeptEventBytes bounds the room a Ctx keeps for events between commands: one DEBUG
// POPULATE or a big MSET may raise many, and an idle connection should not hold their buffers.
const maxKeptEventBytes = 64 << 10

// dropEvents forgets the events recorded (after delivery, or a handler's panic), keeping their
// room unless it is large.
func (ctx *Ctx) dropEvents() {
	ev := &ctx.events
	if cap(ev.keys) > maxKeptEventBytes || cap(ev.list)*24 > maxKeptEventBytes || cap(ev.chBuf) > maxKeptEventBytes {
		*ev = notifyEvents{}
		return
	}
	ev.keys, ev.list = ev.keys[:0], ev.list[:0]
}

// eventsMark is how many events ctx has recorded so far: EXEC takes it before each queued
// command, so that a command that panics loses its own events (truncateEvents) and not those
// of the commands before it, which completed.
func (ctx *Ctx) eventsMark() int { return len(ctx.events.list) }

// truncateEvents forgets the events recorded after mark (eventsMark).
func (ctx *Ctx) truncateEvents(mark int) {
	ev := &ctx.events
	if mark >= len(ev.list) {
		return
	}
	ev.list = ev.list[:mark]
	end := uint32(0)
	if mark > 0 {
		end = ev.list[mark-1].end
	}
	ev.keys = ev.keys[:end]
}

// PendingEvents is the number of keyspace notifications recorded and not yet published.
func (ctx *Ctx) PendingEvents() int { return len(ctx.events.list) }

// deliverEvents publishes the events ctx recorded, in order, and empties its buffer. It runs
// with no shard lock held: after a command (afterUnlock), or after EXEC's whole transaction.
// Classes are checked again against notify-keyspace-events as it is now.
func (p *Pipeline) deliverEvents(ctx *Ctx) {
	ev := &ctx.events
	if len(ev.list) == 0 {
		return
	}
	classes := p.KS.NotifyClasses()
	start := uint32(0)
	for _, e := range ev.list {
		key := ev.keys[start:e.end]
		start = e.end
		if p.Publisher != nil && classes&e.class != 0 {
			ev.chBuf = publishEvent(p.Publisher, ev.chBuf, classes, e.event, int(e.db), key)
		}
	}
	ctx.dropEvents()
}

// PublishKeyEvent publishes event of class for key of database db at once, if
// notify-keyspace-events enables the class: the cron's `expired` and eviction's `evicted`,
// which happen outside any command. No shard lock may be held.
func (p *Pipeline) PublishKeyEvent(class keyspace.NotifyClass, event string, db int, key []byte) {
	classes := p.KS.NotifyClasses()
	if classes&class == 0 || p.Publisher == nil {
		return
	}
	publishEvent(p.Publisher, nil, classes, event, db, key)
}

// publishEvent sends one event as Redis's notifyKeyspaceEvent does: with K,
// __keyspace@<db>__:<key> receives the event's name; with E, __keyevent@<db>__:<event>
// receives the key. buf is room for the channel names; it is returned for reuse.
func publishEvent(pub Publisher, buf []byte, classes keyspace.NotifyClass, event string, db int, key []byte) []byte {
	if classes&keyspace.NotifyKeyspace != 0 {
		buf = append(buf[:0], "__keyspace@"...)
		buf = strconv.AppendInt(buf, int64(db), 10)
		buf = append(buf, "__:"...)
		buf = append(buf, key...)
		n := len(buf)
		buf = append(buf, event...)
		pub.Publish(buf[:n], buf[n:])
	}
	if classes&keyspace.NotifyKeyevent != 0 {
		buf = append(buf[:0], "__keyevent@"...)
		buf = strconv.AppendInt(buf, int64(db), 10)
		buf = append(buf, "__:"...)
		buf = append(buf, event...)
		pub.Publish(buf, key)
	}
	return buf
}
