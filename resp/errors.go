package resp

// Error is the one funnel for error replies: every -ERR, -WRONGTYPE… on the wire is written
// here. It follows Redis 7.2's addReplyErrorFormat and addReplyErrorLength (networking.c):
//
//   - CR and LF at either end of msg are trimmed (sdstrim(s, "\r\n")), and every other CR or
//     LF becomes a space (sdsmapchars), so an error can never break the protocol;
//   - if msg then starts with '-', the caller gave the code: the text is written as it is
//     ("-NOGROUP No such key…" → -NOGROUP No such key…), as Redis does;
//   - else if its first word is a Redis error code (see IsErrorCode: ERR, WRONGTYPE, NOAUTH,
//     WRONGPASS, NOSCRIPT, BUSYKEY, EXECABORT, NOPROTO, OOM, LOADING, …) it is the code;
//   - else "ERR " is put in front: Error("syntax error") writes -ERR syntax error.
//
// The code must come from the list, not from the case of the word: Redis's own messages
// "EXEC without MULTI", "DB index is out of range" and "MULTI calls can not be nested" are
// -ERR errors. Use ErrorPrefix, or a leading '-', for a code not in the list.
//
// Errors are the same in RESP2 and RESP3.
func (w *Writer) Error(msg string) {
	msg = trimCRLF(msg)
	w.buf = append(w.buf, '-')
	if len(msg) > 0 && msg[0] == '-' {
		msg = msg[1:]
	} else if !hasCode(msg) {
		w.buf = append(w.buf, "ERR "...)
	}
	w.buf = appendClean(w.buf, msg)
	w.buf = append(w.buf, '\r', '\n')
}

// ErrorPrefix writes the error -code msg, with the code given apart: ErrorPrefix("NOGROUP",
// "No such key") writes -NOGROUP No such key. CR and LF in msg are handled as in Error; code
// is written as given (without a leading '-').
func (w *Writer) ErrorPrefix(code, msg string) {
	w.buf = append(w.buf, '-')
	w.buf = appendClean(w.buf, code)
	w.buf = append(w.buf, ' ')
	w.buf = appendClean(w.buf, trimCRLF(msg))
	w.buf = append(w.buf, '\r', '\n')
}

// ErrorCode returns the code that Error(msg) writes, for the errorstats counters
// (errorstat_ERR, errorstat_WRONGTYPE…): the first word of a message that starts with '-' or
// with a known code, "ERR" otherwise. As Redis's afterErrorReply, a code is looked for in the
// first 32 bytes only, and a '-' message without a space there counts as "ERR". The result
// is a substring of msg or a constant: it does not allocate.
func ErrorCode(msg string) string {
	msg = trimCRLF(msg)
	if len(msg) > 0 && msg[0] == '-' {
		limit := min(len(msg), 32)
		for i := 1; i < limit; i++ {
			if msg[i] == ' ' {
				return msg[1:i]
			}
		}
		return "ERR"
	}
	if hasCode(msg) {
		return firstWord(msg)
	}
	return "ERR"
}

// IsErrorCode reports whether word is one of the error codes Redis 7.2 sends (the words after
// '-' in its replies): Error treats a message starting with one of them as carrying its code.
func IsErrorCode(word string) bool {
	switch word {
	case "ERR", "WRONGTYPE", "NOAUTH", "WRONGPASS", "NOPERM", "NOSCRIPT", "BUSYKEY",
		"EXECABORT", "NOPROTO", "OOM", "LOADING", "BUSY", "NOTBUSY", "UNKILLABLE",
		"MASTERDOWN", "MISCONF", "READONLY", "NOREPLICAS", "NOGROUP", "BUSYGROUP",
		"UNBLOCKED", "DENIED", "MOVED", "ASK", "TRYAGAIN", "CROSSSLOT", "CLUSTERDOWN":
		return true
	}
	return false
}

// hasCode reports whether msg starts with a known error code followed by a space or the end.
func hasCode(msg string) bool { return IsErrorCode(firstWord(msg)) }

// firstWord returns msg up to its first space.
func firstWord(msg string) string {
	for i := 0; i < len(msg); i++ {
		if msg[i] == ' ' {
			return msg[:i]
		}
	}
	return msg
}

// trimCRLF removes CR and LF bytes from both ends of s, as sdstrim(s, "\r\n").
func trimCRLF(s string) string {
	for len(s) > 0 && (s[0] == '\r' || s[0] == '\n') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == '\r' || s[len(s)-1] == '\n') {
		s = s[:len(s)-1]
	}
	return s
}
