package server

// txState is a client's transaction state: MULTI's queued commands and WATCH's keys
// (issue 19; to be built).
type txState struct{}
