package tests

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// prometheus-redis-exporter (Debian's 1.45) scrapes kvserver and redis-server alike: every
// series family it exports for redis-server, it exports for kvserver too, unless one of the
// lists below says why not.

// exporterRedisOnly are the families kvserver does not back, with the reason (the INFO fields
// behind them are in infoRedisOnly).
var exporterRedisOnly = map[string]string{
	"redis_allocator_active_bytes":             "jemalloc page accounting (allocator_active)",
	"redis_allocator_allocated_bytes":          "jemalloc page accounting (allocator_allocated)",
	"redis_allocator_resident_bytes":           "jemalloc page accounting (allocator_resident)",
	"redis_allocator_frag_bytes":               "derived from allocator_* (allocator_frag_bytes)",
	"redis_allocator_frag_ratio":               "derived from allocator_* (allocator_frag_ratio)",
	"redis_allocator_rss_bytes":                "derived from allocator_* (allocator_rss_bytes)",
	"redis_allocator_rss_ratio":                "derived from allocator_* (allocator_rss_ratio)",
	"redis_aof_last_bgrewrite_status":          "no AOF rewrite ever ran: a status would claim one",
	"redis_aof_last_write_status":              "no AOF write ever ran: a status would claim one",
	"redis_cpu_sys_main_thread_seconds_total":  "no main thread: commands run on many threads",
	"redis_cpu_user_main_thread_seconds_total": "no main thread: commands run on many threads",
	"redis_expired_stale_percentage":           "the TTL index finds due keys exactly: no sampled estimate",
}

// exporterLabelValues are the families whose label values must match too, not only their
// label names: the databases.
var exporterLabelValues = []string{"redis_db_keys", "redis_db_keys_expiring", "redis_db_avg_ttl_seconds"}

// exporter is one prometheus-redis-exporter process scraping one server.
type exporter struct {
	url string
	out *syncBuffer
}

// startExporter runs the exporter against srv on a free port and waits until it serves
// /metrics.
func startExporter(t *testing.T, bin string, srv *server) *exporter {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	e := &exporter{url: "http://" + addr + "/metrics", out: &syncBuffer{}}
	cmd := exec.Command(bin, "-redis.addr", "redis://"+srv.Addr, "-web.listen-address", addr)
	cmd.Stdout, cmd.Stderr = e.out, e.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("exporter of %s:\n%s", srv.Addr, e.out.Tail(8<<10))
		}
	})
	deadline := time.Now().Add(startTimeout)
	for {
		select {
		case <-done:
			t.Fatalf("the exporter exited:\n%s", e.out.String())
		default:
		}
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
			return e
		}
		if time.Now().After(deadline) {
			t.Fatalf("the exporter does not answer on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// series is one scraped sample: its family and labels.
type series struct {
	family string
	labels map[string]string
}

// scrape reads the exporter's /metrics and returns its redis_ series.
func (e *exporter) scrape(t *testing.T) []series {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", e.url, resp.StatusCode, err)
	}
	var out []series
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "redis_") {
			continue
		}
		s := series{labels: map[string]string{}}
		name, rest, hasLabels := strings.Cut(line, "{")
		if !hasLabels {
			name, _, _ = strings.Cut(line, " ")
		} else {
			labels, _, _ := strings.Cut(rest, "} ")
			for _, kv := range splitLabels(labels) {
				k, v, _ := strings.Cut(kv, "=")
				s.labels[k] = strings.Trim(v, `"`)
			}
		}
		s.family = name
		out = append(out, s)
	}
	return out
}

// splitLabels splits `a="x",b="y,z"` at the commas outside quotes.
func splitLabels(s string) []string {
	var parts []string
	inQuote, start := false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			inQuote = !inQuote
		case ',':
			if !inQuote {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	if start < len(s) {
		parts = append(parts, s[start:])
	}
	return parts
}

// familyShapes maps each family to its sorted label names, and to its label sets where the
// values matter.
func familyShapes(ss []series) (names map[string][]string, values map[string][]string) {
	names, values = map[string][]string{}, map[string][]string{}
	for _, s := range ss {
		var keys []string
		for k := range s.labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !slices.Contains(names[s.family], k) {
				names[s.family] = append(names[s.family], k)
			}
		}
		if _, ok := names[s.family]; !ok {
			names[s.family] = nil
		}
		if slices.Contains(exporterLabelValues, s.family) {
			var kv []string
			for _, k := range keys {
				kv = append(kv, k+"="+s.labels[k])
			}
			values[s.family] = append(values[s.family], strings.Join(kv, ","))
		}
	}
	for f := range values {
		sort.Strings(values[f])
	}
	return names, values
}

