package command

import (
	"container/heap"
	"sync"
	"time"
)

// timeoutHeap keeps the deadlines of the blocked commands that have one: a min-heap and one
// timer (time.AfterFunc) for the earliest, so that 10,000 blocked clients cost 10,000 heap
// slots and not 10,000 timers, and an idle server has no goroutine for it. When the timer
// fires, every command whose deadline has passed is woken (wakeTimeout) and its connection,
// claimed, answers the timeout reply. Sub-second timeouts (0.1) keep their precision: the
// timer is set to the millisecond.
type timeoutHeap struct {
	mu    sync.Mutex
	items blockedByDeadline
	timer *time.Timer
	at    int64 // unix ms the timer is set for; 0 when stopped
	now   func() int64
}

// blockedByDeadline orders blocked commands by deadline (container/heap).
type blockedByDeadline []*Blocked

func (h blockedByDeadline) Len() int           { return len(h) }
func (h blockedByDeadline) Less(i, j int) bool { return h[i].deadline < h[j].deadline }
func (h blockedByDeadline) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIdx, h[j].heapIdx = i, j
}
func (h *blockedByDeadline) Push(x any) {
	b := x.(*Blocked)
	b.heapIdx = len(*h)
	*h = append(*h, b)
}
func (h *blockedByDeadline) Pop() any {
	old := *h
	b := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	b.heapIdx = -1
	return b
}

// add puts b, blocked with a deadline, in the heap, and sets the timer if b is now first.
func (t *timeoutHeap) add(p *Pipeline, b *Blocked) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.now == nil {
		t.now = p.KS.Now
	}
	heap.Push(&t.items, b)
	if t.at == 0 || b.deadline < t.at {
		t.arm(p, b.deadline)
	}
}

// remove takes b out of the heap, if it is there.
func (t *timeoutHeap) remove(b *Blocked) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if b.heapIdx >= 0 {
		heap.Remove(&t.items, b.heapIdx)
	}
}

// arm sets the timer for unix ms at (t.mu held).
func (t *timeoutHeap) arm(p *Pipeline, at int64) {
	d := time.Duration(at-t.now()) * time.Millisecond
	d = max(d, 0)
	t.at = at
	if t.timer == nil {
		t.timer = time.AfterFunc(d, func() { t.fire(p) })
		return
	}
	t.timer.Reset(d)
}

// fire wakes every blocked command whose deadline has passed, and sets the timer for the next.
func (t *timeoutHeap) fire(p *Pipeline) {
	t.mu.Lock()
	now := t.now()
	var due []*Blocked
	for len(t.items) > 0 && t.items[0].deadline <= now {
		due = append(due, heap.Pop(&t.items).(*Blocked))
	}
	t.at = 0
	if len(t.items) > 0 {
		t.arm(p, t.items[0].deadline)
	}
	t.mu.Unlock()
	for _, b := range due {
		b.pending.Or(wakeTimeout)
		b.conn.Wake(false)
	}
}

// BlockedWithDeadline is the number of blocked commands with a deadline (INFO
// clients_in_timeout_table).
func (p *Pipeline) BlockedWithDeadline() int64 {
	t := &p.timeouts
	t.mu.Lock()
	defer t.mu.Unlock()
	return int64(len(t.items))
}
