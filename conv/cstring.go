package conv

// CString is arg as C's %s prints it, up to its first NUL byte: how Redis's error texts and
// log lines quote an argument ("Unsupported option %s", DEBUG LOG).
func CString(arg []byte) string {
	for i, ch := range arg {
		if ch == 0 {
			return string(arg[:i])
		}
	}
	return string(arg)
}
