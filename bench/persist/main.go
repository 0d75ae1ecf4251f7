// Command persist times a running server's snapshots for measurement 6 of bench/run.sh. It
// prints one line of key=value figures (seconds and bytes).
//
//	persist bgsave -addr 127.0.0.1:6379 [-pid PID -before 1s] [-notify PID]
//	persist load -addr 127.0.0.1:6379 -pid PID -since UNIX_NS
//
// bgsave sends BGSAVE and polls INFO persistence every -interval over one connection until
// rdb_bgsave_in_progress is 0, then requires rdb_last_bgsave_status:ok and rdb_saves one higher
// (where the server has that field); save_s runs from the command to that reply. Polling costs the server about a hundred small commands a second, and it
// works for any server; Redis itself notices its child's end only in its cron, up to 1/hz (100 ms)
// late, and counts that in. With -pid it samples memory every -interval, from -before ahead of
// the BGSAVE until the save ends: the server's RSS plus the Private_Dirty of each of its children
// (/proc/CHILD/smaps_rollup). A forked saver's pages are shared with the parent until either
// writes one, so its private dirty pages are the copies the save cost, which the parent's RSS
// does not show. It also reports total_commands_processed over the save (cmds_per_s: the
// write load's throughput while saving) and rdb_last_cow_size, which Redis reports. With
// -notify it sends that process SIGUSR1 just before the BGSAVE and SIGUSR2 once the save has
// ended (loadgen -window counts only the requests meant to be sent in between).
//
// load polls PING every -interval, reconnecting while the port is closed, until the server
// answers anything but -LOADING; load_s runs from -since (unix ns, taken just before the server
// was started) to that reply.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:6379", "server address")
	pid := fs.Int("pid", 0, "the server's pid: bgsave samples its memory, load fails when it exits")
	interval := fs.Duration("interval", 10*time.Millisecond, "polling and sampling interval")
	timeout := fs.Duration("timeout", 15*time.Minute, "give up after this long")
	var err error
	switch os.Args[1] {
	case "bgsave":
		before := fs.Duration("before", time.Second, "with -pid: sample memory this long before the BGSAVE")
		notify := fs.Int("notify", 0, "signal this pid SIGUSR1 before the BGSAVE and SIGUSR2 after the save")
		fs.Parse(os.Args[2:])
		err = bgsave(*addr, *pid, *notify, *interval, *before, *timeout)
	case "load":
		since := fs.Int64("since", 0, "unix time in ns when the server was started")
		fs.Parse(os.Args[2:])
		if *since == 0 {
			usage()
		}
		err = load(*addr, *pid, time.Unix(0, *since), *interval, *timeout)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "persist:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: persist bgsave|load [flags]; persist bgsave -h for the flags")
	os.Exit(2)
}

// bgsave runs one BGSAVE as described in the package comment and prints its figures.
func bgsave(addr string, pid, notify int, interval, before, timeout time.Duration) error {
	c, err := dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	if v, err := c.info("persistence", "rdb_bgsave_in_progress"); err != nil || v != "0" {
		return fmt.Errorf("a save is in progress before BGSAVE (rdb_bgsave_in_progress %q, %v)", v, err)
	}

	// rdb_saves counts the saves since start-up: that it went up by one shows the BGSAVE timed
	// was the one that ended (and not a poll that came before the save was marked begun).
	saves0, savesErr := c.infoInt("persistence", "rdb_saves")

	var s *sampler
	if pid > 0 {
		s = startSampler(pid, interval)
		time.Sleep(before)
	}
	var rssBefore int64
	if s != nil {
		m, err := sample(pid)
		if err != nil {
			return err
		}
		rssBefore = m.total()
	}
	cmds0, err := c.infoInt("stats", "total_commands_processed")
	if err != nil {
		return err
	}
	if notify > 0 {
		if err := syscall.Kill(notify, syscall.SIGUSR1); err != nil {
			return fmt.Errorf("signal %d: %w", notify, err)
		}
	}
	t0 := time.Now()
	if s != nil {
		s.mark()
	}
	reply, err := c.do("BGSAVE")
	if err != nil {
		return err
	}
	if !strings.HasPrefix(reply, "Background saving started") {
		return fmt.Errorf("BGSAVE: %s", reply)
	}
	for {
		time.Sleep(interval)
		v, err := c.info("persistence", "rdb_bgsave_in_progress")
		if err != nil {
			return err
		}
		if v == "0" {
			break
		}
	}
	took := time.Since(t0)
	if notify > 0 {
		if err := syscall.Kill(notify, syscall.SIGUSR2); err != nil {
			return fmt.Errorf("signal %d: %w", notify, err)
		}
	}
	var peak, parentPeak, childPeak int64
	var samples int
	if s != nil {
		if peak, parentPeak, childPeak, samples, err = s.stop(); err != nil {
			return err
		}
	}
	cmds1, err := c.infoInt("stats", "total_commands_processed")
	if err != nil {
		return err
	}
	status, err := c.info("persistence", "rdb_last_bgsave_status")
	if err != nil {
		return err
	}
	if status != "ok" {
		return fmt.Errorf("rdb_last_bgsave_status:%s after BGSAVE", status)
	}
	if savesErr == nil {
		saves1, err := c.infoInt("persistence", "rdb_saves")
		if err != nil {
			return err
		}
		if saves1 != saves0+1 {
			return fmt.Errorf("rdb_saves went from %d to %d over one BGSAVE", saves0, saves1)
		}
	}
	// Not every server has the field; -1 says so.
	cow, err := c.infoInt("persistence", "rdb_last_cow_size")
	if err != nil {
		cow = -1
	}
	fmt.Printf("save_s=%.3f cmds_per_s=%.0f rdb_last_cow_size=%d", took.Seconds(),
		float64(cmds1-cmds0)/took.Seconds(), cow)
	if s != nil {
		fmt.Printf(" rss_before=%d rss_peak=%d parent_peak=%d children_dirty_peak=%d samples=%d",
			rssBefore, peak, parentPeak, childPeak, samples)
	}
	fmt.Println()
	return nil
}

