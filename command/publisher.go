package command

// Publisher delivers a message to the subscribers of a channel — those subscribed to it and
// those whose patterns match it — and returns how many received it (PUBLISH's reply). The
// server's pub/sub hub implements it (issue 19); the pipeline's keyspace notifications are
// delivered through it after a command's locks are released (afterUnlock), so that a
// subscriber's output queue is never written under a shard lock.
//
// Publish may be called from any goroutine, concurrently; channel and message are only read
// during the call (the hub copies what it keeps).
type Publisher interface {
	Publish(channel, message []byte) int
}
