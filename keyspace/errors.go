package keyspace

import (
	"errors"

	"github.com/kvserver/kvserver/object"
	"github.com/kvserver/kvserver/replyerr"
)

// The keyspace's errors. Callers compare with errors.Is; those a client may see are Redis's
// replies (replyerr), written as they are.
var (
	// ErrOOM means the shard's arena could not provide memory (a record, a child bucket, a node
	// of the TTL index). It is object's error, so one comparison covers both packages.
	ErrOOM = object.ErrOOM
	// ErrKeyExists is InsertLocked's answer when the key is already in the database.
	ErrKeyExists = errors.New("keyspace: key exists")
	// ErrNoSuchKey is the answer of operations on one existing key when it is not there.
	ErrNoSuchKey error = replyerr.NoSuchKey
)
