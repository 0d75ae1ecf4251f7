// Package pubsub is the server's pub/sub hub: which subscribers listen on which channels,
// patterns and shard channels, and the delivery of a published message to them.
//
// The hub knows nothing of connections. A Subscriber is anything that can take a message
// frame — the RESP2 array Redis sends ("message", "pmessage", "smessage") — and queue it for
// its socket without blocking; the server's clients implement it with their output queue.
//
// Channels are spread over shards, each under its own RWMutex, so that PUBLISH on different
// channels runs in parallel, and PUBLISH on one channel from many goroutines shares a read
// lock. Patterns, which every PUBLISH must try, are one list under one RWMutex (Redis walks
// all its patterns on every PUBLISH too). Shard channels (SSUBSCRIBE, SPUBLISH) are a
// namespace of their own, as in a standalone Redis.
//
// Lock order: a hub lock, then whatever lock a Subscriber's Push takes. Push must therefore
// never call back into the hub.
package pubsub
