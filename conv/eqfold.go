package conv

// EqFold reports whether arg equals lower, a lower-case ASCII token, in any case, without
// allocating: how Redis's option loops compare with strcasecmp (SET's "nx", GETEX's "persist").
func EqFold(arg []byte, lower string) bool {
	if len(arg) != len(lower) {
		return false
	}
	for i, ch := range arg {
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		if ch != lower[i] {
			return false
		}
	}
	return true
}
