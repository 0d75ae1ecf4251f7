package querybuf

import "testing"

func TestPoolBalancesAndFallsBack(t *testing.T) {
	p := NewPool(2)
	a, b := p.Get(), p.Get()
	c := p.Get() // list empty: a fresh buffer
	if len(c) != SharedBufferSize || p.Stats().Fallbacks != 1 {
		t.Fatalf("fallback: len %d, stats %+v", len(c), p.Stats())
	}
	p.Put(a)
	p.Put(b)
	p.Put(c) // no room: dropped
	st := p.Stats()
	if st.Gets != st.Puts || st.Free != 2 {
		t.Fatalf("stats %+v", st)
	}
	if n := testing.AllocsPerRun(100, func() { p.Put(p.Get()) }); n != 0 {
		t.Fatalf("Get/Put allocate %v times", n)
	}
}
