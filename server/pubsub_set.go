package server

// subKind is the kind of a subscription: a channel, a pattern or a shard channel.
type subKind uint8

const (
	subChannel subKind = iota
	subPattern
	subShard
	numSubKinds
)

// subscription is one of a client's subscriptions.
type subscription struct {
	name string
	kind subKind
}

// subIndexAt is the size from which a subscription set keeps an index: below it a linear
// scan of a few entries is cheaper than a map, and an idle subscriber of one channel holds
// one 24-byte entry rather than a map (the 1.5 KB an idle subscriber).
const subIndexAt = 32

// subSet is a client's subscriptions of every kind, in one list. Owned by whoever serves the
// client.
type subSet struct {
	list  []subscription
	index map[subscription]int // position in list; made when list reaches subIndexAt
}

// find returns the position of the subscription (kind, name), or -1.
func (s *subSet) find(kind subKind, name []byte) int {
	if s.index != nil {
		if i, ok := s.index[subscription{string(name), kind}]; ok {
			return i
		}
		return -1
	}
	for i := range s.list {
		if s.list[i].kind == kind && s.list[i].name == string(name) {
			return i
		}
	}
	return -1
}

// add adds the subscription (kind, name), which find did not find.
func (s *subSet) add(kind subKind, name []byte) {
	e := subscription{string(name), kind}
	if s.index != nil {
		s.index[e] = len(s.list)
	}
	if len(s.list) == 0 {
		s.list = make([]subscription, 0, 1) // exactly one: most subscribers have one
	}
	s.list = append(s.list, e)
	if s.index == nil && len(s.list) >= subIndexAt {
		s.index = make(map[subscription]int, len(s.list))
		for i, e := range s.list {
			s.index[e] = i
		}
	}
}

// removeAt removes the subscription at position i (the last one takes its place).
func (s *subSet) removeAt(i int) {
	last := len(s.list) - 1
	if s.index != nil {
		delete(s.index, s.list[i])
		if i != last {
			s.index[s.list[last]] = i
		}
	}
	s.list[i] = s.list[last]
	s.list[last] = subscription{}
	s.list = s.list[:last]
	if len(s.list) == 0 {
		s.list, s.index = nil, nil
	}
}

// names returns the names of the subscriptions of kind.
func (s *subSet) names(kind subKind) []string {
	var out []string
	for _, e := range s.list {
		if e.kind == kind {
			out = append(out, e.name)
		}
	}
	return out
}
