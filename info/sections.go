package info

import (
	"strconv"
	"syscall"
)

// writeReplication is # Replication of a master without replicas or a backlog (there is no
// replication yet); repl_backlog_size is the configured size, as Redis prints it before any
// backlog exists.
func writeReplication(e *env, f fields) bool {
	p := e.src.Process()
	f.str("role", "master")
	f.int("connected_slaves", 0)
	f.str("master_failover_state", "no-failover")
	f.str("master_replid", p.ReplID)
	f.str("master_replid2", p.ReplID2)
	f.int("master_repl_offset", 0)
	f.int("second_repl_offset", -1)
	f.int("repl_backlog_active", 0)
	backlog, _ := e.cfg.Value("repl-backlog-size")
	f.str("repl_backlog_size", backlog)
	f.int("repl_backlog_first_byte_offset", 0)
	f.int("repl_backlog_histlen", 0)
	return true
}

// writeCPU is # CPU: the process's and its children's CPU time. Redis's
// used_cpu_sys_main_thread and used_cpu_user_main_thread are left out: kvserver's commands run
// on many threads, none of them the main one.
func writeCPU(_ *env, f fields) bool {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	f.str("used_cpu_sys", timeval(self.Stime))
	f.str("used_cpu_user", timeval(self.Utime))
	f.str("used_cpu_sys_children", timeval(children.Stime))
	f.str("used_cpu_user_children", timeval(children.Utime))
	return true
}

// timeval formats t as "%ld.%06ld".
func timeval(t syscall.Timeval) string {
	us := strconv.FormatInt(int64(t.Usec), 10)
	for len(us) < 6 {
		us = "0" + us
	}
	return strconv.FormatInt(int64(t.Sec), 10) + "." + us
}

// writeKeyspace is # Keyspace: a line per database that holds keys.
func writeKeyspace(e *env, f fields) bool {
	for db := 0; db < e.ks.Databases(); db++ {
		keys, expires := e.ks.Keys(db), e.ks.Expires(db)
		if keys == 0 && expires == 0 {
			continue
		}
		f.str("db"+strconv.Itoa(db), "keys="+strconv.FormatInt(keys, 10)+",expires="+
			strconv.FormatInt(expires, 10)+",avg_ttl="+strconv.FormatInt(e.ks.AvgTTL(db), 10))
	}
	return true
}
