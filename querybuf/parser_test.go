package querybuf

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kvserver/kvserver/conv"
)

type cmds = [][]string

var parseCases = []struct {
	name string
	in   string
	want cmds
	err  error // nil, or the exact error value expected
}{
	// Request type: '*' is multibulk, anything else inline — even '$'.
	{"inline crlf", "PING\r\n", cmds{{"PING"}}, nil},
	{"inline lf", "PING\n", cmds{{"PING"}}, nil},
	{"inline pipeline mixed endings", "PING\r\nECHO a\nGET k\r\n", cmds{{"PING"}, {"ECHO", "a"}, {"GET", "k"}}, nil},
	{"inline spaces", "  SET\t  a   b  \r\n", cmds{{"SET", "a", "b"}}, nil},
	{"inline dollar first", "$3\r\nfoo\r\n", cmds{{"$3"}, {"foo"}}, nil},
	{"inline no newline yet", "PING", nil, nil},
	{"inline cr only is not an end", "PING\r", nil, nil},
	{"empty line crlf", "\r\n", nil, nil},
	{"empty lines", "\n\n\r\n\r\nPING\r\n", cmds{{"PING"}}, nil},
	{"blank line", " \t \r\n", nil, nil},
	{"cr cr lf", "\r\r\n", nil, nil},
	{"cr inside line separates", "GET a\rb\n", cmds{{"GET", "a", "b"}}, nil},
	{"vt and ff kept inside a token", "a\vb c\fd\n", cmds{{"a\vb", "c\fd"}}, nil},
	{"vt and ff skipped between tokens", "\va \f\vb\n", cmds{{"a", "b"}}, nil},
	{"vt and ff only skipped", "\va\f \vb\n", cmds{{"a\f", "b"}}, nil},
	{"high bytes", "SET \xff\xfe \x80\n", cmds{{"SET", "\xff\xfe", "\x80"}}, nil},

	// Inline quoting and escapes (sdssplitargs).
	{"double quotes", `SET k "hello world"` + "\r\n", cmds{{"SET", "k", "hello world"}}, nil},
	{"escapes", `"\n\r\t\b\a\\\"\q"` + "\n", cmds{{"\n\r\t\b\a\\\"q"}}, nil},
	{"hex escapes", `"\x41\x4a\x4B\x00\xff"` + "\n", cmds{{"AJK\x00\xff"}}, nil},
	{"short hex escape", `"\x4" "\xg1"` + "\n", cmds{{"x4", "xg1"}}, nil},
	{"single quotes", `'it\'s' 'a\nb' 'x"y'` + "\n", cmds{{"it's", `a\nb`, `x"y`}}, nil},
	{"empty quoted", `SET k "" ''` + "\n", cmds{{"SET", "k", "", ""}}, nil},
	{"quote inside token", `foo"bar" a'b c'` + "\n", cmds{{"foobar", "ab c"}}, nil},
	{"closing quote then tab", "\"foo\"\tbar\n", cmds{{"foo", "bar"}}, nil},
	{"closing quote then vt", "\"foo\"\vbar\n", cmds{{"foo", "bar"}}, nil},
	{"closing quote at end crlf", "\"foo\"\r\n", cmds{{"foo"}}, nil},
	{"closing quote then cr lf stays", "\"foo\"\r\r\n", cmds{{"foo"}}, nil},
	{"quoted newline escape keeps line", `"a\nb"` + "\r\n", cmds{{"a\nb"}}, nil},
	{"unbalanced closing followed", `"foo"bar` + "\n", nil, ErrUnbalancedQuotes},
	{"unbalanced single followed", `'foo'bar` + "\n", nil, ErrUnbalancedQuotes},
	{"unterminated double", `SET k "foo` + "\r\n", nil, ErrUnbalancedQuotes},
	{"unterminated single", "'foo\n", nil, ErrUnbalancedQuotes},
	{"escaped closing quote", `"a\"` + "\n", nil, ErrUnbalancedQuotes},
	{"backslash at end", `"abc\` + "\n", nil, ErrUnbalancedQuotes},
	{"commands before unbalanced", "PING\r\n\"x\r\nPING\r\n", cmds{{"PING"}}, ErrUnbalancedQuotes},

	// Multibulk.
	{"ping", "*1\r\n$4\r\nPING\r\n", cmds{{"PING"}}, nil},
	{"set", "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n", cmds{{"SET", "key", "value"}}, nil},
	{"binary and empty args", "*3\r\n$3\r\nSET\r\n$4\r\n\r\n\x00\n\r\n$0\r\n\r\n", cmds{{"SET", "\r\n\x00\n", ""}}, nil},
	{"star zero", "*0\r\n", nil, nil},
	{"star minus one", "*-1\r\n", nil, nil},
	{"star minus ten", "*-10\r\n*1\r\n$4\r\nPING\r\n", cmds{{"PING"}}, nil},
	{"min int64 count", "*-9223372036854775808\r\n", nil, nil},
	{"max count waits", "*2147483647\r\n", nil, nil},
	{"out of range for 1mb but not int", "*20000000\r\n", nil, nil},
	{"mixed with inline", "*1\r\n$4\r\nPING\r\nPING\r\n*0\r\n\r\n", cmds{{"PING"}, {"PING"}}, nil},
	{"trailing bytes unchecked", "*1\r\n$4\r\nPINGxy*1\r\n$1\r\na\r\n", cmds{{"PING"}, {"a"}}, nil},
	{"byte after count cr unchecked", "*1\rX$4\r\nPING\r\n", cmds{{"PING"}}, nil},
	{"byte after bulk cr unchecked", "*1\r\n$4\rXPING\r\n", cmds{{"PING"}}, nil},
	{"count cr last byte waits", "*1\r", nil, nil},
	{"incomplete bulk", "*2\r\n$3\r\nGET\r\n$3\r\nke", nil, nil},
	{"count not a number", "*abc\r\n", nil, ErrInvalidMultibulkLength},
	{"count empty", "*\r\n", nil, ErrInvalidMultibulkLength},
	{"count leading zero", "*01\r\n", nil, ErrInvalidMultibulkLength},
	{"count plus", "*+1\r\n", nil, ErrInvalidMultibulkLength},
	{"count space", "* 1\r\n", nil, ErrInvalidMultibulkLength},
	{"count minus zero", "*-0\r\n", nil, ErrInvalidMultibulkLength},
	{"count above int max", "*2147483648\r\n", nil, ErrInvalidMultibulkLength},
	{"count overflow", "*99999999999999999999\r\n", nil, ErrInvalidMultibulkLength},
	{"count below int64", "*-9223372036854775809\r\n", nil, ErrInvalidMultibulkLength},
	{"count lf only reaches next cr", "*1\n$4\r\nPING\r\n", nil, ErrInvalidMultibulkLength},
	{"expected dollar", "*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n", nil, expectedDollar['f']},
	{"expected dollar got cr", "*1\r\n\r\n", nil, expectedDollar['\r']},
	{"expected dollar got lf", "*1\r\n\n\r\n", nil, expectedDollar['\n']},
	{"expected dollar got star", "*1\r\n*1\r\n", nil, expectedDollar['*']},
	{"bulk negative", "*1\r\n$-1\r\n", nil, ErrInvalidBulkLength},
	{"bulk not a number", "*1\r\n$abc\r\n", nil, ErrInvalidBulkLength},
	{"bulk empty", "*1\r\n$\r\n", nil, ErrInvalidBulkLength},
	{"bulk leading zero", "*1\r\n$01\r\n", nil, ErrInvalidBulkLength},
	{"bulk above proto-max-bulk-len", "*1\r\n$536870913\r\n", nil, ErrInvalidBulkLength},
	{"commands before error", "*1\r\n$4\r\nPING\r\nGET a\r\n*1\r\nX\r\n", cmds{{"PING"}, {"GET", "a"}}, expectedDollar['X']},
	{"no command after error", "*1\r\n$x\r\n*1\r\n$4\r\nPING\r\n", nil, ErrInvalidBulkLength},

	// A NUL before the terminator: Redis's strchr never sees the end of the line.
	{"nul in inline", "GET a\x00b\r\nPING\r\n", nil, nil},
	{"nul in count", "*1\x00\r\n$4\r\nPING\r\n", nil, nil},
	{"nul in bulk header", "*1\r\n$4\x00\r\nPING\r\n", nil, nil},
	{"nul first", "\x00PING\r\n", nil, nil},
	{"nul after the line is fine", "PING\r\n\x00", cmds{{"PING"}}, nil},

	// The 64 KiB line limits: more than InlineMaxSize unparsed bytes and no terminator.
	{"inline at the limit waits", strings.Repeat("a", InlineMaxSize), nil, nil},
	{"too big inline", strings.Repeat("a", InlineMaxSize+1), nil, ErrTooBigInlineRequest},
	{"count at the limit waits", "*" + strings.Repeat("1", InlineMaxSize-1), nil, nil},
	{"too big mbulk count", "*" + strings.Repeat("1", InlineMaxSize), nil, ErrTooBigMbulkCountString},
	{"bulk line at the limit waits", "*1\r\n$" + strings.Repeat("1", InlineMaxSize-1), nil, nil},
	{"too big bulk count", "*1\r\n$" + strings.Repeat("1", InlineMaxSize), nil, ErrTooBigBulkCountString},
	{"too big bulk count before dollar check", "*1\r\n" + strings.Repeat("x", InlineMaxSize+1), nil, ErrTooBigBulkCountString},
	{"too big inline with nul", "a\x00" + strings.Repeat("\n", InlineMaxSize), nil, ErrTooBigInlineRequest},
	{"too big count with nul", "*\x00" + strings.Repeat("\r\n", InlineMaxSize/2), nil, ErrTooBigMbulkCountString},
}

// TestParseCases runs every case whole, one byte at a time, and cut in two at every position:
// all must give the expected commands and error, and agree with the Redis model.
func TestParseCases(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			splits := [][][]byte{{in}}
			step := 1
			if len(in) > 1000 {
				step = len(in) / 50 // and no byte-at-a-time: the model rescans, so that is quadratic
			} else {
				splits = append(splits, bytesOf(in))
			}
			for i := 1; i < len(in); i += step {
				splits = append(splits, [][]byte{in[:i], in[i:]})
			}
			for k, ps := range splits {
				got, err := parseAll(t, DefaultLimits(), 0, ps)
				if !slices.EqualFunc(got, tc.want, slices.Equal) {
					t.Fatalf("split %d: commands %q, want %q", k, got, tc.want)
				}
				if err != tc.err {
					t.Fatalf("split %d: error %v, want %v", k, err, tc.err)
				}
				m := newRedisModel(DefaultMaxBulkLen)
				for _, piece := range ps {
					m.read(piece)
				}
				want := ""
				if tc.err != nil {
					want = tc.err.Error()
				}
				if m.err != want || !slices.EqualFunc(m.cmds, tc.want, slices.Equal) {
					t.Fatalf("split %d: the model says %q %q", k, m.cmds, m.err)
				}
			}
		})
	}
}

func bytesOf(b []byte) [][]byte {
	out := make([][]byte, len(b))
	for i := range b {
		out[i] = b[i : i+1]
	}
	return out
}

func TestErrorTexts(t *testing.T) {
	for _, tc := range []struct {
		err  error
		text string
	}{
		{ErrTooBigInlineRequest, "Protocol error: too big inline request"},
		{ErrTooBigMbulkCountString, "Protocol error: too big mbulk count string"},
		{ErrInvalidMultibulkLength, "Protocol error: invalid multibulk length"},
		{ErrTooBigBulkCountString, "Protocol error: too big bulk count string"},
		{ErrInvalidBulkLength, "Protocol error: invalid bulk length"},
		{ErrUnbalancedQuotes, "Protocol error: unbalanced quotes in request"},
		{ExpectedDollarError('f'), "Protocol error: expected '$', got 'f'"},
		{ExpectedDollarError('\r'), "Protocol error: expected '$', got ' '"},
		{ExpectedDollarError('\n'), "Protocol error: expected '$', got ' '"},
		{ExpectedDollarError(0xff), "Protocol error: expected '$', got '\xff'"},
	} {
		if tc.err.Error() != tc.text {
			t.Errorf("%q, want %q", tc.err.Error(), tc.text)
		}
		var pe *ProtocolError
		if !errors.As(tc.err, &pe) {
			t.Errorf("%q is not a *ProtocolError", tc.err)
		}
	}
	if a, b := ExpectedDollarError('x'), ExpectedDollarError('x'); a != b {
		t.Error("ExpectedDollarError allocates a new value per call")
	}
	var pe *ProtocolError
	if errors.As(ErrQueryBufLimit, &pe) {
		t.Error("ErrQueryBufLimit must not be a ProtocolError: it gets no reply")
	}
}

// An inline line longer than 64 KiB is accepted when its newline comes in the same read, and
// refused when more than 64 KiB of it arrive first: the check runs only without a newline.
func TestLongLineDependsOnReads(t *testing.T) {
	long := "SET k " + strings.Repeat("v", InlineMaxSize) + "\r\n"
	got, err := parseAll(t, DefaultLimits(), 0, [][]byte{[]byte(long)})
	if err != nil || len(got) != 1 || len(got[0][2]) != InlineMaxSize {
		t.Fatalf("whole: %v, %d commands", err, len(got))
	}
	_, err = parseAll(t, DefaultLimits(), 0, [][]byte{[]byte(long[:InlineMaxSize+1]), []byte(long[InlineMaxSize+1:])})
	if err != ErrTooBigInlineRequest {
		t.Fatalf("in two reads: %v", err)
	}
	// A count line whose CR arrived last waits for one more byte whatever its length.
	count := "*" + strings.Repeat("1", 2*InlineMaxSize) + "\r"
	p := NewParser(DefaultLimits())
	if n, err := p.Parse([]byte(count)); n != 0 || err != nil {
		t.Fatalf("count line ending in CR: %d, %v", n, err)
	}
	if _, err := p.Parse([]byte(count + "\n")); err != ErrInvalidMultibulkLength {
		t.Fatalf("count line completed: %v", err)
	}
}

func TestMaxBulkLen(t *testing.T) {
	lim := Limits{MaxBulkLen: 100}
	if _, err := parseAll(t, lim, 0, [][]byte{[]byte("*1\r\n$100\r\n")}); err != nil {
		t.Fatalf("$100 with proto-max-bulk-len 100: %v", err)
	}
	if _, err := parseAll(t, lim, 0, [][]byte{[]byte("*1\r\n$101\r\n")}); err != ErrInvalidBulkLength {
		t.Fatalf("$101 with proto-max-bulk-len 100: %v", err)
	}
	p := NewParser(Limits{})
	p.SetLimits(lim)
	if _, err := p.Parse([]byte("*1\r\n$101\r\n")); err != ErrInvalidBulkLength {
		t.Fatalf("after SetLimits: %v", err)
	}
}

func TestConsumedKeepsOnlyTheIncompleteLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"PING\r\nPIN", 6},
		{"*2\r\n$3\r\nGET\r\n$3\r\nke", 19},    // the bulk's received part is consumed
		{"*2\r\n$3\r\nGET\r\n$3", 13},          // an incomplete "$3" is not
		{"*2\r\n$3\r\nGET\r\n$3\r", 13},        // nor one waiting for the byte after its CR
		{"*2\r\n$3\r\nGET\r\n$3\r\nkey\r", 21}, // the two bytes after a bulk are consumed
		{"*2\r", 0},
		{"*1\r\n$1\r\na\r\n*0\r\n\r\n", 17},
		{"GET a\x00\r\n", 0},
	} {
		p := NewParser(DefaultLimits())
		n, err := p.Parse([]byte(tc.in))
		if n != tc.want || err != nil {
			t.Errorf("%q: consumed %d, %v; want %d", tc.in, n, err, tc.want)
		}
	}
}

// The search for a line's end resumes where it stopped: presenting the same pending bytes again
// does not search them again (the NUL case shows it — it stays stuck without seeing the NUL).
func TestLineSearchResumes(t *testing.T) {
	p := NewParser(DefaultLimits())
	p.Parse([]byte("*1\r\n$12345"))
	if p.scanned != 6 {
		t.Fatalf("scanned %d after \"$12345\"", p.scanned)
	}
	n, err := p.Parse([]byte("$123456\r\nabcdef"))
	if n != 15 || err != nil || p.bulkLen != 123456 || p.bulkGot != 6 {
		t.Fatalf("resumed: %d %v bulkLen %d", n, err, p.bulkLen)
	}
	p.Reset()
	p.Parse([]byte("GET a\x00b"))
	if !p.stuck {
		t.Fatal("a NUL did not stop the inline line")
	}
	if n, err := p.Parse([]byte("GET a\x00b\r\n")); n != 0 || err != nil {
		t.Fatalf("stuck line: %d, %v", n, err)
	}
}

func TestStickyErrorAndReset(t *testing.T) {
	p := NewParser(DefaultLimits())
	if _, err := p.Parse([]byte("*x\r\n")); err != ErrInvalidMultibulkLength {
		t.Fatal(err)
	}
	if n, err := p.Parse([]byte("PING\r\n")); n != 0 || err != ErrInvalidMultibulkLength {
		t.Fatalf("after an error: %d, %v", n, err)
	}
	p.Reset()
	if n, err := p.Parse([]byte("PING\r\n")); n != 6 || err != nil || p.NumCommands() != 1 {
		t.Fatalf("after Reset: %d, %v, %d commands", n, err, p.NumCommands())
	}
}

func TestString2ll(t *testing.T) {
	for _, s := range []string{
		"0", "1", "-1", "9", "10", "123", "-123", "9223372036854775807", "-9223372036854775808",
		"", "-", "+1", "01", "-0", "00", " 1", "1 ", "1a", "9223372036854775808",
		"-9223372036854775809", "18446744073709551615", "18446744073709551616",
		"99999999999999999999", "123456789012345678901", "0x10", "1e3", "--1",
	} {
		v, ok := conv.String2ll([]byte(s))
		rv, rok := refString2ll([]byte(s))
		if ok != rok || ok && v != rv {
			t.Errorf("string2ll(%q) = %d, %v; want %d, %v", s, v, ok, rv, rok)
		}
	}
}

// TestModelRandom compares the parser with the Redis model on generated inputs, valid and not,
// cut into random pieces: the deterministic counterpart of FuzzParse.
func TestModelRandom(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := range n {
		seed := uint64(i)
		in := randomRequest(seed)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for k := range uint64(4) {
				checkModel(t, in, seed*7+k)
			}
		})
	}
}

func TestAppendCommand(t *testing.T) {
	src := NewParser(DefaultLimits())
	if _, err := src.Parse([]byte("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nvalue\r\nGET k\r\n")); err != nil {
		t.Fatal(err)
	}
	store := NewParser(DefaultLimits())
	a := store.AppendCommand(src.Command(0))
	b := store.AppendCommand(src.Command(1))
	src.Reset() // the copies do not depend on the source any more
	if a.Len() != 3 || string(a.Arg(0)) != "SET" || string(a.Arg(1)) != "k" || string(a.Arg(2)) != "value" {
		t.Fatalf("first copy: %d args", a.Len())
	}
	if b.Len() != 2 || string(b.Arg(0)) != "GET" || string(b.Arg(1)) != "k" || b.LenSum() != 4 {
		t.Fatalf("second copy: %d args, LenSum %d", b.Len(), b.LenSum())
	}
	if store.NumCommands() != 2 {
		t.Fatalf("NumCommands = %d", store.NumCommands())
	}
	store.ResetCommands()
	if store.NumCommands() != 0 {
		t.Fatal("ResetCommands kept commands")
	}
}

// Flatten and AppendFlat round-trip a command line, empty arguments and a big one included.
func TestFlattenAppendFlat(t *testing.T) {
	src := NewParser(DefaultLimits())
	big := strings.Repeat("x", BigArgThreshold+10)
	line := "*4\r\n$5\r\nBLPOP\r\n$0\r\n\r\n$" + strconv.Itoa(len(big)) + "\r\n" + big + "\r\n$1\r\n0\r\n"
	if _, err := src.Parse([]byte(line)); err != nil {
		t.Fatal(err)
	}
	flat, ends := Flatten(src.Command(0), nil, nil)
	src.Reset()
	p := NewParser(DefaultLimits())
	a := p.AppendFlat(flat, ends)
	want := []string{"BLPOP", "", big, "0"}
	if a.Len() != len(want) {
		t.Fatalf("%d args, want %d", a.Len(), len(want))
	}
	for i, w := range want {
		if string(a.Arg(i)) != w {
			t.Fatalf("arg %d = %.20q, want %.20q", i, a.Arg(i), w)
		}
	}
	if a.LenSum() != len(flat) {
		t.Fatalf("LenSum %d, want %d", a.LenSum(), len(flat))
	}
}
