package listpack

import (
	"encoding/binary"
	"errors"
)

// ErrCorrupt is returned by Validate for bytes that are not a well-formed listpack.
var ErrCorrupt = errors.New("listpack: corrupt")

// Validate checks untrusted bytes (a RESTORE payload, an RDB file) before any other function
// of this package reads them — lpValidateIntegrity. It never panics and never reads outside lp.
// The shallow check (deep false) looks at the header and the terminator only: enough for the
// reading functions to stay within lp only if the entries are also sound, so loaders use deep.
// Deep checks walk every entry: a valid encoding byte, encoding and data inside the listpack, a
// back-length that says the entry's size, the terminator right after the last entry, and the
// header's count (unless NumUnknown). fn, if not nil, is called with each entry's offset once
// that entry is checked (the caller's own checks: pairs, duplicates); returning false stops
// with ErrCorrupt.
func Validate(lp []byte, deep bool, fn func(p int) bool) error {
	if len(lp) < EmptySize || int64(binary.LittleEndian.Uint32(lp)) != int64(len(lp)) || lp[len(lp)-1] != EOF {
		return ErrCorrupt
	}
	if !deep {
		return nil
	}
	end := len(lp) - 1 // the EOF byte
	count := 0
	p := HeaderSize
	for p < end {
		n, ok := validEntry(lp[:end], p)
		if !ok {
			return ErrCorrupt
		}
		if fn != nil && !fn(p) {
			return ErrCorrupt
		}
		p += n
		count++
	}
	if p != end {
		return ErrCorrupt
	}
	if h := headerCount(lp); h != NumUnknown && h != count {
		return ErrCorrupt
	}
	return nil
}

// validEntry checks the entry at p, which must end within body (the listpack without its
// terminator), and returns its whole size — lpValidateNext.
func validEntry(body []byte, p int) (int, bool) {
	hdr, data, ok := encodingSize(body[p], body[p+1:])
	if !ok {
		return 0, false
	}
	l := uint64(hdr) + uint64(data)
	bl := backlenSize(l)
	size := l + uint64(bl)
	if size > uint64(len(body)-p) {
		return 0, false
	}
	last := p + int(size) - 1
	v, n, ok := decodeBacklen(body, last)
	if !ok || n != bl || v != l {
		return 0, false
	}
	return int(size), true
}

// ValidateDups is Validate (deep) plus what loaders of a hash or set check —
// lpValidateIntegrityAndDups: with pairs, an even count and no field twice (values may repeat);
// without, no entry twice. It keeps a temporary Go map of what it has seen: a load-time cost, as
// Redis's temporary dict.
func ValidateDups(lp []byte, pairs bool) error {
	seen := make(map[string]struct{})
	i := 0
	var buf []byte
	err := Validate(lp, true, func(p int) bool {
		defer func() { i++ }()
		if pairs && i%2 == 1 {
			return true
		}
		buf = AppendValue(buf[:0], lp, p)
		if _, dup := seen[string(buf)]; dup {
			return false
		}
		seen[string(buf)] = struct{}{}
		return true
	})
	if err != nil {
		return err
	}
	if pairs && i%2 != 0 {
		return ErrCorrupt
	}
	return nil
}
