package querybuf

import (
	"slices"
	"strings"
	"testing"
)

// Before authentication Redis refuses counts above 10 and bulk lengths above 16384, after the
// checks that apply to everyone; the limits end with SetLimits.
func TestUnauthenticatedLimits(t *testing.T) {
	unauth := Limits{Unauthenticated: true}
	for _, tc := range []struct {
		name string
		in   string
		want cmds
		err  error
	}{
		{"ten arguments", "*10\r\n" + strings.Repeat("$1\r\na\r\n", 10), cmds{slices.Repeat([]string{"a"}, 10)}, nil},
		{"eleven arguments", "*11\r\n", nil, ErrUnauthMultibulkLength},
		{"a hundred arguments", "*100\r\n", nil, ErrUnauthMultibulkLength},
		{"invalid count first", "*2147483648\r\n", nil, ErrInvalidMultibulkLength},
		{"count not a number", "*1x\r\n", nil, ErrInvalidMultibulkLength},
		{"empty and negative counts", "*0\r\n*-1\r\n*1\r\n$4\r\nPING\r\n", cmds{{"PING"}}, nil},
		{"16384 bytes", "*2\r\n$4\r\nAUTH\r\n$16384\r\n" + strings.Repeat("p", 16384) + "\r\n", cmds{{"AUTH", strings.Repeat("p", 16384)}}, nil},
		{"16385 bytes", "*2\r\n$4\r\nAUTH\r\n$16385\r\n", nil, ErrUnauthBulkLength},
		{"huge bulk", "*1\r\n$100000000\r\n", nil, ErrUnauthBulkLength},
		{"invalid bulk first", "*1\r\n$-5\r\n", nil, ErrInvalidBulkLength},
		{"over proto-max-bulk-len first", "*1\r\n$600000000\r\n", nil, ErrInvalidBulkLength},
		{"commands before the error run", "*1\r\n$4\r\nPING\r\n*11\r\n", cmds{{"PING"}}, ErrUnauthMultibulkLength},
		{"inline is not limited by count", strings.Repeat("a ", 20) + "\r\n", cmds{slices.Repeat([]string{"a"}, 20)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			for _, ps := range [][][]byte{{in}, {in[:len(in)/2], in[len(in)/2:]}} {
				got, err := parseAll(t, unauth, 0, ps)
				if !slices.EqualFunc(got, tc.want, slices.Equal) {
					t.Fatalf("commands %q, want %q", got, tc.want)
				}
				if err != tc.err {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
			}
		})
	}
	// The same bytes pass once authenticated.
	if _, err := parseAll(t, Limits{}, 0, [][]byte{[]byte("*11\r\n$100000\r\n")}); err != nil {
		t.Fatalf("authenticated: %v", err)
	}
	p := NewParser(unauth)
	p.SetLimits(Limits{})
	if _, err := p.Parse([]byte("*11\r\n$100000\r\n")); err != nil {
		t.Fatalf("after SetLimits: %v", err)
	}
	if ErrUnauthMultibulkLength.Error() != "Protocol error: unauthenticated multibulk length" ||
		ErrUnauthBulkLength.Error() != "Protocol error: unauthenticated bulk length" {
		t.Fatal("error texts differ from Redis's")
	}
}

// Unauthenticated, the query buffer limit is 1 MiB whatever client-query-buffer-limit says,
// and a smaller configured limit still applies.
func TestUnauthenticatedQueryBufLimit(t *testing.T) {
	if got := (Limits{Unauthenticated: true}).queryBufLimit(); got != UnauthQueryBufLimit {
		t.Fatalf("default: %d", got)
	}
	if got := (Limits{Unauthenticated: true, QueryBufLimit: 1000}).queryBufLimit(); got != 1000 {
		t.Fatalf("below 1 MiB: %d", got)
	}
	if got := (Limits{}).queryBufLimit(); got != DefaultQueryBufLimit {
		t.Fatalf("authenticated: %d", got)
	}
	// An inline line cannot get there (64 KiB), so feed the parser more than 1 MiB at once,
	// as a read into a grown buffer would.
	p := NewParser(Limits{Unauthenticated: true})
	if _, err := p.Parse([]byte(strings.Repeat("x", int(UnauthQueryBufLimit)+1))); err != ErrQueryBufLimit {
		t.Fatalf("1 MiB + 1 unparsed bytes: %v", err)
	}
	p = NewParser(Limits{})
	if _, err := p.Parse([]byte(strings.Repeat("PING\r\n", 200_000))); err != nil {
		t.Fatalf("authenticated, 1.2 MB of PINGs: %v", err)
	}
}
