package conv

// EqFold reports whether arg equals tok with ASCII letters in any case, without allocating:
// how Redis compares a token with strcasecmp (SET's "nx", GETEX's "persist", a key spec's
// "STREAMS"). Bytes other than ASCII letters must be equal.
func EqFold(arg []byte, tok string) bool {
	if len(arg) != len(tok) {
		return false
	}
	for i, x := range arg {
		y := tok[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
