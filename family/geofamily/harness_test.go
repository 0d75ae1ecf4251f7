package geofamily

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/family/keyfamily"
	"github.com/kvserver/kvserver/family/stringfamily"
	"github.com/kvserver/kvserver/internal/familytest"
)

// newHarness runs the family's rows and the string family's (for WRONGTYPE) and the key family's (OBJECT, EXISTS) through the real pipeline over a keyspace of 16
// shards, with every keyspace event recorded (internal/familytest).
func newHarness(t testing.TB) *familytest.Harness {
	return familytest.New(t, Commands(), stringfamily.Commands(), keyfamily.Commands())
}

// parseReply reads a raw RESP2 reply as internal/redisref's Conn.Do returns one: string,
// error, int64, []byte (nil for a null) or []any (empty for a null array).
func parseReply(raw string) (any, error) {
	return readReply(bufio.NewReader(strings.NewReader(raw)))
}

func readReply(r *bufio.Reader) (any, error) {
	line, err := r.ReadString('\n')
	if err != nil || len(line) < 3 {
		return nil, fmt.Errorf("bad reply line %q: %v", line, err)
	}
	body := line[1 : len(line)-2]
	switch line[0] {
	case '+':
		return body, nil
	case '-':
		return errors.New(body), nil
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '$':
		n, _ := strconv.Atoi(body)
		if n < 0 {
			return []byte(nil), nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		return buf[:n], nil
	case '*':
		n, _ := strconv.Atoi(body)
		out := make([]any, 0, max(n, 0))
		for range n {
			v, err := readReply(r)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("bad reply %q", line)
}

// render prints a parsed reply for comparisons and messages.
func render(v any) string {
	var b bytes.Buffer
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			b.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					b.WriteByte(' ')
				}
				walk(e)
			}
			b.WriteByte(']')
		case []byte:
			if x == nil {
				b.WriteString("nil")
			} else {
				fmt.Fprintf(&b, "%q", x)
			}
		case error:
			fmt.Fprintf(&b, "(error %s)", x)
		default:
			fmt.Fprint(&b, x)
		}
	}
	walk(v)
	return b.String()
}
