package pubsub

import (
	"hash/maphash"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/kvserver/kvserver/glob"
)

// Subscriber receives the messages of its subscriptions.
type Subscriber interface {
	// Push queues one message frame: a whole RESP2 array (a RESP3 subscriber turns its first
	// byte into '>'). frame is valid only during the call: copy it. Push is called with hub
	// locks held, from any goroutine: it must not block and must not call the hub.
	Push(frame []byte)
}

// hubShards is how many channel tables the hub has: enough that publishers on different
// channels rarely share a lock, few enough that listing the channels stays cheap.
const hubShards = 32

// channelTable is one shard of a channel namespace: channel name → subscribers, in the order
// they subscribed.
type channelTable struct {
	mu sync.RWMutex
	m  map[string][]Subscriber
	_  [40]byte // keeps neighbouring shards' locks off one cache line
}

// namespace is the channels of SUBSCRIBE, or those of SSUBSCRIBE.
type namespace struct {
	tables [hubShards]channelTable
	count  atomic.Int64 // channels with at least one subscriber
	kind   string       // the message frame's first element: "message" or "smessage"
}

// patternEntry is one pattern and its subscribers.
type patternEntry struct {
	pattern string
	subs    []Subscriber
}

// Hub is the pub/sub registry. The zero value is not usable: call New.
type Hub struct {
	channels namespace
	shard    namespace
	pat      struct {
		sync.RWMutex
		list  []*patternEntry          // for PUBLISH, in the order the patterns appeared
		index map[string]*patternEntry // pattern → its entry
	}
	npat atomic.Int64
}

// New returns an empty hub.
func New() *Hub {
	h := &Hub{}
	h.channels.kind, h.shard.kind = "message", "smessage"
	for i := range h.channels.tables {
		h.channels.tables[i].m = make(map[string][]Subscriber)
		h.shard.tables[i].m = make(map[string][]Subscriber)
	}
	h.pat.index = make(map[string]*patternEntry)
	return h
}

// hubSeed seeds the hash that spreads channels over the shards.
var hubSeed = maphash.MakeSeed()

func (ns *namespace) table(channel []byte) *channelTable {
	return &ns.tables[maphash.Bytes(hubSeed, channel)%hubShards]
}

// subscribe adds s to channel's subscribers. The caller knows s was not subscribed to it.
func (ns *namespace) subscribe(channel []byte, s Subscriber) {
	t := ns.table(channel)
	t.mu.Lock()
	subs, ok := t.m[string(channel)]
	if !ok {
		ns.count.Add(1)
	}
	t.m[string(channel)] = append(subs, s)
	t.mu.Unlock()
}

// unsubscribe removes s from channel's subscribers, if it is one.
func (ns *namespace) unsubscribe(channel []byte, s Subscriber) {
	t := ns.table(channel)
	t.mu.Lock()
	defer t.mu.Unlock()
	subs, ok := t.m[string(channel)]
	if !ok {
		return
	}
	subs = removeSubscriber(subs, s)
	if len(subs) == 0 {
		delete(t.m, string(channel))
		ns.count.Add(-1)
		return
	}
	t.m[string(channel)] = subs
}

// removeSubscriber removes s from subs, keeping the order of the others.
func removeSubscriber(subs []Subscriber, s Subscriber) []Subscriber {
	for i, o := range subs {
		if o == s {
			copy(subs[i:], subs[i+1:])
			subs[len(subs)-1] = nil
			return subs[:len(subs)-1]
		}
	}
	return subs
}

// publish pushes message to channel's subscribers and returns how many there were.
func (ns *namespace) publish(channel, message []byte) int {
	t := ns.table(channel)
	t.mu.RLock()
	defer t.mu.RUnlock()
	subs := t.m[string(channel)]
	if len(subs) == 0 {
		return 0
	}
	fb := getFrame()
	fb.b = appendMessage(fb.b[:0], ns.kind, nil, channel, message)
	for _, s := range subs {
		s.Push(fb.b)
	}
	putFrame(fb)
	return len(subs)
}

// numSub returns how many subscribe to channel.
func (ns *namespace) numSub(channel []byte) int {
	t := ns.table(channel)
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.m[string(channel)])
}

// list returns the channels that match pattern (all when pattern is nil), sorted.
func (ns *namespace) list(pattern []byte) []string {
	var out []string
	for i := range ns.tables {
		t := &ns.tables[i]
		t.mu.RLock()
		for ch := range t.m {
			if pattern == nil || glob.MatchString(string(pattern), ch, false) {
				out = append(out, ch)
			}
		}
		t.mu.RUnlock()
	}
	sort.Strings(out)
	return out
}

// Subscribe adds s to channel's subscribers (SUBSCRIBE). The caller keeps s's own set and
// never subscribes it twice to one channel.
func (h *Hub) Subscribe(channel []byte, s Subscriber) { h.channels.subscribe(channel, s) }

// Unsubscribe removes s from channel's subscribers (UNSUBSCRIBE).
func (h *Hub) Unsubscribe(channel []byte, s Subscriber) { h.channels.unsubscribe(channel, s) }

// SSubscribe adds s to shard channel's subscribers (SSUBSCRIBE).
func (h *Hub) SSubscribe(channel []byte, s Subscriber) { h.shard.subscribe(channel, s) }

