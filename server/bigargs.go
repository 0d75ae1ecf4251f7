package server

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
	"github.com/kvserver/kvserver/sds"
)

// Big arguments (32 KiB or more) are read into buffers of their own from the clients' arena,
// laid out as an sds string: header room, then the bytes and the CRLF after them. When such a
// buffer holds exactly the value a command stores, the shard adopts it — the large object only
// changes owner — instead of copying it.

// bigArgBuffers implements querybuf.BigBuffers on the clients' arena.
type bigArgBuffers struct{ s *Server }

// bigArgLayout is the allocation size and header size of a big argument buffer of n bytes.
func bigArgLayout(n int) (allocSize, hdr int) {
	hdr = sds.HeaderSize(n)
	return hdr + n, hdr
}

func (b bigArgBuffers) Get(n int) ([]byte, uint32, bool) {
	size, hdr := bigArgLayout(n)
	s := b.s
	s.clientArenaMu.Lock()
	h := s.clientArena.Alloc(size)
	s.clientArenaMu.Unlock()
	if h == 0 || !h.IsLarge() {
		if h != 0 {
			b.Put(uint32(h), n)
		}
		return nil, 0, false
	}
	return s.clientArena.Bytes(h, size)[hdr:], uint32(h), true
}

func (b bigArgBuffers) Put(token uint32, n int) {
	size, _ := bigArgLayout(n)
	b.s.clientArenaMu.Lock()
	b.s.clientArena.Free(alloc.Handle(token), size)
	b.s.clientArenaMu.Unlock()
}

// NewStringRecord is command.Records': the record of key with value val in shard sh (locked),
// made by adopting val's buffer when val is a big argument of the command being run, by copying
// otherwise. Counted in INFO as big_argument_adoptions and big_argument_copies.
func (c *client) NewStringRecord(sh *keyspace.Shard, key, val []byte, expireAt int64) (alloc.Handle, error) {
	a := sh.Arena()
	if token, ok := c.parser.TakeBig(val); ok {
		h := alloc.Handle(token)
		size, hdr := bigArgLayout(len(val) + 2)
		c.srv.clientArenaMu.Lock()
		a.Adopt(c.srv.clientArena, h)
		c.srv.clientArenaMu.Unlock()
		s := sds.Adopt(a, h, size, hdr, len(val))
		rec, err := object.NewStringFromSds(a, key, s, expireAt)
		if err != nil {
			s.Free(a)
			return 0, err
		}
		c.srv.stats.bigArgAdoptions.Add(1)
		return rec, nil
	}
	if len(val) >= querybuf.BigArgThreshold {
		c.srv.stats.bigArgCopies.Add(1)
	}
	return object.NewString(a, key, val, expireAt, object.WriteSet)
}
