// Package command is the command table and the pipeline every command goes through
// (DESIGN §1.4 and §2).
//
// A family lists its rows (Command: name, arity, flags, ACL categories, key positions, how
// the pipeline locks for it, and the Handler); New joins the families into a Table. For each
// command a connection runs, Pipeline.Run checks it in Redis's processCommand order — arity,
// enable-debug-command, authentication, the denyoom check — then takes the locks of the shards
// its row declares (its keys' shards, all of them, none, or the ones a function picks), in
// ascending order, runs the handler, the hooks after a command, and unlocks. A handler
// receives a Ctx (its arguments, its reply writer, the locked shards, the client's database
// and the configuration), never the connection with its socket and mutex, and does not lock,
// count or log. A panic in a handler is recovered by the pipeline: the locks are released,
// the client gets an error naming the command, and the shards of a write command are
// poisoned (keyspace.Shard.Poison) — the other shards go on serving. In invariants builds the
// process crashes at once instead.
//
// Keyspace notifications: a handler raises Redis's events with ctx.Notify (one atomic load
// while notify-keyspace-events has none of the event's class); they are buffered in the Ctx,
// joined by the expiries its shards logged, published through the Publisher once the locks are
// released, and dropped when the handler panics (notify.go). A new family raises its events
// there, as Redis's notifyKeyspaceEvent calls do.
//
// Lock order: a client's own lock, then shard locks in ascending order, then the clients'
// arena lock (locks.go).
package command
