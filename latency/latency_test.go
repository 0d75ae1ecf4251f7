package latency

import (
	"fmt"
	"strings"
	"testing"
)

// Reference renderings, printed by Redis 7.2's sparkline.c (sparklineRender(…, 80, 4,
// SPARKLINE_FILL)) for the same samples and labels.
const (
	sparkTen = "       #  \n       |_ \n   __  || \n_o_||_o||_\n          \n9873251510\n500mm92sss\nsss  ss   \n"
	sparkOne = " \n \n \n_\n \n7\ns\n"
	sparkTwo = "   #  o  _   #  o  _      #  o  _   #  o  _      #  o  _   #  o  _      #  o  _ \n  o| _|  |  #| o| _|  #  o| _|  |  #| o| _|  #  o| _|  |  #| o| _|  #  o| _|  | \n _|| || #| o||_|| || o| _|| || #| o||_|| || o| _|| || #| o||_|| || o| _|| || #| \n_|||#||o||_||||||#||o||_|||#||o||_||||||#||o||_|||#||o||_||||||#||o||_|||#||o||_\n                                                                                \n01234567891111111111222222222233333333334444444444555555555566666666667777777777\nssssssssss0123456789012345678901234567890123456789012345678901234567890123456789\n          ssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss\n\n  #  \n #| o\no||_|\n|||||\n     \n88888\n01234\nsssss\n"
)

func render(values []float64, labels []string) string {
	var s sparkline
	for i, v := range values {
		s.add(v, labels[i])
	}
	var b strings.Builder
	s.render(&b, graphCols, 4)
	return b.String()
}

func TestSparklineMatchesRedis(t *testing.T) {
	if got := render([]float64{5, 12, 7, 30, 30, 2, 18, 100, 55, 5},
		[]string{"95s", "80s", "70s", "3m", "2m", "59s", "12s", "5s", "1s", "0s"}); got != sparkTen {
		t.Errorf("ten samples:\n%s\nwant\n%s", got, sparkTen)
	}
	if got := render([]float64{250}, []string{"7s"}); got != sparkOne {
		t.Errorf("one sample: %q, want %q", got, sparkOne)
	}
	var vs []float64
	var ls []string
	for i := 0; i < 85; i++ {
		vs = append(vs, float64(i*7%23))
		ls = append(ls, fmt.Sprintf("%ds", i))
	}
	if got := render(vs, ls); got != sparkTwo {
		t.Errorf("85 samples (two ranges):\n%s\nwant\n%s", got, sparkTwo)
	}
}

// fakeClock returns a monitor whose clock is *now.
func fakeClock(now *int64) *Monitor {
	m := New()
	m.now = func() int64 { return *now }
	return m
}

func TestMonitorSamples(t *testing.T) {
	now := int64(1_000_000)
	m := fakeClock(&now)
	m.AddSampleIfNeeded(EventCommand, 500) // off: threshold 0
	if len(m.Latest()) != 0 {
		t.Fatal("a sample while the monitor is off")
	}
	m.SetThreshold(10)
	m.AddSampleIfNeeded(EventCommand, 9) // below
	m.AddSampleIfNeeded(EventCommand, 12)
	m.AddSampleIfNeeded(EventCommand, 11) // same second, lower: kept 12
	m.AddSampleIfNeeded(EventCommand, 15) // same second, higher
	now++
	m.AddSampleIfNeeded(EventCommand, 10)
	m.AddSampleIfNeeded(EventExpireCycle, 40)
	got := fmt.Sprint(m.Latest())
	if want := "[{command 1000001 10 15} {expire-cycle 1000001 40 40}]"; got != want {
		t.Fatalf("latest %s, want %s", got, want)
	}
	h, ok := m.History(EventCommand)
	if !ok || fmt.Sprint(h) != "[[1000000 15] [1000001 10]]" {
		t.Fatalf("history %v %v", h, ok)
	}
	if _, ok := m.History("COMMAND"); ok {
		t.Fatal("history names are case-sensitive, as Redis's dict")
	}
	// 160 samples are kept, the oldest dropped.
	for i := 0; i < 200; i++ {
		now++
		m.AddSample(EventFastCommand, int64(i))
	}
	h, _ = m.History(EventFastCommand)
	if len(h) != tsLen || h[0][1] != 40 || h[tsLen-1][1] != 199 {
		t.Fatalf("history of 200 samples: %d kept, first %v, last %v", len(h), h[0], h[len(h)-1])
	}
	if n := m.Reset("EXPIRE-CYCLE", "nothing"); n != 1 {
		t.Fatalf("reset of one event: %d", n)
	}
	if n := m.Reset(); n != 2 {
		t.Fatalf("reset of all: %d", n)
	}
	if len(m.Latest()) != 0 {
		t.Fatal("events left after reset")
	}
}

func TestGraph(t *testing.T) {
	now := int64(1_000_000)
	m := fakeClock(&now)
	if _, ok := m.Graph(EventCommand); ok {
		t.Fatal("a graph without samples")
	}
	m.AddSample(EventCommand, 30)
	now += 5
	m.AddSample(EventCommand, 100)
	now += 65
	g, ok := m.Graph(EventCommand)
	want := "command - high 100 ms, low 30 ms (all time high 100 ms)\n" + strings.Repeat("-", 80) + "\n" +
		render([]float64{30, 100}, []string{"1m", "1m"})
	if !ok || g != want {
		t.Fatalf("graph:\n%s\nwant\n%s", g, want)
	}
}

func TestDoctor(t *testing.T) {
	now := int64(1_000_000)
	m := fakeClock(&now)
	if got := m.Doctor(10000, 10); !strings.HasPrefix(got, "I'm sorry, Dave, I can't do that. Latency monitoring is disabled") {
		t.Fatalf("disabled: %q", got)
	}
	m.SetThreshold(5)
	if got := m.Doctor(10000, 10); !strings.HasPrefix(got, "Dave, no latency spike was observed") && !strings.Contains(got, "anonymous huge pages") {
		t.Fatalf("no events: %q", got)
	}
	m.AddSample(EventCommand, 20)
	now += 2
	m.AddSample(EventCommand, 40)
	now += 2
	got := m.Doctor(10000, 10)
	for _, want := range []string{
		"Dave, I have observed latency spikes in this Redis instance. You don't mind talking about it, do you Dave?\n\n",
		"1. command: 2 latency spikes (average 30ms, mean deviation 10ms, period 2.00 sec). Worst all time event 40ms.\n",
		"\nI have a few advices for you:\n\n",
		"- Your current Slow Log configuration only logs events that are slower than your configured latency monitor threshold. Please use 'CONFIG SET slowlog-log-slower-than 5000'.\n",
		"- Check your Slow Log to understand",
		"- Deleting, expiring or evicting",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("doctor lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "'hz'") {
		t.Errorf("hz advice without an expire-cycle event:\n%s", got)
	}
	m.AddSample(EventExpireCycle, 7)
	if got := m.Doctor(-1, 10); !strings.Contains(got, "'CONFIG SET slowlog-log-slower-than 5000'. If the Slow log is disabled") ||
		!strings.Contains(got, "'CONFIG SET hz 100'") {
		t.Errorf("slow log off, expire cycle at hz 10:\n%s", got)
	}
	if got := m.Doctor(1000, 100); strings.Contains(got, "'CONFIG SET hz 100'") || strings.Contains(got, "Your current Slow Log configuration") {
		t.Errorf("hz 100 and a slow log below the threshold need no such advice:\n%s", got)
	}
}
