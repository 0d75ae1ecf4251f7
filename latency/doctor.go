package latency

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// eventStats are one event's figures for DOCTOR (latencyStats).
type eventStats struct {
	avg, mad, samples uint32
	period            int64
}

// analyze is analyzeLatencyForEvent.
func analyze(ts *series, now int64) eventStats {
	var ls eventStats
	var sum uint64
	var oldest int64
	for _, s := range ts.samples {
		if s.time == 0 {
			continue
		}
		ls.samples++
		sum += uint64(s.latency)
		if oldest == 0 || int64(s.time) < oldest {
			oldest = int64(s.time)
		}
	}
	if ls.samples == 0 {
		return ls
	}
	ls.avg = uint32(sum / uint64(ls.samples))
	ls.period = now - oldest
	if ls.period == 0 {
		ls.period = 1
	}
	sum = 0
	for _, s := range ts.samples {
		if s.time == 0 {
			continue
		}
		d := int64(ls.avg) - int64(s.latency)
		if d < 0 {
			d = -d
		}
		sum += uint64(d)
	}
	ls.mad = uint32(sum / uint64(ls.samples))
	return ls
}

// Doctor is LATENCY DOCTOR's report (createLatencyReport), for a server with slowlog-log-
// slower-than slowerThan µs and the given hz. kvserver has no fork, AOF or eviction events
// yet; their advice comes with them.
func (m *Monitor) Doctor(slowerThan int64, hz int) string {
	events := m.snapshot()
	threshold := m.Threshold()
	if len(events) == 0 && threshold == 0 {
		return "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance. You may use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in order to enable it. If we weren't in a deep space mission I'd suggest to take a look at https://redis.io/topics/latency-monitor.\n"
	}
	var (
		b                                                 strings.Builder
		adviseSlowlogEnabled, adviseSlowlogTuning         bool
		adviseSlowlogInspect, adviseScheduler, adviseHz   bool
		adviseLargeObjects, adviseMassEviction, adviseTHP bool
		advices                                           int
	)
	now := m.now()
	for i := range events {
		ts := &events[i]
		if i == 0 {
			b.WriteString("Dave, I have observed latency spikes in this Redis instance. You don't mind talking about it, do you Dave?\n\n")
		}
		ls := analyze(ts, now)
		fmt.Fprintf(&b, "%d. %s: %d latency spikes (average %dms, mean deviation %dms, period %.2f sec). Worst all time event %dms.",
			i+1, ts.name, ls.samples, ls.avg, ls.mad, float64(ls.period)/float64(ls.samples), ts.max)
		switch strings.ToLower(ts.name) {
		case EventCommand:
			if slowerThan < 0 {
				adviseSlowlogEnabled = true
				advices++
			} else if slowerThan/1000 > threshold {
				adviseSlowlogTuning = true
				advices++
			}
			adviseSlowlogInspect, adviseLargeObjects = true, true
			advices += 2
		case EventFastCommand:
			adviseScheduler = true
			advices++
		case EventExpireCycle:
			adviseHz, adviseLargeObjects = true, true
			advices += 2
		case EventEvictionDel:
			adviseLargeObjects = true
			advices++
		case EventEvictionCycle:
			adviseMassEviction = true
			advices++
		}
		b.WriteByte('\n')
	}
	if anonHugePages() > 0 {
		adviseTHP = true
		advices++
	}
	switch {
	case len(events) == 0 && advices == 0:
		b.WriteString("Dave, no latency spike was observed during the lifetime of this Redis instance, not in the slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and think things over.\n")
	case len(events) > 0 && advices == 0:
		b.WriteString("\nWhile there are latency events logged, I'm not able to suggest any easy fix. Please use the Redis community to get some help, providing this report in your help request.\n")
	default:
		b.WriteString("\nI have a few advices for you:\n\n")
		if adviseSlowlogEnabled {
			fmt.Fprintf(&b, "- There are latency issues with potentially slow commands you are using. Try to enable the Slow Log Redis feature using the command 'CONFIG SET slowlog-log-slower-than %d'. If the Slow log is disabled Redis is not able to log slow commands execution for you.\n", threshold*1000)
		}
		if adviseSlowlogTuning {
			fmt.Fprintf(&b, "- Your current Slow Log configuration only logs events that are slower than your configured latency monitor threshold. Please use 'CONFIG SET slowlog-log-slower-than %d'.\n", threshold*1000)
		}
		if adviseSlowlogInspect {
			b.WriteString("- Check your Slow Log to understand what are the commands you are running which are too slow to execute. Please check https://redis.io/commands/slowlog for more information.\n")
		}
		if adviseScheduler {
			b.WriteString("- The system is slow to execute Redis code paths not containing system calls. This usually means the system does not provide Redis CPU time to run for long periods. You should try to:\n" +
				"  1) Lower the system load.\n" +
				"  2) Use a computer / VM just for Redis if you are running other software in the same system.\n" +
				"  3) Check if you have a \"noisy neighbour\" problem.\n" +
				"  4) Check with 'redis-cli --intrinsic-latency 100' what is the intrinsic latency in your system.\n" +
				"  5) Check if the problem is allocator-related by recompiling Redis with MALLOC=libc, if you are using Jemalloc. However this may create fragmentation problems.\n")
		}
		if adviseHz && hz < 100 {
			b.WriteString("- In order to make the Redis keys expiring process more incremental, try to set the 'hz' configuration parameter to 100 using 'CONFIG SET hz 100'.\n")
		}
		if adviseLargeObjects {
			b.WriteString("- Deleting, expiring or evicting (because of maxmemory policy) large objects is a blocking operation. If you have very large objects that are often deleted, expired, or evicted, try to fragment those objects into multiple smaller objects.\n")
		}
		if adviseMassEviction {
			b.WriteString("- Sudden changes to the 'maxmemory' setting via 'CONFIG SET', or allocation of large objects via sets or sorted sets intersections, STORE option of SORT, Redis Cluster large keys migrations (RESTORE command), may create sudden memory pressure forcing the server to block trying to evict keys. \n")
		}
		if adviseTHP {
			b.WriteString("- I detected a non zero amount of anonymous huge pages used by your process. This creates very serious latency events in different conditions, especially when Redis is persisting on disk. To disable THP support use the command 'echo never > /sys/kernel/mm/transparent_hugepage/enabled', make sure to also add it into /etc/rc.local so that the command will be executed again after a reboot. Note that even if you have already disabled THP, you still need to restart the Redis process to get rid of the huge pages already created.\n")
		}
	}
	return b.String()
}

// anonHugePages is the process's AnonHugePages in bytes, summed over /proc/self/smaps as
// Redis's zmalloc_get_smap_bytes_by_field (0 where there is no such file).
func anonHugePages() int64 {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0
	}
	defer f.Close()
	var total int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "AnonHugePages:")
		if !ok {
			continue
		}
		if kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64); err == nil {
			total += kb * 1024
		}
	}
	return total
}
