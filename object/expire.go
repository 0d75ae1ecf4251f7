package object

import (
	"encoding/binary"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/sds"
)

// Expire returns the record's expire time (unix ms) and whether it has one.
func Expire(a *alloc.Arena, h alloc.Handle) (int64, bool) {
	b := a.Bytes(h, headerSize+expireSize)
	if b[1]&flagExpireSet == 0 {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(b[headerSize:])), true
}

// SetExpire sets the record's expire time. With an expire slot the record is changed in place;
// otherwise it is rebuilt with one (an embedded value that no longer fits moves to a raw sds)
// and the new handle is returned.
func SetExpire(a *alloc.Arena, h alloc.Handle, ms int64) (alloc.Handle, error) {
	b := a.Bytes(h, headerSize+expireSize)
	if b[1]&flagExpireSlot != 0 {
		binary.LittleEndian.PutUint64(b[headerSize:], uint64(ms))
		b[1] |= flagExpireSet
		return h, nil
	}
	r := open(a, h)
	p := r.parts()
	p.hasExp, p.expire = true, ms
	if p.enc == EncEmbstr && !Embeds(len(p.key), len(p.val), true, WriteSet) {
		s := sds.New(a, p.val)
		if s.IsNil() {
			return h, ErrOOM
		}
		p.enc, p.raw, p.val = EncRaw, s.Handle(), nil
		nh, err := rebuild(a, h, r, p)
		if err != nil {
			s.Free(a)
		}
		return nh, err
	}
	return rebuild(a, h, r, p)
}

// ClearExpire removes the record's expire (PERSIST). The slot stays, so the record never moves.
func ClearExpire(a *alloc.Arena, h alloc.Handle) {
	a.Bytes(h, 2)[1] &^= flagExpireSet
}
