package keyspace

// A shard is poisoned when a command panicked while holding its lock for a write: its table or
// arena may have been left half-changed, so the pipeline refuses further commands on it (the
// other shards go on serving) and INFO reports it. Nothing unpoisons a shard but a restart:
// there is no way to tell a consistent shard from a damaged one.

// Poison marks the shard as possibly inconsistent.
func (s *Shard) Poison() { s.poisoned.Store(true) }

// Poisoned reports whether a panic may have left the shard inconsistent.
func (s *Shard) Poisoned() bool { return s.poisoned.Load() }

// PoisonedShards counts the poisoned shards (INFO).
func (k *Keyspace) PoisonedShards() int {
	n := 0
	for _, s := range k.shards {
		if s.Poisoned() {
			n++
		}
	}
	return n
}
