package resp

import "testing"

func TestError(t *testing.T) {
	tests := []struct {
		msg, want string
	}{
		// No code: "ERR " is added.
		{"syntax error", "-ERR syntax error\r\n"},
		{"wrong number of arguments for 'get' command", "-ERR wrong number of arguments for 'get' command\r\n"},
		{"Protocol error: invalid bulk length", "-ERR Protocol error: invalid bulk length\r\n"},
		{"", "-ERR \r\n"}, // addReplyErrorLength with len 0
		// Upper-case first words that are not codes: Redis's own -ERR messages.
		{"EXEC without MULTI", "-ERR EXEC without MULTI\r\n"},
		{"DB index is out of range", "-ERR DB index is out of range\r\n"},
		{"MULTI calls can not be nested", "-ERR MULTI calls can not be nested\r\n"},
		{"DISCARD without MULTI", "-ERR DISCARD without MULTI\r\n"},
		{"OOMX not a code", "-ERR OOMX not a code\r\n"},
		{"oom lower case is no code", "-ERR oom lower case is no code\r\n"},
		// A known code as the first word.
		{"ERR syntax error", "-ERR syntax error\r\n"},
		{"ERR", "-ERR\r\n"},
		{"WRONGTYPE Operation against a key holding the wrong kind of value", "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"},
		{"NOAUTH Authentication required.", "-NOAUTH Authentication required.\r\n"},
		{"WRONGPASS invalid username-password pair or user is disabled.", "-WRONGPASS invalid username-password pair or user is disabled.\r\n"},
		{"NOSCRIPT No matching script. Please use EVAL.", "-NOSCRIPT No matching script. Please use EVAL.\r\n"},
		{"BUSYKEY Target key name already exists.", "-BUSYKEY Target key name already exists.\r\n"},
		{"EXECABORT Transaction discarded because of previous errors.", "-EXECABORT Transaction discarded because of previous errors.\r\n"},
		{"NOPROTO sorry, this protocol version is not supported.", "-NOPROTO sorry, this protocol version is not supported.\r\n"},
		{"OOM command not allowed when used memory > 'maxmemory'.", "-OOM command not allowed when used memory > 'maxmemory'.\r\n"},
		{"LOADING Redis is loading the dataset in memory", "-LOADING Redis is loading the dataset in memory\r\n"},
		{"READONLY You can't write against a read only replica.", "-READONLY You can't write against a read only replica.\r\n"},
		// A leading '-': the caller's code, whatever it is (Redis's rule).
		{"-NOGROUP No such key 'k' or consumer group 'g'", "-NOGROUP No such key 'k' or consumer group 'g'\r\n"},
		{"-MYCODE anything", "-MYCODE anything\r\n"},
		{"-ERR already prefixed", "-ERR already prefixed\r\n"},
		{"-", "-\r\n"},
		// CR and LF: trimmed at both ends, spaces inside.
		{"bad\r\nthing", "-ERR bad  thing\r\n"},
		{"line1\nline2\r\n", "-ERR line1 line2\r\n"},
		{"\r\n\nbad\n", "-ERR bad\r\n"},
		{"WRONGTYPE x\r\n", "-WRONGTYPE x\r\n"},
		{"\n-NOGROUP x", "-NOGROUP x\r\n"},
		{"\r\n", "-ERR \r\n"},
		{"a\rb", "-ERR a b\r\n"},
	}
	for _, tt := range tests {
		runCases(t, []protoCase{same("Error("+tt.msg+")", func(w *Writer) { w.Error(tt.msg) }, tt.want)})
	}
}

func TestErrorPrefix(t *testing.T) {
	runCases(t, []protoCase{
		same("NOGROUP", func(w *Writer) { w.ErrorPrefix("NOGROUP", "No such key") }, "-NOGROUP No such key\r\n"),
		same("trailing newline", func(w *Writer) { w.ErrorPrefix("BUSYGROUP", "Consumer Group name already exists\r\n") },
			"-BUSYGROUP Consumer Group name already exists\r\n"),
		same("inner newline", func(w *Writer) { w.ErrorPrefix("ERR", "a\nb") }, "-ERR a b\r\n"),
	})
}

func TestErrorCode(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"syntax error", "ERR"},
		{"", "ERR"},
		{"ERR syntax error", "ERR"},
		{"WRONGTYPE Operation against a key", "WRONGTYPE"},
		{"OOM", "OOM"},
		{"EXEC without MULTI", "ERR"},
		{"-NOGROUP No such key", "NOGROUP"},
		{"-MYCODE x", "MYCODE"},
		{"\n-NOGROUP x", "NOGROUP"},
		{"-", "ERR"},
		{"-NOSPACE", "ERR"},
		{"-ABCDEFGHIJKLMNOPQRSTUVWXYZABCD x", "ABCDEFGHIJKLMNOPQRSTUVWXYZABCD"}, // space at byte 31
		{"-ABCDEFGHIJKLMNOPQRSTUVWXYZABCDE x", "ERR"},                           // space at byte 32: not looked at
	}
	for _, tt := range tests {
		if got := ErrorCode(tt.msg); got != tt.want {
			t.Errorf("ErrorCode(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

func TestIsErrorCode(t *testing.T) {
	for _, c := range []string{"ERR", "WRONGTYPE", "NOAUTH", "WRONGPASS", "NOSCRIPT", "BUSYKEY", "EXECABORT", "NOPROTO", "OOM", "LOADING"} {
		if !IsErrorCode(c) {
			t.Errorf("IsErrorCode(%q) = false", c)
		}
	}
	for _, c := range []string{"", "EXEC", "MULTI", "DB", "err", "OK", "ERR "} {
		if IsErrorCode(c) {
			t.Errorf("IsErrorCode(%q) = true", c)
		}
	}
}