// TestExporterSeries: the exporter's series for kvserver against those for redis-server, after
// the same commands on both.
func TestExporterSeries(t *testing.T) {
	t.Parallel()
	requireKvserver(t, "compares the exporter's series for kvserver with redis-server's")
	bin, err := exec.LookPath("prometheus-redis-exporter")
	if err != nil {
		if bin, err = exec.LookPath("redis_exporter"); err != nil {
			t.Skip("prometheus-redis-exporter is not on the PATH: install it (scripts/deps.sh) to compare its series")
		}
	}
	ref := startReferenceRedis(t)
	if ref == nil {
		t.Skip("redis-server is not on the PATH: install it (scripts/deps.sh) to compare the exporter's series")
	}
	kv := startServer(t)
	ctx := context.Background()
	for _, s := range []*server{kv, ref} {
		rc := s.Client(t)
		rc.Set(ctx, "exp:a", "1", 0)
		rc.Set(ctx, "exp:b", "1", time.Hour)
		rc.Get(ctx, "exp:a")
		rc.Get(ctx, "exp:none")
		rc.Do(ctx, "SELECT", "1")
		c := s.RawConn(t)
		c.Do("SELECT", "1")
		c.Do("SET", "exp:c", "1")
		c.Do("INCR", "exp:c")
		c.Do("INCRBYFLOAT", "exp:c", "x") // an error reply: errorstats
	}
	kvExp := startExporter(t, bin, kv)
	refExp := startExporter(t, bin, ref)
	// Two scrapes: the second sees the first's commands in commandstats.
	kvExp.scrape(t)
	refExp.scrape(t)
	kvSeries, refSeries := kvExp.scrape(t), refExp.scrape(t)
	kvNames, kvValues := familyShapes(kvSeries)
	refNames, refValues := familyShapes(refSeries)

	var missing, stale []string
	for fam, labels := range refNames {
		_, out := exporterRedisOnly[fam]
		kvLabels, ok := kvNames[fam]
		switch {
		case !ok && !out:
			missing = append(missing, fam)
		case ok && out:
			stale = append(stale, fam)
		case ok && !slices.Equal(kvLabels, labels):
			t.Errorf("%s: labels %v, redis-server's %v", fam, kvLabels, labels)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing) > 0 {
		t.Errorf("series redis-server has and kvserver lacks, not listed: %v", missing)
	}
	if len(stale) > 0 {
		t.Errorf("listed as not backed but kvserver exports them now: update exporterRedisOnly: %v", stale)
	}
	for _, fam := range exporterLabelValues {
		if !slices.Equal(kvValues[fam], refValues[fam]) {
			t.Errorf("%s: %v, redis-server's %v", fam, kvValues[fam], refValues[fam])
		}
	}
	// The exporter reached kvserver: redis_up is 1.
	if !strings.Contains(scrapeText(t, kvExp), "\nredis_up 1\n") {
		t.Error("redis_up is not 1 for kvserver")
	}

	// The exporter ran the same commands on both: kvserver knows every one of them.
	for _, line := range strings.Split(kvExp.out.String(), "\n") {
		if !strings.Contains(line, "unknown command") {
			continue
		}
		t.Errorf("the exporter logged for kvserver: %s", line)
	}
	t.Logf("families: kvserver %d, redis-server %d; series: kvserver %d, redis-server %d",
		len(kvNames), len(refNames), len(kvSeries), len(refSeries))
}

// scrapeText is one scrape's whole text.
func scrapeText(t *testing.T, e *exporter) string {
	t.Helper()
	resp, err := http.Get(e.url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
