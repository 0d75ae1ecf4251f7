package debugfamily

import (
	"github.com/kvserver/kvserver/alloc"
	"github.com/kvserver/kvserver/command"
)

// memoryOverhead is Redis's redisMemOverhead as kvserver can fill it: the server's figures,
// every database's table and TTL index, and what the arenas have made resident. Replication,
// the AOF, Lua, functions and cluster links do not exist here: MEMORY STATS reports them as 0.
type memoryOverhead struct {
	ServerMemory
	dbs      []dbOverhead // the databases that hold keys
	keys     int64        // keys in every database
	dataset  int64        // dataset.bytes: the shards' records and values (exact)
	overhead int64        // overhead.total: everything else used_memory counts
	active   int64        // allocator.active: slab pages handed out, large objects, Go runtime
	resident int64        // allocator.resident: the same, with all the Go runtime holds
}

// dbOverhead is one database's share of MEMORY STATS.
type dbOverhead struct {
	db            int
	keys          int64
	main, expires int64 // its tables and TTL indexes, in every shard
}

// memoryOverhead reads the figures with every shard held (the row locks them all).
func (f *family) memoryOverhead(ctx *command.Ctx) memoryOverhead {
	m := memoryOverhead{ServerMemory: f.srv.Memory()}
	var shards, structures int64
	for _, i := range ctx.Locked() {
		a := ctx.ShardAt(i).Arena()
		shards += a.Used()
		m.active += arenaActive(a.SlabStats())
	}
	f.srv.WithClientArena(func(a *alloc.Arena) { m.active += arenaActive(a.SlabStats()) })
	m.resident = m.active + m.GoResident
	m.active += m.GoRuntime
	for db := range ctx.KS.Databases() {
		o := dbOverhead{db: db}
		for _, i := range ctx.Locked() {
			sh := ctx.ShardAt(i)
			t, e := sh.OverheadLocked(db)
			o.keys += sh.DBSizeLocked(db)
			o.main, o.expires = o.main+t, o.expires+e
		}
		structures += o.main + o.expires // an emptied database's tables count too
		if o.keys != 0 {
			m.dbs = append(m.dbs, o)
			m.keys += o.keys
		}
	}
	// The keyspace holds nothing on the Go heap: what the shards hold beyond their tables and
	// TTL indexes is the dataset, exactly; everything else used_memory counts is overhead.
	m.dataset = max(shards-structures, 0)
	m.overhead = max(m.Used-m.dataset, 0)
	m.Peak = max(m.Peak, m.Used)
	return m
}

// arenaActive is the memory an arena has made resident: the pages of its spans ever handed
// out, and its large objects.
func arenaActive(st alloc.SlabStats) int64 { return st.Active + st.Large }

// netUsage is used memory beyond what the server used at start, at least 1 (Redis's
// net_usage, the base of keys.bytes-per-key and dataset.percentage).
func (m *memoryOverhead) netUsage() int64 { return max(m.Used-m.Startup, 1) }

// ratio is a/b, 0 when b is 0.
func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// memoryStatsCommand: MEMORY STATS — Redis 7.2's map, field for field. The allocator is
// kvserver's arenas together with the Go runtime: allocator.allocated is used_memory;
// allocator.active what the arenas have made resident (the span pages they handed out, free
// slots included, and large objects) plus the Go runtime's heap in use and stacks;
// allocator.resident the same with all the Go runtime holds from the OS (free heap, garbage not
// yet collected, its metadata). rss-overhead is the rest of the process's RSS (the binary,
// threads' stacks outside Go).
func (f *family) memoryStatsCommand(ctx *command.Ctx) {
	m := f.memoryOverhead(ctx)
	w := ctx.W
	w.Map(27 + len(m.dbs))
	field := func(name string, v int64) {
		w.BulkString(name)
		w.Int(v)
	}
	double := func(name string, v float64) {
		w.BulkString(name)
		w.Double(v)
	}
	field("peak.allocated", m.Peak)
	field("total.allocated", m.Used)
	field("startup.allocated", m.Startup)
	field("replication.backlog", 0)
	field("clients.slaves", 0)
	field("clients.normal", m.Clients)
	field("cluster.links", 0)
	field("aof.buffer", 0)
	field("lua.caches", 0)
	field("functions.caches", 0)
	for _, o := range m.dbs {
		w.BulkString("db." + itoa(o.db))
		w.Map(3)
		field("overhead.hashtable.main", o.main)
		field("overhead.hashtable.expires", o.expires)
		field("overhead.hashtable.slot-to-keys", 0)
	}
	field("overhead.total", m.overhead)
	field("keys.count", m.keys)
	bytesPerKey := int64(0)
	if m.keys != 0 {
		bytesPerKey = m.netUsage() / m.keys
	}
	field("keys.bytes-per-key", bytesPerKey)
	field("dataset.bytes", m.dataset)
	double("dataset.percentage", 100*ratio(m.dataset, m.netUsage()))
	double("peak.percentage", 100*ratio(m.Used, m.Peak))
	field("allocator.allocated", m.Used)
	field("allocator.active", m.active)
	field("allocator.resident", m.resident)
	double("allocator-fragmentation.ratio", ratio(m.active, m.Used))
	field("allocator-fragmentation.bytes", m.active-m.Used)
	double("allocator-rss.ratio", ratio(m.resident, m.active))
	field("allocator-rss.bytes", m.resident-m.active)
	double("rss-overhead.ratio", ratio(m.RSS, m.resident))
	field("rss-overhead.bytes", m.RSS-m.resident)
	double("fragmentation", ratio(m.RSS, m.Used))
	field("fragmentation.bytes", m.RSS-m.Used)
}

// itoa formats a small non-negative integer.
func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
