package tests

import (
	"bufio"
	"reflect"
	"strings"
	"testing"
)

// TestFormatReply checks the reply reader and the redis-cli formatting on replies written by
// hand, whatever the server (TestCommandsViaRedisCLI compares with redis-cli itself).
func TestFormatReply(t *testing.T) {
	elevenItems := "*11\r\n" + strings.Repeat(":1\r\n", 10) + "*2\r\n$1\r\na\r\n*0\r\n"
	for _, tc := range []struct {
		resp, want, types string
	}{
		{"+OK\r\n", "OK\n", "(string)\n"},
		{"-ERR bad thing\r\n", "(error) ERR bad thing\n", "(error) ERR bad thing\n"},
		{":-42\r\n", "(integer) -42\n", "(integer)\n"},
		{"$-1\r\n", "(nil)\n", "(nil)\n"},
		{"*-1\r\n", "(nil)\n", "(nil)\n"},
		{"_\r\n", "(nil)\n", "(nil)\n"},
		{"$0\r\n\r\n", "\"\"\n", "(string)\n"},
		{"$8\r\na\"\\\n\r\t\x00\xff\r\n", `"a\"\\\n\r\t\x00\xff"` + "\n", "(string)\n"},
		{",1.5\r\n", "(double) 1.5\n", "(double)\n"},
		{"#t\r\n", "(true)\n", "(boolean)\n"},
		{"=7\r\ntxt:a b\r\n", "a b\n", "(string)\n"},
		{"*0\r\n", "(empty array)\n", "(empty array)\n"},
		{"%0\r\n", "(empty hash)\n", "(empty hash)\n"},
		{"~0\r\n", "(empty set)\n", "(empty set)\n"},
		{"*2\r\n$1\r\na\r\n:2\r\n", "1) \"a\"\n2) (integer) 2\n", "1) (string)\n2) (integer)\n"},
		{"*2\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n*1\r\n$1\r\nc\r\n",
			"1) 1) \"a\"\n   2) \"b\"\n2) 1) \"c\"\n", "1) 1) (string)\n   2) (string)\n2) 1) (string)\n"},
		{elevenItems,
			" 1) (integer) 1\n" + " 2) (integer) 1\n" + " 3) (integer) 1\n" + " 4) (integer) 1\n" + " 5) (integer) 1\n" +
				" 6) (integer) 1\n" + " 7) (integer) 1\n" + " 8) (integer) 1\n" + " 9) (integer) 1\n" + "10) (integer) 1\n" +
				"11) 1) \"a\"\n    2) (empty array)\n", ""},
		{"%2\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n*2\r\n$1\r\nx\r\n$1\r\ny\r\n",
			"1# \"a\" => (integer) 1\n2# \"b\" => \n   1) \"x\"\n   2) \"y\"\n",
			"1# \"a\" => (integer)\n2# \"b\" => \n   1) (string)\n   2) (string)\n"},
		{"%1\r\n$1\r\na\r\n%1\r\n$1\r\nb\r\n:1\r\n", "1# \"a\" => 1# \"b\" => (integer) 1\n", ""},
		{"~2\r\n$1\r\na\r\n$1\r\nb\r\n", "1~ \"a\"\n2~ \"b\"\n", ""},
		{"|1\r\n$3\r\nkey\r\n$3\r\nval\r\n:5\r\n", "(integer) 5\n", ""},
	} {
		r, err := readReply(bufio.NewReader(strings.NewReader(tc.resp)))
		if err != nil {
			t.Errorf("%q: %v", tc.resp, err)
			continue
		}
		if got := formatReply(r, false); got != tc.want {
			t.Errorf("%q:\ngot  %q\nwant %q", tc.resp, got, tc.want)
		}
		if tc.types == "" {
			continue
		}
		if got := formatReply(r, true); got != tc.types {
			t.Errorf("%q (types):\ngot  %q\nwant %q", tc.resp, got, tc.types)
		}
	}
	for _, bad := range []string{"?\r\n", ":x\r\n", "$3\r\nabcd\r\n", "+OK\n", "$-2\r\n"} {
		if _, err := readReply(bufio.NewReader(strings.NewReader(bad))); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"SET k v", []string{"SET", "k", "v"}},
		{"  a\t b  ", []string{"a", "b"}},
		{`SET "a b" 'c d'`, []string{"SET", "a b", "c d"}},
		{`ECHO "\x41\x4a\n\r\t\b\a\"\\\q"`, []string{"ECHO", "AJ\n\r\t\b\a\"\\q"}},
		{`ECHO "\x4"`, []string{"ECHO", "x4"}},
		{`ECHO 'it\'s \n'`, []string{"ECHO", `it's \n`}},
		{`ECHO ""`, []string{"ECHO", ""}},
		{`a"b c"`, []string{"ab c"}},
		{"", nil},
	} {
		got, err := splitArgs(tc.line)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitArgs(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
	for _, bad := range []string{`"abc`, `'abc`, `"a"b`, `'a'b`} {
		if got, err := splitArgs(bad); err == nil {
			t.Errorf("splitArgs(%q) = %q, want an error", bad, got)
		}
	}
}
