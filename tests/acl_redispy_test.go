package tests

import "testing"

// TestACLRedisPy: redis-py's Redis(username=…, password=…) as a user limited to app:*
// (testdata/py/acl.py): its reads and writes, NoPermissionError for other keys and commands
// (in a pipeline too), WRONGPASS for a wrong password, and the ACL LOG entries.
func TestACLRedisPy(t *testing.T) {
	t.Parallel()
	requireRedisPy(t)
	s := startServer(t)
	requireACL(t, s)
	mustOK(t, s.RawConn(t), "ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+@read", "+@write")
	runPyCase(t, s, "acl.py", "username")
}
