package logging

import (
	"errors"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// Strerror is an error's text as C's strerror words it ("No such file or directory") when it
// carries an errno, so that kvserver's start-up errors read as Redis's; other errors are
// their own text.
func Strerror(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	s := errno.Error()
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
