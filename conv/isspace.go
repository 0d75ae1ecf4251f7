package conv

// IsSpace is C's isspace in the C locale: ' ', '\t', '\n', '\v', '\f' and '\r'. strtoll and
// strtold skip these; sdssplitargs separates arguments with them; string2ld and SCAN's cursor
// refuse a text that starts with one.
func IsSpace(ch byte) bool {
	return ch == ' ' || ch >= '\t' && ch <= '\r'
}
