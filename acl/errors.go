package acl

import "errors"

// The texts of ACLSetUserStringError, word for word.
var (
	errUnknownCommand  = errors.New("Unknown command or category name in ACL")
	errSyntax          = errors.New("Syntax error")
	errKeyAfterAll     = errors.New("Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns")
	errChannelAfterAll = errors.New("Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels")
	errNoSuchPassword  = errors.New("The password you are trying to remove from the user does not exist")
	errBadHash         = errors.New("The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters")
	errDuplicateUser   = errors.New("Duplicate user found. A user can only be defined once in config files")
	errFirstArgOfSub   = errors.New("Allowing first-arg of a subcommand is not supported")
)
