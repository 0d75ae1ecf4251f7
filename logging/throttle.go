package logging

import (
	"sync"
	"time"
	"unicode/utf8"
)

// Rate of a Throttle: ThrottleBurst messages at once, then ThrottleRate a second. Ten a second
// keeps a log readable and bounded (under 100 MB a day per kind of message) while showing that
// something happens.
const (
	ThrottleRate  = 10
	ThrottleBurst = 10
)

// Throttle is a token bucket for one kind of message that clients can make the server write
// as often as they like (protocol errors, DEBUG LOG …), so that a client sending garbage in a
// loop cannot fill the disk. Its mutex is taken only when such a message is about to be
// written, never on a path a well-behaved client takes. The zero value is ready.
type Throttle struct {
	mu         sync.Mutex
	tokens     float64
	last       time.Time
	suppressed int64 // messages dropped since the last one written
}

// Allow takes a token if there is one, returning whether to write the message and how many
// were suppressed before it (reset once reported).
func (t *Throttle) Allow(now time.Time) (ok bool, suppressed int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last.IsZero() {
		t.tokens = ThrottleBurst
	} else {
		t.tokens = min(ThrottleBurst, t.tokens+now.Sub(t.last).Seconds()*ThrottleRate)
	}
	t.last = now
	if t.tokens < 1 {
		t.suppressed++
		return false, 0
	}
	t.tokens--
	suppressed, t.suppressed = t.suppressed, 0
	return true, suppressed
}

// MaxLineLen is Redis's LOG_MAX_LEN: serverLog formats a message into 1024 bytes, its NUL
// included, so a line holds at most 1023 bytes of message.
const MaxLineLen = 1024

// CutMessage cuts msg so that prefix+msg fits a line of MaxLineLen-1 bytes, as serverLog's
// buffer cuts it, and back to a whole UTF-8 character.
func CutMessage(prefix string, msg []byte) []byte {
	room := MaxLineLen - 1 - len(prefix)
	if len(msg) <= room {
		return msg
	}
	msg = msg[:room]
	// Back to the start of a character cut in two.
	for i := len(msg) - 1; i >= 0 && i >= len(msg)-utf8.UTFMax; i-- {
		if utf8.RuneStart(msg[i]) {
			if !utf8.FullRune(msg[i:]) {
				msg = msg[:i]
			}
			break
		}
	}
	return msg
}
