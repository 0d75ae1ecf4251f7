package cmdfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// A Reply is one decoded RESP2 or RESP3 reply, as hiredis would hand it to redis-cli.
type Reply struct {
	// Kind is the RESP type byte: '+' status, '-' error, ':' integer, '$' bulk string,
	// '*' array, '_' null (RESP2's $-1 and *-1 decode to '_' too), ',' double, '#' boolean,
	// '(' big number, '=' verbatim string, '%' map, '~' set, '>' push.
	Kind byte
	// Str holds the text of status, error, bulk, double, big number and verbatim replies
	// (verbatim without its three-letter format and colon, as hiredis strips it).
	Str string
	// Int holds an integer reply's value, and 1 or 0 for a boolean.
	Int int64
	// Elems holds an aggregate's elements; a map's keys and values alternate.
	Elems []*Reply
}

// ErrProtocol reports a reply that is not valid RESP.
var ErrProtocol = errors.New("invalid RESP reply")

// ReadReply reads one complete reply. Attribute replies ('|') are read and dropped, as
// redis-cli does not print them either.
func ReadReply(r *bufio.Reader) (*Reply, error) {
	line, err := readLine(r)
	if err != nil {
		return nil, err
	}
	if len(line) == 0 {
		return nil, fmt.Errorf("%w: empty line", ErrProtocol)
	}
	kind, rest := line[0], line[1:]
	switch kind {
	case '+', '-', ',', '(':
		return &Reply{Kind: kind, Str: rest}, nil
	case ':':
		n, err := strconv.ParseInt(rest, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: integer %q", ErrProtocol, rest)
		}
		return &Reply{Kind: kind, Int: n}, nil
	case '_':
		return &Reply{Kind: '_'}, nil
	case '#':
		switch rest {
		case "t":
			return &Reply{Kind: '#', Int: 1}, nil
		case "f":
			return &Reply{Kind: '#', Int: 0}, nil
		}
		return nil, fmt.Errorf("%w: boolean %q", ErrProtocol, rest)
	case '$', '=', '!':
		n, err := strconv.Atoi(rest)
		if err != nil || n < -1 {
			return nil, fmt.Errorf("%w: length %q", ErrProtocol, line)
		}
		if n == -1 {
			return &Reply{Kind: '_'}, nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		if buf[n] != '\r' || buf[n+1] != '\n' {
			return nil, fmt.Errorf("%w: bulk of %d bytes not followed by CRLF", ErrProtocol, n)
		}
		s := string(buf[:n])
		switch kind {
		case '!':
			return &Reply{Kind: '-', Str: s}, nil
		case '=':
			if len(s) < 4 || s[3] != ':' {
				return nil, fmt.Errorf("%w: verbatim string %q", ErrProtocol, s)
			}
			return &Reply{Kind: '=', Str: s[4:]}, nil
		}
		return &Reply{Kind: '$', Str: s}, nil
	case '*', '%', '~', '>', '|':
		n, err := strconv.Atoi(rest)
		if err != nil || n < -1 {
			return nil, fmt.Errorf("%w: count %q", ErrProtocol, line)
		}
		if n == -1 {
			return &Reply{Kind: '_'}, nil
		}
		count := n
		if kind == '%' || kind == '|' {
			count = 2 * n
		}
		rep := &Reply{Kind: kind, Elems: make([]*Reply, 0, min(count, 1024))}
		for range count {
			e, err := ReadReply(r)
			if err != nil {
				return nil, err
			}
			rep.Elems = append(rep.Elems, e)
		}
		if kind == '|' { // an attribute precedes the reply it describes
			return ReadReply(r)
		}
		return rep, nil
	}
	return nil, fmt.Errorf("%w: type byte %q in %q", ErrProtocol, kind, line)
}

// readLine reads one CRLF-terminated line and returns it without the CRLF.
func readLine(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	if len(line) < 2 || line[len(line)-2] != '\r' {
		return "", fmt.Errorf("%w: line %q not ended by CRLF", ErrProtocol, line)
	}
	return line[:len(line)-2], nil
}

// Format formats a reply as redis-cli 7 prints it to a terminal (cliFormatReplyTTY),
// every line ended by a newline. With typesOnly, scalar values are replaced by their type
// name, e.g. `(integer)` or `(string)`, except errors and the keys of maps, which keep
// their text: that prints the shape of replies whose values change from run to run.
func Format(r *Reply, typesOnly bool) string {
	var b strings.Builder
	formatTTY(&b, r, "", typesOnly)
	return b.String()
}

func formatTTY(b *strings.Builder, r *Reply, prefix string, typesOnly bool) {
	if typesOnly {
		switch r.Kind {
		case '+', '$', '=':
			b.WriteString("(string)\n")
			return
		case ':':
			b.WriteString("(integer)\n")
			return
		case ',':
			b.WriteString("(double)\n")
			return
		case '#':
			b.WriteString("(boolean)\n")
			return
		case '(':
			b.WriteString("(big number)\n")
			return
		}
	}
	switch r.Kind {
	case '-':
		fmt.Fprintf(b, "(error) %s\n", r.Str)
	case '+':
		b.WriteString(r.Str + "\n")
	case ':':
		fmt.Fprintf(b, "(integer) %d\n", r.Int)
	case ',':
		fmt.Fprintf(b, "(double) %s\n", r.Str)
	case '(':
		fmt.Fprintf(b, "(big number) %s\n", r.Str)
	case '$':
		b.WriteString(quoteRepr(r.Str) + "\n")
	case '=':
		b.WriteString(r.Str + "\n")
	case '_':
		b.WriteString("(nil)\n")
	case '#':
		if r.Int != 0 {
			b.WriteString("(true)\n")
		} else {
			b.WriteString("(false)\n")
		}
	case '*', '%', '~', '>':
		formatAggregate(b, r, prefix, typesOnly)
	default:
		fmt.Fprintf(b, "(unknown reply type %q)\n", r.Kind)
	}
}

func formatAggregate(b *strings.Builder, r *Reply, prefix string, typesOnly bool) {
	if len(r.Elems) == 0 {
		b.WriteString(map[byte]string{
			'*': "(empty array)\n", '%': "(empty hash)\n", '~': "(empty set)\n", '>': "(empty push)\n",
		}[r.Kind])
		return
	}
	n := len(r.Elems)
	if r.Kind == '%' {
		n /= 2
	}
	idxlen := len(strconv.Itoa(n))
	childPrefix := prefix + strings.Repeat(" ", idxlen+2)
	sep := map[byte]byte{'*': ')', '>': ')', '~': '~', '%': '#'}[r.Kind]
	for i := 0; i < len(r.Elems); i++ {
		human := i + 1
		if r.Kind == '%' {
			human = i/2 + 1
		}
		// The first element's index follows the parent's index on the same line.
		if i > 0 {
			b.WriteString(prefix)
		}
		fmt.Fprintf(b, "%*d%c ", idxlen, human, sep)
		if r.Kind != '%' {
			formatTTY(b, r.Elems[i], childPrefix, typesOnly)
			continue
		}
		// A map key keeps its text even in typesOnly mode: the keys are the shape.
		var key strings.Builder
		formatTTY(&key, r.Elems[i], childPrefix, false)
		b.WriteString(strings.TrimSuffix(key.String(), "\n"))
		b.WriteString(" => ")
		i++
		if isMultiline(r.Elems[i]) {
			b.WriteString("\n" + childPrefix)
		}
		formatTTY(b, r.Elems[i], childPrefix, typesOnly)
	}
}

// isMultiline is redis-cli's cliIsMultilineValueTTY: a map value printed on several lines
// starts on a line of its own.
func isMultiline(r *Reply) bool {
	switch r.Kind {
	case '*', '~', '>':
		if len(r.Elems) == 0 {
			return false
		}
		if len(r.Elems) > 1 {
			return true
		}
		return isMultiline(r.Elems[0])
	case '%':
		if len(r.Elems) == 0 {
			return false
		}
		if len(r.Elems) > 2 {
			return true
		}
		return isMultiline(r.Elems[1])
	}
	return false
}

// quoteRepr quotes s as Redis's sdscatrepr does.
func quoteRepr(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		default:
			if c >= 0x20 && c <= 0x7e {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Sort puts the elements of the reply r in a fixed order, so that a reply whose order is
// unspecified (SMEMBERS of a hash-table set, HKEYS of a big hash, SPOP with a count) prints the
// same each time: an array's, set's or push's elements in the order of their formatted text,
// a map's pairs in the order of their keys' text. A SCAN reply (an array of a cursor and an
// array) keeps its cursor first and has its second element sorted instead. Elements are
// sorted as whole units (a RESP3 HRANDFIELD pair stays a pair), but a flat field-value list (a
// RESP2 HGETALL, an HSCAN) is sorted element by element, which loses what value went with
// what field: use a map (RESP3), or values equal to their fields, where that matters.
func Sort(r *Reply) {
	if r.Kind == '*' && len(r.Elems) == 2 && r.Elems[0].Kind == '$' && r.Elems[1].Kind == '*' {
		r = r.Elems[1]
	}
	text := func(e *Reply) string { return Format(e, false) }
	switch r.Kind {
	case '*', '~', '>':
		slices.SortStableFunc(r.Elems, func(a, b *Reply) int { return strings.Compare(text(a), text(b)) })
	case '%':
		pairs := make([][2]*Reply, len(r.Elems)/2)
		for i := range pairs {
			pairs[i] = [2]*Reply{r.Elems[2*i], r.Elems[2*i+1]}
		}
		slices.SortStableFunc(pairs, func(a, b [2]*Reply) int { return strings.Compare(text(a[0]), text(b[0])) })
		for i, p := range pairs {
			r.Elems[2*i], r.Elems[2*i+1] = p[0], p[1]
		}
	}
}
