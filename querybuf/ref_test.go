package querybuf

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// redisModel is a literal port of Redis 7.2's processInputBuffer, processInlineBuffer,
// processMultibulkBuffer and sdssplitargs, kept deliberately naive: it appends every read to one
// query buffer, rescans from qb_pos each time, and treats the buffer as NUL-terminated where
// Redis uses strchr. It is the reference the incremental parser is compared with.
type redisModel struct {
	maxBulkLen int64

	querybuf     []byte
	qbPos        int
	reqtype      int // 0 unknown, 1 inline, 2 multibulk
	multibulklen int64
	bulklen      int64
	argv         []string

	cmds [][]string
	err  string // the error reply text, once one was sent
}

func newRedisModel(maxBulkLen int64) *redisModel {
	return &redisModel{maxBulkLen: maxBulkLen, bulklen: -1}
}

// read appends one read's bytes and processes them, as readQueryFromClient does.
func (c *redisModel) read(b []byte) {
	if c.err != "" {
		return
	}
	c.querybuf = append(c.querybuf, b...)
	c.processInputBuffer()
	c.querybuf = append(c.querybuf[:0], c.querybuf[c.qbPos:]...)
	c.qbPos = 0
}

func (c *redisModel) resetClient() {
	c.argv = nil
	c.reqtype = 0
	c.multibulklen = 0
	c.bulklen = -1
}

func (c *redisModel) processInputBuffer() {
	for c.err == "" && c.qbPos < len(c.querybuf) {
		if c.reqtype == 0 {
			if c.querybuf[c.qbPos] == '*' {
				c.reqtype = 2
			} else {
				c.reqtype = 1
			}
		}
		var ok bool
		if c.reqtype == 1 {
			ok = c.processInlineBuffer()
		} else {
			ok = c.processMultibulkBuffer()
		}
		if !ok {
			break
		}
		if len(c.argv) > 0 {
			c.cmds = append(c.cmds, c.argv)
		}
		c.resetClient()
	}
}

// strchr searches from i for ch and stops at a NUL, or at the end (where sds keeps a NUL).
func (c *redisModel) strchr(i int, ch byte) int {
	rest := c.querybuf[i:]
	k := bytes.IndexByte(rest, ch)
	if k < 0 {
		return -1
	}
	if bytes.IndexByte(rest[:k], 0) >= 0 {
		return -1
	}
	return i + k
}

func (c *redisModel) processInlineBuffer() bool {
	newline := c.strchr(c.qbPos, '\n')
	if newline < 0 {
		if len(c.querybuf)-c.qbPos > InlineMaxSize {
			c.err = "Protocol error: too big inline request"
		}
		return false
	}
	linefeedChars := 1
	if newline != c.qbPos && c.querybuf[newline-1] == '\r' {
		newline--
		linefeedChars++
	}
	querylen := newline - c.qbPos
	argv, ok := sdssplitargs(c.querybuf[c.qbPos : c.qbPos+querylen])
	if !ok {
		c.err = "Protocol error: unbalanced quotes in request"
		return false
	}
	c.qbPos += querylen + linefeedChars
	c.argv = argv
	return true
}

