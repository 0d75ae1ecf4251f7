package server

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/keyspace"
	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/querybuf"
)

// clientBuffers is where the clients' private query buffers and big arguments go: the
// clients' arena, charged to them in used_memory, and the lock of its allocations.
func (s *Server) clientBuffers() querybuf.Buffers {
	return querybuf.NewBuffers(s.clientArena, &s.clientArenaMu)
}

// NewStringRecord is command.Records': the record of key with value val in shard sh (locked),
// made by adopting val's buffer when val is a big argument of the command being run, by copying
// otherwise. Counted in INFO as big_argument_adoptions and big_argument_copies. (alloc is
// imported for the record handle of command.Records' signature only.)
func (c *client) NewStringRecord(sh *keyspace.Shard, key, val []byte, expireAt int64) (alloc.Handle, error) {
	a := sh.Arena()
	if s, ok := c.srv.clientBuffers().Adopt(&c.parser, a, val); ok {
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
