package debugfamily

import (
	"strings"

	"github.com/kvserver/kvserver/command"
)

// MEMORY DOCTOR's texts, Redis's word for word. Those about replicas and Lua scripts never
// apply here.
const (
	doctorHealthy = "Hi Sam, I can't find any memory issue in your instance. " +
		"I can only account for what occurs on this base.\n"
	doctorEmpty = "Hi Sam, this instance is empty or is using very little memory, " +
		"my issues detector can't be used in these conditions. " +
		"Please, leave for your mission on Earth and fill it with some data. " +
		"The new Sam and I will be back to our programming as soon as I " +
		"finished rebooting.\n"
	doctorIntro     = "Sam, I detected a few issues in this Redis instance memory implants:\n\n"
	doctorBigPeak   = " * Peak memory: In the past this instance used more than 150% the memory that is currently using. The allocator is normally not able to release memory after a peak, so you can expect to see a big fragmentation ratio, however this is actually harmless and is only due to the memory peak, and if the Redis instance Resident Set Size (RSS) is currently bigger than expected, the memory will be used as soon as you fill the Redis instance with more data. If the memory peak was only occasional and you want to try to reclaim memory, please try the MEMORY PURGE command, otherwise the only other option is to shutdown and restart the instance.\n\n"
	doctorHighFrag  = " * High total RSS: This instance has a memory fragmentation and RSS overhead greater than 1.4 (this means that the Resident Set Size of the Redis process is much larger than the sum of the logical allocations Redis performed). This problem is usually due either to a large peak memory (check if there is a peak memory entry above in the report) or may result from a workload that causes the allocator to fragment memory a lot. If the problem is a large peak memory, then there is no issue. Otherwise, make sure you are using the Jemalloc allocator and not the default libc malloc. Note: The currently used allocator is \"" + allocatorName + "\".\n\n"
	doctorAllocFrag = " * High allocator fragmentation: This instance has an allocator external fragmentation greater than 1.1. This problem is usually due either to a large peak memory (check if there is a peak memory entry above in the report) or may result from a workload that causes the allocator to fragment memory a lot. You can try enabling 'activedefrag' config option.\n\n"
	doctorAllocRSS  = " * High allocator RSS overhead: This instance has an RSS memory overhead is greater than 1.1 (this means that the Resident Set Size of the allocator is much larger than the sum what the allocator actually holds). This problem is usually due to a large peak memory (check if there is a peak memory entry above in the report), you can try the MEMORY PURGE command to reclaim it.\n\n"
	doctorProcRSS   = " * High process RSS overhead: This instance has non-allocator RSS memory overhead is greater than 1.1 (this means that the Resident Set Size of the Redis process is much larger than the RSS the allocator holds). This problem may be due to Lua scripts or Modules.\n\n"
	doctorBigClient = " * Big client buffers: The clients output buffers in this instance are greater than 200K per client (on average). This may result from different causes, like Pub/Sub clients subscribed to channels bot not receiving data fast enough, so that data piles on the Redis instance output buffer, or clients sending commands with large replies or very large sequences of commands in the same pipeline. Please use the CLIENT LIST command in order to investigate the issue if it causes problems in your instance, or to understand better why certain clients are using a big amount of memory.\n\n"
	doctorOutro     = "I'm here to keep you safe, Sam. I want to help you.\n"
)

// allocatorName is what the high-fragmentation text names as the allocator (Redis's
// ZMALLOC_LIB), as INFO's mem_allocator begins.
const allocatorName = "kvserver-slab"

// Redis's thresholds for the doctor's findings.
const (
	doctorEmptyBelow   = 5 << 20   // used memory under which the instance counts as empty
	doctorMinBytes     = 10 << 20  // a ratio matters only past this many bytes
	doctorClientBuffer = 200 << 10 // average buffers per client
)

// memoryDoctorCommand: MEMORY DOCTOR — Redis's report, from the same figures as MEMORY STATS.
func (f *family) memoryDoctorCommand(ctx *command.Ctx) {
	m := f.memoryOverhead(ctx)
	ctx.W.Verbatim("txt", doctorReport(&m))
}

// doctorReport is Redis's getMemoryDoctorReport on m.
func doctorReport(m *memoryOverhead) string {
	if m.Used < doctorEmptyBelow {
		return doctorEmpty
	}
	var found []string
	if float64(m.Peak)/float64(m.Used) > 1.5 {
		found = append(found, doctorBigPeak)
	}
	if ratio(m.RSS, m.Used) > 1.4 && m.RSS-m.Used > doctorMinBytes {
		found = append(found, doctorHighFrag)
	}
	if ratio(m.active, m.Used) > 1.1 && m.active-m.Used > doctorMinBytes {
		found = append(found, doctorAllocFrag)
	}
	if ratio(m.resident, m.active) > 1.1 && m.resident-m.active > doctorMinBytes {
		found = append(found, doctorAllocRSS)
	}
	if ratio(m.RSS, m.resident) > 1.1 && m.RSS-m.resident > doctorMinBytes {
		found = append(found, doctorProcRSS)
	}
	if m.Clients/int64(max(m.NClients, 1)) > doctorClientBuffer {
		found = append(found, doctorBigClient)
	}
	if len(found) == 0 {
		return doctorHealthy
	}
	return doctorIntro + strings.Join(found, "") + doctorOutro
}
