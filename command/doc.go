// Package command is the command table and the pipeline every command goes through
// (DESIGN §1.4 and §2).
//
// A family lists its rows (Command: name, arity, flags, ACL categories, key positions, how
// the pipeline locks for it, and the Handler); New joins the families into a Table. For each
// command a connection runs, Pipeline.Run checks it in Redis's processCommand order — arity,
// enable-debug-command, authentication, a busy script, the denyoom check — then takes the locks of the shards
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
// Scripts (script.go): a script's command (EVAL, FCALL) holds its declared keys' shards like
// any command and runs the script in its handler; each redis.call goes through
// ScriptRun.Call — Redis's scriptCall checks, then the handler and its hooks under the
// script's locks, the events delivered after the script. An undeclared key's shard is locked
// on first use (waiting only above the shards held), or the run is redone holding every shard.
// While a script is past busy-reply-threshold, Run answers BUSY before any lock.
//
// Lock order: a client's own lock, then shard locks in ascending order, then the clients'
// arena lock (locks.go). A script may also try a lower shard's lock (never wait for it
// without bound).
package command
