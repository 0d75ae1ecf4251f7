package acl

import (
	"sync"
	"time"
)

// mergeWindowMs is ACL_LOG_GROUPING_MAX_TIME_DELTA: similar denials within 60 s share an entry.
const mergeWindowMs = 60000

// mergeScan is how many recent entries Add looks at for a similar one, as Redis.
const mergeScan = 10

// DefaultLogMaxLen is acllog-max-len's default.
const DefaultLogMaxLen = 128

// Entry is one ACL LOG entry (Redis 7.2's fields). Context is "toplevel", "multi", "lua" or
// "module". Object is the command's full name, the key, the channel, or for Auth the command
// (AUTH, HELLO). ClientInfo is CLIENT INFO's line of the last client. Times are Unix
// milliseconds: Created when the entry began, Updated at its last denial (age-seconds is
// now−Updated).
type Entry struct {
	Count      uint64
	Reason     Reason
	Context    string
	Object     string
	Username   string
	ClientInfo string
	EntryID    int64
	Created    int64
	Updated    int64
}

// Log is the ACL LOG: newest entry first, bounded by acllog-max-len. Safe for concurrent use.
type Log struct {
	mu struct {
		sync.Mutex
		entries []Entry // newest first
		maxLen  int
		nextID  int64
	}
}

// NewLog returns an empty log bounded by DefaultLogMaxLen.
func NewLog() *Log {
	l := &Log{}
	l.mu.maxLen = DefaultLogMaxLen
	return l
}

// Add records a denial (addACLLogEntry). e.Updated is the time of the denial (now when zero);
// Count, EntryID and Created are set here. If one of the 10 newest entries has the same
// reason, context, object and user and was updated within 60 s of e, that entry counts one
// more, takes e's client info and time, and moves to the front; else e is added at the front
// with the next entry ID and the oldest entries beyond the bound are dropped.
func (l *Log) Add(e Entry) {
	if e.Updated == 0 {
		e.Updated = time.Now().UnixMilli()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mu.maxLen == 0 {
		l.mu.entries = nil
		return
	}
	ents := l.mu.entries
	for i := 0; i < len(ents) && i < mergeScan; i++ {
		c := &ents[i]
		d := c.Updated - e.Updated
		if d < 0 {
			d = -d
		}
		if c.Reason != e.Reason || c.Context != e.Context || d > mergeWindowMs ||
			c.Object != e.Object || c.Username != e.Username {
			continue
		}
		m := *c
		m.Count++
		m.ClientInfo = e.ClientInfo
		m.Updated = e.Updated
		copy(ents[1:i+1], ents[:i])
		ents[0] = m
		return
	}
	e.Count = 1
	e.EntryID = l.mu.nextID
	e.Created = e.Updated
	l.mu.nextID++
	l.mu.entries = append([]Entry{e}, ents...)
	l.trimLocked()
}

func (l *Log) trimLocked() {
	if len(l.mu.entries) > l.mu.maxLen {
		l.mu.entries = l.mu.entries[:l.mu.maxLen]
	}
}

// Entries returns copies of the newest n entries (all when n < 0), newest first.
func (l *Log) Entries(n int) []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n < 0 || n > len(l.mu.entries) {
		n = len(l.mu.entries)
	}
	return append([]Entry(nil), l.mu.entries[:n]...)
}

// Len is the number of entries.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.mu.entries)
}

// Reset is ACL LOG RESET: it empties the log (entry IDs keep counting, as Redis).
func (l *Log) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.mu.entries = nil
}

// SetMaxLen sets acllog-max-len and drops the oldest entries beyond it.
func (l *Log) SetMaxLen(n int) {
	if n < 0 {
		n = 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.mu.maxLen = n
	l.trimLocked()
}
