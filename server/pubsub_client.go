package server

// clientSubs is a client's pub/sub state: its subscriptions and the pushes waiting for its
// socket (issue 19; to be built).
type clientSubs struct{}
