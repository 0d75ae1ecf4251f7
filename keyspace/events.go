package keyspace

// Keyspace notifications' side in the keyspace: the classes notify-keyspace-events enables
// (one atomic word, read by every command that could raise an event) and the log of keys
// removed by expiry, which happens inside lookups, SCAN, RANDOMKEY and the cron's active
// expiry, under a shard's lock. Nothing is published under a lock: the expired keys are
// written to the shard's log, and whoever holds the lock takes them out (the command pipeline
// into its command's events, the cron before it unlocks) and publishes them after unlocking.
// With notifications off the cost is one atomic load per expired key.

// NotifyClass is a set of keyspace-notification classes: server.h's NOTIFY_* bits.
type NotifyClass uint32

// The classes, with their notify-keyspace-events letters.
const (
	NotifyKeyspace NotifyClass = 1 << 0  // K: __keyspace@<db>__:<key> channels
	NotifyKeyevent NotifyClass = 1 << 1  // E: __keyevent@<db>__:<event> channels
	NotifyGeneric  NotifyClass = 1 << 2  // g: DEL, EXPIRE, RENAME, …
	NotifyString   NotifyClass = 1 << 3  // $
	NotifyList     NotifyClass = 1 << 4  // l
	NotifySet      NotifyClass = 1 << 5  // s
	NotifyHash     NotifyClass = 1 << 6  // h
	NotifyZset     NotifyClass = 1 << 7  // z
	NotifyExpired  NotifyClass = 1 << 8  // x: a key removed by expiry
	NotifyEvicted  NotifyClass = 1 << 9  // e: a key removed by maxmemory
	NotifyStream   NotifyClass = 1 << 10 // t
	NotifyKeyMiss  NotifyClass = 1 << 11 // m: a read of a missing key (not in A)
	NotifyModule   NotifyClass = 1 << 13 // d
	NotifyNew      NotifyClass = 1 << 14 // n: a key created (not in A)
	// NotifyAll is A: every class but K, E, m and n.
	NotifyAll = NotifyGeneric | NotifyString | NotifyList | NotifySet | NotifyHash | NotifyZset |
		NotifyExpired | NotifyEvicted | NotifyStream | NotifyModule
)

// ParseNotifyClasses is Redis's keyspaceEventsStringToFlags for a value the configuration has
// already checked: letters it does not know are ignored.
func ParseNotifyClasses(v string) NotifyClass {
	var c NotifyClass
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case 'A':
			c |= NotifyAll
		case 'g':
			c |= NotifyGeneric
		case '$':
			c |= NotifyString
		case 'l':
			c |= NotifyList
		case 's':
			c |= NotifySet
		case 'h':
			c |= NotifyHash
		case 'z':
			c |= NotifyZset
		case 'x':
			c |= NotifyExpired
		case 'e':
			c |= NotifyEvicted
		case 'K':
			c |= NotifyKeyspace
		case 'E':
			c |= NotifyKeyevent
		case 't':
			c |= NotifyStream
		case 'm':
			c |= NotifyKeyMiss
		case 'd':
			c |= NotifyModule
		case 'n':
			c |= NotifyNew
		}
	}
	return c
}

// SetNotifyClasses sets the classes notify-keyspace-events enables. Without K or E nothing
// is ever published, so such a set is stored as none: a non-zero NotifyClasses means some
// event may be sent.
func (k *Keyspace) SetNotifyClasses(c NotifyClass) {
	if c&(NotifyKeyspace|NotifyKeyevent) == 0 {
		c = 0
	}
	k.notify.Store(uint32(c))
}

// NotifyClasses is the classes in force (SetNotifyClasses): 0 when no event is sent.
func (k *Keyspace) NotifyClasses() NotifyClass { return NotifyClass(k.notify.Load()) }

// notifies reports whether events of class c are sent.
func (k *Keyspace) notifies(c NotifyClass) bool { return NotifyClass(k.notify.Load())&c != 0 }

// EventLog is a list of (database, key) pairs with the keys copied into one buffer: the keys a
// shard expired, waiting to be published. The zero value is empty and ready.
type EventLog struct {
	keys []byte
	ends []logEntry
}

type logEntry struct {
	db  int32
	end uint32 // the key's end in keys
}

// Add appends key of database db (copied).
func (l *EventLog) Add(db int, key []byte) {
	l.keys = append(l.keys, key...)
	l.ends = append(l.ends, logEntry{db: int32(db), end: uint32(len(l.keys))})
}

// Len is the number of entries.
func (l *EventLog) Len() int { return len(l.ends) }

// At returns entry i. The key is valid until the log is reset or added to.
func (l *EventLog) At(i int) (db int, key []byte) {
	start := uint32(0)
	if i > 0 {
		start = l.ends[i-1].end
	}
	e := l.ends[i]
	return int(e.db), l.keys[start:e.end:e.end]
}

// Reset empties the log, keeping its room.
func (l *EventLog) Reset() {
	l.keys, l.ends = l.keys[:0], l.ends[:0]
}

// noteExpired counts a key removed by expiry (INFO expired_keys) and logs it for an `expired`
// notification when that class is on. key is read before its record is freed.
func (s *Shard) noteExpired(db int, key []byte) {
	s.expiredKeys.Store(s.expiredKeys.Load() + 1)
	if s.ks.notifies(NotifyExpired) {
		s.expiredLog.Add(db, key)
	}
}

// ExpiredLogLocked is the log of keys this shard expired whose `expired` events are not yet
// taken: the lock holder moves them out (and resets the log) to publish them once it has
// unlocked. Entries stay here until then, whoever holds the lock next.
func (s *Shard) ExpiredLogLocked() *EventLog { return &s.expiredLog }

// SetOnExpired sets the function ActiveExpireCycle calls, with no lock held, for each key it
// took out of a shard's expired log: the server publishes its `expired` event. Set it before
// the keyspace is used; nil drops the events.
func (k *Keyspace) SetOnExpired(fn func(db int, key []byte)) { k.onExpired = fn }

// takeExpiredLocked swaps shard s's expired log with out (both are reset-and-reused buffers),
// so the caller can publish the entries after unlocking.
func (s *Shard) takeExpiredLocked(out *EventLog) {
	if len(s.expiredLog.ends) == 0 {
		return
	}
	*out, s.expiredLog = s.expiredLog, *out
	s.expiredLog.Reset()
}
