package querybuf

import "testing"

func TestPoolBalancesAndFallsBack(t *testing.T) {
	p := NewPool(2, 3)
	a, b := p.Get(), p.Get()
	c := p.Get() // list empty: a fresh buffer
	d := p.Get()
	if len(c) != SharedBufferSize || p.Stats().Fallbacks != 2 {
		t.Fatalf("fallback: len %d, stats %+v", len(c), p.Stats())
	}
	p.Put(a)
	p.Put(b)
	p.Put(c) // kept: the list grows up to max
	p.Put(d) // no room: dropped
	st := p.Stats()
	if st.Gets != st.Puts || st.Free != 3 {
		t.Fatalf("stats %+v", st)
	}
	if n := testing.AllocsPerRun(100, func() { p.Put(p.Get()) }); n != 0 {
		t.Fatalf("Get/Put allocate %v times", n)
	}
}

// TestPoolTrim: Trim drops only the buffers above the initial count that a whole interval left
// unused, so a burst that recurs keeps its buffers and an old one's are given back.
func TestPoolTrim(t *testing.T) {
	p := NewPool(2, 8)
	burst := func(n int) {
		bufs := make([][]byte, n)
		for i := range bufs {
			bufs[i] = p.Get()
		}
		for _, b := range bufs {
			p.Put(b)
		}
	}
	burst(6)
	if free := p.Stats().Free; free != 6 {
		t.Fatalf("after a burst of 6: %d free, want 6", free)
	}
	p.Trim() // the interval needed all 6: nothing dropped
	if free := p.Stats().Free; free != 6 {
		t.Fatalf("trim after the burst: %d free, want 6", free)
	}
	burst(3) // the next interval needs 3 of them: 3 stayed unused, but 2 are always kept
	p.Trim()
	if free := p.Stats().Free; free != 3 {
		t.Fatalf("trim after a burst of 3: %d free, want 3", free)
	}
	p.Trim() // an idle interval: back to the initial 2
	if free := p.Stats().Free; free != 2 {
		t.Fatalf("trim after an idle interval: %d free, want 2", free)
	}
}
