// Package slowlog is Redis's slow log (slowlog.c): the commands that ran for at least
// slowlog-log-slower-than microseconds, newest first, at most slowlog-max-len of them, each with
// its id, unix time, duration, arguments (at most 32, each cut at 128 bytes, as Redis keeps
// them), client address and client name; and the SLOWLOG command's rows.
package slowlog

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kvserver/kvserver/querybuf"
)

// Redis's slowlog.h limits on what an entry keeps of a command line.
const (
	maxArgc   = 32  // SLOWLOG_ENTRY_MAX_ARGC: the last kept argument says how many more there were
	maxString = 128 // SLOWLOG_ENTRY_MAX_STRING: longer arguments are cut, saying by how much
)

// Entry is one slow command.
type Entry struct {
	ID       int64
	Time     int64 // unix seconds when it was logged
	Duration int64 // microseconds
	Args     [][]byte
	Peer     string // client address, "ip:port"
	Name     string // client name, "" if none
}

// Log is the slow log. The thresholds are read on every command, atomically; the entries are
// under mu, taken only to add one, read or reset.
type Log struct {
	slowerThan atomic.Int64 // µs; negative: the log is off
	maxLen     atomic.Int64

	mu struct {
		sync.Mutex
		ring   []Entry // a ring of up to maxLen entries; grows as needed
		start  int     // index of the oldest entry
		n      int     // entries held
		nextID int64
	}
}

// New returns a log with Redis's defaults: 10000 µs, 128 entries.
func New() *Log {
	l := &Log{}
	l.slowerThan.Store(10000)
	l.maxLen.Store(128)
	return l
}

// SlowerThan is slowlog-log-slower-than in µs (negative: off).
func (l *Log) SlowerThan() int64 { return l.slowerThan.Load() }

// Logs reports whether a command of us microseconds goes into the log.
func (l *Log) Logs(us int64) bool {
	t := l.slowerThan.Load()
	return t >= 0 && us >= t
}

// SetSlowerThan sets slowlog-log-slower-than. Turning the log on trims it to slowlog-max-len,
// as Redis's next push would (the CONFIG SET that did it is such a push).
func (l *Log) SetSlowerThan(us int64) {
	l.slowerThan.Store(us)
	l.trim()
}

// SetMaxLen sets slowlog-max-len; the log is trimmed at once when it is on (Redis trims at the
// next command, which is the CONFIG SET itself).
func (l *Log) SetMaxLen(n int64) {
	l.maxLen.Store(n)
	l.trim()
}

// trim drops the oldest entries beyond slowlog-max-len, while the log is on.
func (l *Log) trim() {
	if l.slowerThan.Load() < 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.trimLocked()
}

func (l *Log) trimLocked() {
	for int64(l.mu.n) > max(l.maxLen.Load(), 0) {
		l.mu.ring[l.mu.start] = Entry{}
		l.mu.start = (l.mu.start + 1) % len(l.mu.ring)
		l.mu.n--
	}
}

// Push adds the command line args of the command fullName ("config|set"), which ran for us
// microseconds for the client at peer named name, newest first, and trims the log
// (slowlogPushEntryIfNeeded after Logs said yes). The arguments are copied, passwords redacted.
func (l *Log) Push(fullName string, args querybuf.Args, us int64, peer, name string) {
	e := Entry{Time: time.Now().Unix(), Duration: us, Peer: peer, Name: name}
	e.Args = entryArgs(args, secretArgs(fullName, args))
	l.mu.Lock()
	defer l.mu.Unlock()
	e.ID = l.mu.nextID
	l.mu.nextID++
	l.appendLocked(e)
	l.trimLocked()
}

// appendLocked puts e after the newest entry, growing the ring when it is full.
func (l *Log) appendLocked(e Entry) {
	if l.mu.n == len(l.mu.ring) {
		grown := make([]Entry, max(8, 2*len(l.mu.ring)))
		for i := 0; i < l.mu.n; i++ {
			grown[i] = l.mu.ring[(l.mu.start+i)%len(l.mu.ring)]
		}
		l.mu.ring, l.mu.start = grown, 0
	}
	l.mu.ring[(l.mu.start+l.mu.n)%len(l.mu.ring)] = e
	l.mu.n++
	// A ring much bigger than the log (slowlog-max-len lowered) is given back.
	if len(l.mu.ring) > 64 && int64(len(l.mu.ring)) > 4*max(l.maxLen.Load(), 1) {
		l.shrinkLocked()
	}
}

func (l *Log) shrinkLocked() {
	kept := make([]Entry, max(8, l.mu.n))
	for i := 0; i < l.mu.n; i++ {
		kept[i] = l.mu.ring[(l.mu.start+i)%len(l.mu.ring)]
	}
	l.mu.ring, l.mu.start = kept, 0
}

// entryArgs is what slowlogCreateEntry keeps of a command line: at most maxArgc arguments, the
// last of them "... (N more arguments)" when there were more, and each argument longer than
// maxString bytes cut there with "... (N more bytes)" added; the arguments secret marks (nil:
// none) are "(redacted)".
func entryArgs(args querybuf.Args, secret []bool) [][]byte {
	argc := args.Len()
	kept := min(argc, maxArgc)
	out := make([][]byte, kept)
	for j := 0; j < kept; j++ {
		if kept != argc && j == kept-1 {
			out[j] = fmt.Appendf(nil, "... (%d more arguments)", argc-kept+1)
			continue
		}
		a := args.Arg(j)
		if secret != nil && secret[j] {
			a = []byte(redacted)
		}
		if len(a) > maxString {
			out[j] = fmt.Appendf(append([]byte(nil), a[:maxString]...), "... (%d more bytes)", len(a)-maxString)
			continue
		}
		out[j] = append([]byte(nil), a...)
	}
	return out
}

// Len is SLOWLOG LEN.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.mu.n
}

// Newest returns up to count entries, newest first (count < 0: all). The entries are shared
// with the log, which never changes an entry: read them, do not modify them.
func (l *Log) Newest(count int) []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	if count < 0 || count > l.mu.n {
		count = l.mu.n
	}
	out := make([]Entry, count)
	for i := range out {
		out[i] = l.mu.ring[(l.mu.start+l.mu.n-1-i)%len(l.mu.ring)]
	}
	return out
}

// Reset is SLOWLOG RESET: every entry goes; ids go on from where they were, as Redis's do.
func (l *Log) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.mu.ring, l.mu.start, l.mu.n = nil, 0, 0
}
