package debugfamily

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// resp3Reader reads the RESP3 replies the tests look at: scalars as their type byte and text
// (":5", ",1.5", a bulk string as its text), aggregates as "%n e1 e2 …".
type resp3Reader struct{ b []byte }

// line returns the next line without its CRLF.
func (r *resp3Reader) line() (string, error) {
	i := bytes.Index(r.b, []byte("\r\n"))
	if i < 0 {
		return "", errors.New("no CRLF")
	}
	l := string(r.b[:i])
	r.b = r.b[i+2:]
	return l, nil
}

// header reads an aggregate header of type kind and returns its length.
func (r *resp3Reader) header(kind byte) (int, error) {
	l, err := r.line()
	if err != nil || len(l) < 2 || l[0] != kind {
		return 0, fmt.Errorf("want a %c header, got %q (%v)", kind, l, err)
	}
	return strconv.Atoi(l[1:])
}

// value reads one reply.
func (r *resp3Reader) value() (string, error) {
	l, err := r.line()
	if err != nil || l == "" {
		return "", fmt.Errorf("bad reply %q (%v)", l, err)
	}
	switch l[0] {
	case '$':
		n, _ := strconv.Atoi(l[1:])
		if n < 0 || len(r.b) < n+2 {
			return "", fmt.Errorf("bad bulk %q", l)
		}
		s := string(r.b[:n])
		r.b = r.b[n+2:]
		return s, nil
	case '%', '*':
		n, _ := strconv.Atoi(l[1:])
		if l[0] == '%' {
			n *= 2
		}
		parts := []string{l}
		for range n {
			s, err := r.value()
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " "), nil
	}
	return l, nil
}
