// Package acl is Redis 7.2's access control model without connections: users made of flags,
// passwords and selectors (command bitmaps by command ID, key patterns with read/write
// permissions, channel patterns), the rules that build them (ACL SETUSER's words), their
// descriptions (ACL LIST, ACL GETUSER, the aclfile), the permission check the pipeline runs
// before a command (ACLCheckAllUserCommandPerm), and the ACL LOG store.
//
// Users are immutable once built: a change builds a new *User and swaps it into the Registry
// (copy on write), so a connection may keep using the *User it holds without a lock and
// notice changes through Registry.Generation. The default user's check is one flag test
// (User.AllowsAll).
//
// Semantics follow Redis 7.2's src/acl.c (ACLSetUser, ACLSetSelector, ACLSelectorCheckCmd,
// ACLDescribeUser, ACLLoadFromFile, addACLLogEntry); the code is our own.
package acl