// load waits as described in the package comment and prints load_s.
func load(addr string, pid int, since time.Time, interval, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var c *client
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	loading := 0 // -LOADING replies seen
	for ; time.Now().Before(deadline); time.Sleep(interval) {
		if pid > 0 && !alive(pid) {
			return fmt.Errorf("server %d exited while loading", pid)
		}
		if c == nil {
			var err error
			if c, err = dial(addr); err != nil {
				continue // not listening yet
			}
			c.SetDeadline(deadline)
		}
		reply, err := c.do("PING")
		var re replyError
		switch {
		case errors.As(err, &re) && strings.HasPrefix(string(re), "LOADING"):
			loading++
		case err != nil:
			// A connection the server dropped: dial again.
			c.Close()
			c = nil
		case reply == "PONG":
			fmt.Printf("load_s=%.3f loading_replies=%d\n", time.Since(since).Seconds(), loading)
			return nil
		default:
			return fmt.Errorf("PING: %q", reply)
		}
	}
	return fmt.Errorf("no PONG within %v", timeout)
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z'
}

// ---- memory --------------------------------------------------------------------------------

// mem is one reading of a server's memory, in bytes.
type mem struct {
	rss        int64 // the server's VmRSS
	childDirty int64 // the Private_Dirty of all its children
}

func (m mem) total() int64 { return m.rss + m.childDirty }

// sample reads the server's RSS and its children's private dirty memory. A child that exits
// between the listing and the reading counts nothing.
func sample(pid int) (mem, error) {
	var m mem
	kb, err := procField(fmt.Sprintf("/proc/%d/status", pid), "VmRSS:")
	if err != nil {
		return m, err
	}
	m.rss = kb << 10
	for _, child := range children(pid) {
		if kb, err := procField(fmt.Sprintf("/proc/%d/smaps_rollup", child), "Private_Dirty:"); err == nil {
			m.childDirty += kb << 10
		}
	}
	return m, nil
}

// children lists pid's child processes, from /proc/PID/task/*/children (a child is listed under
// the thread that forked it).
func children(pid int) []int {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// procField returns the number of kB on the line of a /proc file that starts with name.
func procField(path, name string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, name); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				break
			}
			return strconv.ParseInt(f[0], 10, 64)
		}
	}
	return 0, fmt.Errorf("%s: no %s", path, name)
}

// sampler reads a server's memory every interval in its own goroutine and keeps the peaks of
// the readings taken after mark.
type sampler struct {
	done chan struct{}
	wg   sync.WaitGroup
	mu   struct {
		sync.Mutex
		marked                  bool
		peak, parent, childPeak int64
		samples                 int
		err                     error
	}
}

func startSampler(pid int, interval time.Duration) *sampler {
	s := &sampler{done: make(chan struct{})}
	s.wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			s.record(sample(pid))
			select {
			case <-s.done:
				s.record(sample(pid)) // the last reading, after the save
				return
			case <-t.C:
			}
		}
	})
	return s
}

func (s *sampler) record(m mem, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.mu.err = err
		return
	}
	if !s.mu.marked {
		return
	}
	s.mu.samples++
	s.mu.peak = max(s.mu.peak, m.total())
	s.mu.parent = max(s.mu.parent, m.rss)
	s.mu.childPeak = max(s.mu.childPeak, m.childDirty)
}

// mark starts the peaks: readings from now on count.
func (s *sampler) mark() {
	s.mu.Lock()
	s.mu.marked = true
	s.mu.Unlock()
}

// stop ends the sampling and returns the peaks of the total, the parent's RSS and the
// children's dirty memory (each its own maximum) and the number of readings.
func (s *sampler) stop() (peak, parent, child int64, samples int, err error) {
	close(s.done)
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.peak, s.mu.parent, s.mu.childPeak, s.mu.samples, s.mu.err
}

// ---- a minimal RESP2 client ----------------------------------------------------------------

type client struct {
	net.Conn
	br *bufio.Reader
}

// replyError is an error reply's text, without the leading '-'.
type replyError string

func (e replyError) Error() string { return string(e) }

func dial(addr string) (*client, error) {
	nc, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return nil, err
	}
	return &client{Conn: nc, br: bufio.NewReader(nc)}, nil
}

// do sends a command and returns a simple, integer or bulk reply as a string, or a replyError.
func (c *client) do(args ...string) (string, error) {
	var b []byte
	b = fmt.Appendf(b, "*%d\r\n", len(args))
	for _, a := range args {
		b = fmt.Appendf(b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.Write(b); err != nil {
		return "", err
	}
	line, err := c.br.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return "", errors.New("empty reply line")
	}
	switch line[0] {
	case '+', ':':
		return line[1:], nil
	case '-':
		return "", replyError(line[1:])
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", fmt.Errorf("bulk reply %q", line)
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(c.br, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return "", fmt.Errorf("unexpected reply %q", line)
}

// info returns one field of INFO section.
func (c *client) info(section, field string) (string, error) {
	text, err := c.do("INFO", section)
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(text) {
		if v, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), field+":"); ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("INFO %s has no %s", section, field)
}

func (c *client) infoInt(section, field string) (int64, error) {
	v, err := c.info(section, field)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(v, 10, 64)
}
