package acl

// testCatalog is a small command table: containers, subcommands, categories and a NoAuth row.
func testCatalog() *Catalog {
	rows := []CommandInfo{
		{ID: 0, Name: "get", Parent: -1, Cats: []string{"read", "string", "fast"}},
		{ID: 1, Name: "set", Parent: -1, Cats: []string{"write", "string", "slow"}},
		{ID: 2, Name: "config", Parent: -1, Cats: []string{"slow"}},
		{ID: 3, Name: "config|get", Parent: 2, Cats: []string{"admin", "slow", "dangerous"}},
		{ID: 4, Name: "config|set", Parent: 2, Cats: []string{"admin", "slow", "dangerous"}},
		{ID: 5, Name: "select", Parent: -1, Cats: []string{"keyspace", "fast"}},
		{ID: 6, Name: "auth", Parent: -1, Cats: []string{"fast", "connection"}, NoAuth: true},
		{ID: 7, Name: "publish", Parent: -1, Cats: []string{"pubsub", "fast"}},
		{ID: 8, Name: "psubscribe", Parent: -1, Cats: []string{"pubsub", "slow"}},
		{ID: 9, Name: "mset", Parent: -1, Cats: []string{"write", "string", "slow"}},
		{ID: 10, Name: "copy", Parent: -1, Cats: []string{"keyspace", "write", "slow"}},
		{ID: 11, Name: "client", Parent: -1, Cats: []string{"slow"}},
		{ID: 12, Name: "client|list", Parent: 11, Cats: []string{"admin", "slow", "dangerous", "connection"}},
	}
	return NewCatalog(rows, []string{"keyspace", "read", "write", "string", "admin", "fast", "slow",
		"dangerous", "connection", "pubsub"})
}