func (c *redisModel) processMultibulkBuffer() bool {
	if c.multibulklen == 0 {
		newline := c.strchr(c.qbPos, '\r')
		if newline < 0 {
			if len(c.querybuf)-c.qbPos > InlineMaxSize {
				c.err = "Protocol error: too big mbulk count string"
			}
			return false
		}
		if newline-c.qbPos > len(c.querybuf)-c.qbPos-2 {
			return false
		}
		ll, ok := refString2ll(c.querybuf[c.qbPos+1 : newline])
		if !ok || ll > 2147483647 {
			c.err = "Protocol error: invalid multibulk length"
			return false
		}
		c.qbPos = newline + 2
		if ll <= 0 {
			return true
		}
		c.multibulklen = ll
	}
	for c.multibulklen > 0 {
		if c.bulklen == -1 {
			newline := c.strchr(c.qbPos, '\r')
			if newline < 0 {
				if len(c.querybuf)-c.qbPos > InlineMaxSize {
					c.err = "Protocol error: too big bulk count string"
					return false
				}
				break
			}
			if newline-c.qbPos > len(c.querybuf)-c.qbPos-2 {
				break
			}
			if c.querybuf[c.qbPos] != '$' {
				// addReplyErrorFormat maps CR and LF to spaces.
				got := strings.NewReplacer("\r", " ", "\n", " ").Replace(string(c.querybuf[c.qbPos : c.qbPos+1]))
				c.err = fmt.Sprintf("Protocol error: expected '$', got '%s'", got)
				return false
			}
			ll, ok := refString2ll(c.querybuf[c.qbPos+1 : newline])
			if !ok || ll < 0 || ll > c.maxBulkLen {
				c.err = "Protocol error: invalid bulk length"
				return false
			}
			c.qbPos = newline + 2
			c.bulklen = ll
		}
		if int64(len(c.querybuf)-c.qbPos) < c.bulklen+2 {
			break
		}
		c.argv = append(c.argv, string(c.querybuf[c.qbPos:c.qbPos+int(c.bulklen)]))
		c.qbPos += int(c.bulklen) + 2
		c.bulklen = -1
		c.multibulklen--
	}
	return c.multibulklen == 0
}

// refString2ll accepts exactly the canonical decimal form of an int64, which is what Redis's
// string2ll accepts: no sign but '-', no leading zeros, no "-0", at most 20 bytes.
func refString2ll(b []byte) (int64, bool) {
	v, err := strconv.ParseInt(string(b), 10, 64)
	return v, err == nil && strconv.FormatInt(v, 10) == string(b)
}

// sdssplitargs is sds.c's, over a NUL-terminated copy of the line.
func sdssplitargs(line []byte) ([]string, bool) {
	s := append(append([]byte(nil), line...), 0)
	cspace := func(c byte) bool {
		return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
	}
	hex := func(c byte) bool {
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	hexInt := func(c byte) byte {
		v, _ := strconv.ParseUint(string(c), 16, 8)
		return byte(v)
	}
	p := 0
	argv := []string{}
	for {
		for s[p] != 0 && cspace(s[p]) {
			p++
		}
		if s[p] == 0 {
			return argv, true
		}
		inq, insq, done := false, false, false
		var current []byte
		for !done {
			if inq {
				if s[p] == '\\' && s[p+1] == 'x' && hex(s[p+2]) && hex(s[p+3]) {
					current = append(current, hexInt(s[p+2])*16+hexInt(s[p+3]))
					p += 3
				} else if s[p] == '\\' && s[p+1] != 0 {
					p++
					var c byte
					switch s[p] {
					case 'n':
						c = '\n'
					case 'r':
						c = '\r'
					case 't':
						c = '\t'
					case 'b':
						c = '\b'
					case 'a':
						c = '\a'
					default:
						c = s[p]
					}
					current = append(current, c)
				} else if s[p] == '"' {
					if s[p+1] != 0 && !cspace(s[p+1]) {
						return nil, false
					}
					done = true
				} else if s[p] == 0 {
					return nil, false
				} else {
					current = append(current, s[p])
				}
			} else if insq {
				if s[p] == '\\' && s[p+1] == '\'' {
					p++
					current = append(current, '\'')
				} else if s[p] == '\'' {
					if s[p+1] != 0 && !cspace(s[p+1]) {
						return nil, false
					}
					done = true
				} else if s[p] == 0 {
					return nil, false
				} else {
					current = append(current, s[p])
				}
			} else {
				switch s[p] {
				case ' ', '\n', '\r', '\t', 0:
					done = true
				case '"':
					inq = true
				case '\'':
					insq = true
				default:
					current = append(current, s[p])
				}
			}
			if s[p] != 0 {
				p++
			}
		}
		argv = append(argv, string(current))
	}
}
