package info

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kvserver/kvserver/config"
)

// Version is kvserver's own version (kvserver_version; HELLO and --version print it too).
// redis_version is config.RedisVersion: clients parse it to decide what they may send, so it
// names the Redis release whose behaviour kvserver follows.
const Version = "0.1.0"

// uname is "sysname release machine", read once (Redis caches it too: it never changes).
var uname = sync.OnceValue(func() string {
	var u syscall.Utsname
	if syscall.Uname(&u) != nil {
		return runtime.GOOS
	}
	return utsString(u.Sysname[:]) + " " + utsString(u.Release[:]) + " " + utsString(u.Machine[:])
})

func utsString(f []int8) string {
	var sb strings.Builder
	for _, ch := range f {
		if ch == 0 {
			break
		}
		sb.WriteByte(byte(ch))
	}
	return sb.String()
}

var pid = int64(os.Getpid())

// writeServer is # Server. The build fields say what is true of a Go binary: no git sha or
// build id recorded (Redis's zeros for an unknown one), no C compiler (gcc_version 0.0.0, as
// Redis prints without __GNUC__); kvserver_version and go_version are kvserver's own.
func writeServer(e *env, f fields) bool {
	p := e.src.Process()
	uptime := int64(time.Since(p.Started).Seconds())
	port := e.cfg.Port()
	f.str("redis_version", config.RedisVersion)
	f.str("redis_git_sha1", "00000000")
	f.int("redis_git_dirty", 0)
	f.str("redis_build_id", "0")
	f.str("redis_mode", "standalone")
	f.str("os", uname())
	f.int("arch_bits", strconv.IntSize)
	f.str("monotonic_clock", "POSIX clock_gettime")
	f.str("multiplexing_api", "epoll")
	f.str("atomicvar_api", "c11-builtin")
	f.str("gcc_version", "0.0.0")
	f.int("process_id", pid)
	f.str("process_supervised", "no") // supervised is inert: no systemd or upstart notification
	f.str("run_id", p.RunID)
	f.int("tcp_port", int64(port))
	f.int("server_time_usec", p.Now.UnixMicro())
	f.int("uptime_in_seconds", uptime)
	f.int("uptime_in_days", uptime/86400)
	// dynamic-hz is inert: the cron runs at the configured hz.
	f.int("hz", int64(e.cfg.Hz()))
	f.int("configured_hz", int64(e.cfg.Hz()))
	f.int("lru_clock", int64(e.ks.LRUClock()))
	f.str("executable", p.Executable)
	f.str("config_file", p.ConfigFile)
	f.int("io_threads_active", 0)
	for _, ln := range p.Listeners {
		var sb strings.Builder
		sb.WriteString("name=")
		sb.WriteString(ln.Name)
		for _, b := range ln.Binds {
			sb.WriteString(",bind=")
			sb.WriteString(b)
		}
		if ln.Port != 0 {
			sb.WriteString(",port=")
			sb.WriteString(strconv.Itoa(ln.Port))
		}
		f.str("listener"+strconv.Itoa(ln.Index), sb.String())
	}
	f.str("kvserver_version", Version)
	f.str("go_version", runtime.Version())
	return true
}
