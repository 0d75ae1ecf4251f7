package evict

// Policy is maxmemory-policy: which keys eviction may take and how it ranks them.
type Policy uint8

// The policies, by Redis's names (ParsePolicy).
const (
	NoEviction Policy = iota
	AllKeysLRU
	AllKeysLFU
	AllKeysRandom
	VolatileLRU
	VolatileLFU
	VolatileRandom
	VolatileTTL
)

var policyNames = [...]string{
	NoEviction: "noeviction", AllKeysLRU: "allkeys-lru", AllKeysLFU: "allkeys-lfu",
	AllKeysRandom: "allkeys-random", VolatileLRU: "volatile-lru", VolatileLFU: "volatile-lfu",
	VolatileRandom: "volatile-random", VolatileTTL: "volatile-ttl",
}

// ParsePolicy returns the policy named name (lower case, as the configuration stores it).
func ParsePolicy(name string) (Policy, bool) {
	for p, n := range policyNames {
		if n == name {
			return Policy(p), true
		}
	}
	return NoEviction, false
}

func (p Policy) String() string { return policyNames[p] }

// Volatile reports whether only keys with an expire may be evicted.
func (p Policy) Volatile() bool { return p >= VolatileLRU }

// LFU reports whether keys are ranked by access frequency (records keep LFU counters).
func (p Policy) LFU() bool { return p == AllKeysLFU || p == VolatileLFU }

// LRU reports whether keys are ranked by idle time.
func (p Policy) LRU() bool { return p == AllKeysLRU || p == VolatileLRU }

// Random reports whether victims are drawn at random, unranked.
func (p Policy) Random() bool { return p == AllKeysRandom || p == VolatileRandom }