// SUnsubscribe removes s from shard channel's subscribers (SUNSUBSCRIBE).
func (h *Hub) SUnsubscribe(channel []byte, s Subscriber) { h.shard.unsubscribe(channel, s) }

// PSubscribe adds s to pattern's subscribers (PSUBSCRIBE). As Subscribe, never twice.
func (h *Hub) PSubscribe(pattern []byte, s Subscriber) {
	h.pat.Lock()
	defer h.pat.Unlock()
	e := h.pat.index[string(pattern)]
	if e == nil {
		e = &patternEntry{pattern: string(pattern)}
		h.pat.index[e.pattern] = e
		h.pat.list = append(h.pat.list, e)
		h.npat.Add(1)
	}
	e.subs = append(e.subs, s)
}

// PUnsubscribe removes s from pattern's subscribers (PUNSUBSCRIBE).
func (h *Hub) PUnsubscribe(pattern []byte, s Subscriber) {
	h.pat.Lock()
	defer h.pat.Unlock()
	e := h.pat.index[string(pattern)]
	if e == nil {
		return
	}
	e.subs = removeSubscriber(e.subs, s)
	if len(e.subs) > 0 {
		return
	}
	delete(h.pat.index, e.pattern)
	for i, o := range h.pat.list {
		if o == e {
			copy(h.pat.list[i:], h.pat.list[i+1:])
			h.pat.list[len(h.pat.list)-1] = nil
			h.pat.list = h.pat.list[:len(h.pat.list)-1]
			break
		}
	}
	h.npat.Add(-1)
}

// Publish sends message to the subscribers of channel and to those of every pattern that
// matches it (PUBLISH), and returns how many received it: a subscriber of the channel and of
// a matching pattern is counted (and sent the message) twice, as in Redis. It implements
// command.Publisher.
func (h *Hub) Publish(channel, message []byte) int {
	n := h.channels.publish(channel, message)
	if h.npat.Load() == 0 {
		return n
	}
	h.pat.RLock()
	defer h.pat.RUnlock()
	var fb *frameBuf
	for _, e := range h.pat.list {
		if !glob.Match([]byte(e.pattern), channel, false) {
			continue
		}
		if fb == nil {
			fb = getFrame()
		}
		fb.b = appendMessage(fb.b[:0], "pmessage", []byte(e.pattern), channel, message)
		for _, s := range e.subs {
			s.Push(fb.b)
		}
		n += len(e.subs)
	}
	if fb != nil {
		putFrame(fb)
	}
	return n
}

// SPublish sends message to the subscribers of shard channel (SPUBLISH) and returns how many
// received it.
func (h *Hub) SPublish(channel, message []byte) int { return h.shard.publish(channel, message) }

// NumSub returns how many subscribe to channel, patterns not counted (PUBSUB NUMSUB).
func (h *Hub) NumSub(channel []byte) int { return h.channels.numSub(channel) }

// NumShardSub returns how many subscribe to shard channel (PUBSUB SHARDNUMSUB).
func (h *Hub) NumShardSub(channel []byte) int { return h.shard.numSub(channel) }

// NumPat returns how many distinct patterns have subscribers (PUBSUB NUMPAT, INFO's
// pubsub_patterns).
func (h *Hub) NumPat() int { return int(h.npat.Load()) }

// NumChannels returns how many channels have subscribers (INFO's pubsub_channels).
func (h *Hub) NumChannels() int { return int(h.channels.count.Load()) }

// NumShardChannels returns how many shard channels have subscribers (INFO's
// pubsubshard_channels).
func (h *Hub) NumShardChannels() int { return int(h.shard.count.Load()) }

// Channels returns the channels with subscribers that match pattern, all of them when
// pattern is nil, sorted (PUBSUB CHANNELS).
func (h *Hub) Channels(pattern []byte) []string { return h.channels.list(pattern) }

// ShardChannels is Channels for shard channels (PUBSUB SHARDCHANNELS).
func (h *Hub) ShardChannels(pattern []byte) []string { return h.shard.list(pattern) }

// frameBuf is a reusable buffer for the frame of one publish.
type frameBuf struct{ b []byte }

var framePool = sync.Pool{New: func() any { return &frameBuf{b: make([]byte, 0, 256)} }}

func getFrame() *frameBuf { return framePool.Get().(*frameBuf) }

// putFrame gives a frame buffer back unless a big message made it big.
func putFrame(fb *frameBuf) {
	if cap(fb.b) <= 64<<10 {
		framePool.Put(fb)
	}
}

// appendMessage appends the RESP2 frame of a message: [kind, channel, message], or
// [kind, pattern, channel, message] when pattern is not nil.
func appendMessage(b []byte, kind string, pattern, channel, message []byte) []byte {
	n := 3
	if pattern != nil {
		n = 4
	}
	b = append(b, '*')
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, '\r', '\n')
	b = appendBulk(b, []byte(kind))
	if pattern != nil {
		b = appendBulk(b, pattern)
	}
	b = appendBulk(b, channel)
	return appendBulk(b, message)
}

func appendBulk(b, s []byte) []byte {
	b = append(b, '$')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, '\r', '\n')
	b = append(b, s...)
	return append(b, '\r', '\n')
}
