package keyspace

// A shard is poisoned when a command panicked while holding its lock for a write: its table or
// arena may have been left half-changed, so the pipeline refuses further commands on it (the
// other shards go on serving) and INFO reports it. Nothing unpoisons a shard but a restart:
// there is no way to tell a consistent shard from a damaged one.
//
// A shard is frozen when the dataset has been saved for a shutdown: a command that was waiting
// for its lock must not change it afterwards, as the change would be acknowledged and lost.

// Refusal is why the pipeline must not run a command on a shard (a bit set; 0: none).
type Refusal uint32

const (
	RefusePoisoned Refusal = 1 << iota // a panic may have left the shard inconsistent
	RefuseFrozen                       // saved for a shutdown: nothing may change it
)

// Poison marks the shard as possibly inconsistent.
func (s *Shard) Poison() { s.refuse.Or(uint32(RefusePoisoned)) }

// Poisoned reports whether a panic may have left the shard inconsistent.
func (s *Shard) Poisoned() bool { return s.Refused()&RefusePoisoned != 0 }

// Refused says whether, and why, commands must not run on the shard: one atomic load, which
// the pipeline does for each shard it locks.
func (s *Shard) Refused() Refusal { return Refusal(s.refuse.Load()) }

// FreezeLocked marks every shard frozen: the caller holds every lock (LockAll) and has saved
// the dataset for a shutdown. Commands waiting for a lock will find it refused.
func (k *Keyspace) FreezeLocked() {
	for _, s := range k.shards {
		s.refuse.Or(uint32(RefuseFrozen))
	}
}

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
