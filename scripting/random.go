package scripting

import (
	"math"
	"sync"

	lua "github.com/yuin/gopher-lua"
)

// Redis replaces math.random and math.randomseed with its own lrand48 (rand.c), the same
// sequence on every platform: one generator for the process, seeded as lrand48's default and
// never reseeded but by math.randomseed. Here it is the Engine's, shared by its states.

const (
	rand48A   = 0x5DEECE66D
	rand48C   = 0xB
	rand48Max = math.MaxInt32 // REDIS_LRAND48_MAX
)

// rand48 is a 48-bit linear congruential generator, lrand48's, safe for concurrent use.
type rand48 struct {
	mu sync.Mutex
	x  uint64
}

func newRand48() *rand48 { return &rand48{x: 0x1234ABCD330E} }

func (r *rand48) seed(v int32) {
	r.mu.Lock()
	r.x = uint64(uint32(v))<<16 | 0x330E
	r.mu.Unlock()
}

func (r *rand48) next() int32 {
	r.mu.Lock()
	r.x = (rand48A*r.x + rand48C) & (1<<48 - 1)
	v := int32(r.x >> 17)
	r.mu.Unlock()
	return v
}

// mathRandom is Redis's math.random([m [, n]]).
func (st *state) mathRandom(L *lua.LState) int {
	r := float64(st.rand.next()%rand48Max) / float64(rand48Max)
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(r))
	case 1:
		u := L.CheckInt(1)
		if u < 1 {
			L.ArgError(1, "interval is empty")
		}
		L.Push(lua.LNumber(math.Floor(r*float64(u)) + 1))
	case 2:
		l, u := L.CheckInt(1), L.CheckInt(2)
		if l > u {
			L.ArgError(2, "interval is empty")
		}
		L.Push(lua.LNumber(math.Floor(r*float64(u-l+1)) + float64(l)))
	default:
		L.RaiseError("wrong number of arguments")
	}
	return 1
}

// mathRandomSeed is Redis's math.randomseed(n).
func (st *state) mathRandomSeed(L *lua.LState) int {
	st.rand.seed(int32(L.CheckInt(1)))
	return 0
}
