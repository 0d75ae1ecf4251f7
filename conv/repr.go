package conv

// AppendRepr appends s to dst as Redis's sdscatrepr writes it: in double quotes, with \\ \"
// \n \r \t \a \b escaped, other printable ASCII (isprint: 0x20–0x7e) as it is, and every
// other byte as \xHH (lower-case hex). SplitArgs reads the result back as s.
func AppendRepr[T Text](dst []byte, s T) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '"':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\a':
			dst = append(dst, '\\', 'a')
		case '\b':
			dst = append(dst, '\\', 'b')
		default:
			if c >= 0x20 && c < 0x7f {
				dst = append(dst, c)
			} else {
				dst = append(dst, '\\', 'x', hex[c>>4], hex[c&0xf])
			}
		}
	}
	return append(dst, '"')
}

// Repr is AppendRepr as a string: sdscatrepr of an empty sds.
func Repr[T Text](s T) string { return string(AppendRepr(nil, s)) }
