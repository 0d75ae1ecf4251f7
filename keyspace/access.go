package keyspace

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/object"
)

// A record's 24-bit clock field means what Redis's robj.lru means under the maxmemory-policy in
// force: under an LRU (or any non-LFU) policy, the LRU clock (seconds, 24 bits) of the last
// access; under an LFU policy, the minutes of the last decrement in the high 16 bits and a
// logarithmic access counter in the low 8, which starts at LFUInitVal so that a new key is not
// evicted before it had a chance to be read. Like Redis, switching policy does not rewrite the
// keys' fields: each key's field changes meaning at its next access.

const (
	// LFUInitVal is Redis's LFU_INIT_VAL: a new key's counter.
	LFUInitVal = 5
	// lfuCounterMax is the 8-bit counter's ceiling.
	lfuCounterMax = 255
)

// accessPolicy is how accesses update the clock field: the LFU switch and its two knobs,
// written by the configuration (SetAccessPolicy), read on every access.
type accessPolicy struct {
	lfu       atomic.Bool
	logFactor atomic.Int64 // lfu-log-factor
	decayTime atomic.Int64 // lfu-decay-time, minutes
}

// SetAccessPolicy says whether maxmemory-policy is an LFU one, with lfu-log-factor and
// lfu-decay-time (minutes): from now on accesses update the records' clock fields accordingly.
func (k *Keyspace) SetAccessPolicy(lfu bool, logFactor, decayMinutes int64) {
	k.access.logFactor.Store(logFactor)
	k.access.decayTime.Store(decayMinutes)
	k.access.lfu.Store(lfu)
}

// LFU reports whether accesses keep LFU counters (an LFU maxmemory-policy).
func (k *Keyspace) LFU() bool { return k.access.lfu.Load() }

// touch records an access to record h: a new LRU clock, or an LFU counter decayed then
// incremented (Redis's updateLFU).
func (s *Shard) touch(h alloc.Handle) {
	k := s.ks
	if !k.access.lfu.Load() {
		object.SetLRU(s.arena, h, k.LRUClock())
		return
	}
	counter := k.LFUDecayed(object.LRU(s.arena, h))
	counter = lfuLogIncr(counter, k.access.logFactor.Load())
	object.SetLRU(s.arena, h, k.lfuMinutes()<<8|counter)
}

// stampNew sets a new record's clock field: now, or under LFU now with LFUInitVal (Redis's
// createObject).
func (s *Shard) stampNew(h alloc.Handle) {
	k := s.ks
	if k.access.lfu.Load() {
		object.SetLRU(s.arena, h, k.lfuMinutes()<<8|LFUInitVal)
		return
	}
	object.SetLRU(s.arena, h, k.LRUClock())
}

// lfuMinutes is Redis's LFUGetTimeInMinutes: unix minutes in 16 bits.
func (k *Keyspace) lfuMinutes() uint32 { return uint32(k.clock()/60000) & 0xffff }

// LFUDecayed is Redis's LFUDecrAndReturn for a record's clock field under LFU: its counter less
// one for every lfu-decay-time minutes since the field's minutes (the minutes wrap every 45
// days, as in Redis). OBJECT FREQ answers it.
func (k *Keyspace) LFUDecayed(field uint32) uint32 {
	last, counter := field>>8, field&0xff
	now := k.lfuMinutes()
	elapsed := now - last
	if now < last {
		elapsed = 0xffff - last + now
	}
	if decay := uint32(k.access.decayTime.Load()); decay > 0 {
		if periods := elapsed / decay; periods > 0 {
			if periods >= counter {
				return 0
			}
			return counter - periods
		}
	}
	return counter
}

// lfuLogIncr is Redis's LFULogIncr: the counter grows by one with probability
// 1/((counter-LFUInitVal)·logFactor + 1), so that it takes about a million accesses to reach
// 255 with the default factor 10.
func lfuLogIncr(counter uint32, logFactor int64) uint32 {
	if counter >= lfuCounterMax {
		return lfuCounterMax
	}
	base := max(int64(counter)-LFUInitVal, 0)
	if rand.Float64() < 1/float64(base*logFactor+1) {
		counter++
	}
	return counter
}

// SetAccessLocked sets record h's clock field as RESTORE's IDLETIME and FREQ ask (Redis's
// objectSetLRUOrLFU): under an LFU policy the counter freq (0-255) when freq ≥ 0, else the
// LRU clock idleSecs seconds ago when idleSecs ≥ 0. It reports whether it set anything.
func (s *Shard) SetAccessLocked(h alloc.Handle, idleSecs, freq int64) bool {
	k := s.ks
	if k.access.lfu.Load() {
		if freq < 0 {
			return false
		}
		object.SetLRU(s.arena, h, k.lfuMinutes()<<8|uint32(min(freq, lfuCounterMax)))
		return true
	}
	if idleSecs < 0 {
		return false
	}
	now := int64(k.LRUClock())
	at := now - idleSecs
	if at < 0 { // older than the clock can tell: half its range ago, as Redis
		at = (now + lruClockMax/2) % lruClockMax
	}
	object.SetLRU(s.arena, h, uint32(at))
	return true
}
