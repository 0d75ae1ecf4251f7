package scripting

import (
	"runtime"
	"testing"
)

// TestStateMemory measures the heap an idle state holds and checks that stateMemory, the
// per-state figure INFO reports, is within a factor of two of it. Set -v to see the figure.
func TestStateMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds many states")
	}
	e := newTestEngine()
	const n = 20
	states := make([]*state, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range states {
		states[i] = e.newState(true)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := int64(after.HeapAlloc-before.HeapAlloc) / n
	t.Logf("an idle state holds %d bytes of heap (stateMemory %d)", per, stateMemory)
	if per > 2*stateMemory || per < stateMemory/2 {
		t.Errorf("a state holds %d bytes, stateMemory says %d", per, stateMemory)
	}
	runtime.KeepAlive(states)
}

// ScriptsMemory counts the cached scripts and Flush forgets them.
func TestScriptsMemory(t *testing.T) {
	e := newTestEngine()
	if e.ScriptsMemory() != 0 || e.Len() != 0 {
		t.Fatal("a new engine has scripts")
	}
	small, _ := e.Load([]byte("return 1"))
	m1 := e.ScriptsMemory()
	e.Load([]byte("return 1")) // cached: no more memory
	if e.ScriptsMemory() != m1 || e.Len() != 1 {
		t.Errorf("loading a cached script again counts it twice")
	}
	e.Load([]byte("local t = {} for i = 1, 10 do t[i] = redis.call('GET', 'k' .. i) end return t"))
	if e.ScriptsMemory() <= 2*m1 || e.Len() != 2 {
		t.Errorf("memory %d after a bigger script (first %d)", e.ScriptsMemory(), m1)
	}
	if e.Lookup([]byte(small.SHA)) != small {
		t.Errorf("Lookup by SHA")
	}
	upper := []byte(small.SHA)
	for i, c := range upper {
		if c >= 'a' && c <= 'f' {
			upper[i] = c - 'a' + 'A'
		}
	}
	if e.Lookup(upper) != small || e.Lookup([]byte("abc")) != nil {
		t.Errorf("Lookup in upper case or of a short name")
	}
	e.Flush()
	if e.ScriptsMemory() != 0 || e.Len() != 0 || e.Lookup([]byte(small.SHA)) != nil {
		t.Errorf("after Flush: %d bytes, %d scripts", e.ScriptsMemory(), e.Len())
	}
	// A flushed script still runs for whoever holds it.
	if got := eval(t, e, &fakeCaller{}, 2, "return 1", nil, nil); got != ":1\r\n" {
		t.Errorf("run after Flush: %q", got)
	}
	if e.VMMemory() != stateMemory {
		t.Errorf("VMMemory %d with one state", e.VMMemory())
	}
}
