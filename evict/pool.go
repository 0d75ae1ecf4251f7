package evict

// poolSize is Redis's EVPOOL_SIZE: the best candidates kept between eviction rounds, so that
// each round's few samples refine one ranking instead of starting over.
const poolSize = 16

// poolKeyCap is Redis's EVPOOL_CACHED_SDS_SIZE: an entry keeps a buffer of this size for its key
// and allocates only for a longer one.
const poolKeyCap = 255

// candidate is a key that eviction may take: where it is and how idle it is (larger is
// evicted first: idle time for LRU, 255 minus the counter for LFU, the distance of its expire
// from the end of time for volatile-ttl).
type candidate struct {
	idle  uint64
	db    int
	shard int
	key   []byte
}

// pool is the candidates, most idle last, as Redis's evictionPoolEntry array.
type pool struct {
	n int
	e [poolSize]candidate
}

// offer inserts a sampled key where its idleness ranks it, unless the pool is full of more
// idle ones; when full, the least idle entry makes room. The key is copied.
func (p *pool) offer(idle uint64, db, shard int, key []byte) {
	// i: the first entry at least as idle as the new one.
	i := 0
	for i < p.n && p.e[i].idle < idle {
		i++
	}
	if p.n == poolSize {
		if i == 0 {
			return // less idle than every entry of a full pool
		}
		// Drop the least idle (entry 0), keeping its buffer for the new key.
		buf := p.e[0].key
		copy(p.e[:i-1], p.e[1:i])
		i--
		p.e[i] = candidate{idle: idle, db: db, shard: shard, key: append(buf[:0], key...)}
		return
	}
	buf := p.e[p.n].key // the spare entry's buffer
	copy(p.e[i+1:p.n+1], p.e[i:p.n])
	if cap(buf) == 0 {
		buf = make([]byte, 0, poolKeyCap)
	}
	p.e[i] = candidate{idle: idle, db: db, shard: shard, key: append(buf[:0], key...)}
	p.n++
}

// takeBest removes and returns the most idle candidate; its key stays valid until the next
// offer.
func (p *pool) takeBest() (candidate, bool) {
	if p.n == 0 {
		return candidate{}, false
	}
	p.n--
	return p.e[p.n], true
}

// contains reports whether the key of shard and db is in the pool already (a key sampled twice
// must not take two places).
func (p *pool) contains(db, shard int, key []byte) bool {
	for i := range p.n {
		if c := &p.e[i]; c.db == db && c.shard == shard && string(c.key) == string(key) {
			return true
		}
	}
	return false
}

// clear empties the pool (the policy changed: its ranking means something else now).
func (p *pool) clear() { p.n = 0 }
