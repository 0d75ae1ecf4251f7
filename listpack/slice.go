package listpack

import "encoding/binary"

// A listpack in a Go byte slice rather than an arena: what RDB loading builds when it converts
// an older encoding (a ziplist hash) before the value has a home, then copies with FromBytes.

// NewSlice returns an empty listpack in a new byte slice with room for capHint bytes.
func NewSlice(capHint int) []byte {
	lp := make([]byte, EmptySize, max(capHint, EmptySize))
	binary.LittleEndian.PutUint32(lp, EmptySize)
	lp[HeaderSize] = EOF
	return lp
}

// AppendSlice adds s at the end of lp (a listpack NewSlice made or AppendSlice returned), as
// Append does: an integer when StringToInt64 accepts it, else a string. It returns the
// listpack, which may have moved, or ErrTooBig when its total would not fit the header.
func AppendSlice(lp, s []byte) ([]byte, error) {
	var e entry
	e.encode(s)
	n := len(lp) + e.size()
	if uint64(n) > maxBytes {
		return lp, ErrTooBig
	}
	lp = append(lp[:len(lp)-1], make([]byte, e.size()+1)...)
	e.put(lp[n-1-e.size():])
	lp[n-1] = EOF
	binary.LittleEndian.PutUint32(lp, uint32(n))
	if c := headerCount(lp); c != NumUnknown {
		binary.LittleEndian.PutUint16(lp[4:], uint16(c+1))
	}
	return lp, nil
}
