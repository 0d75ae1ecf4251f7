package server

import "testing"

// TestInstantMetric: the rate of a counter, averaged over the last opsSamples samples, as
// Redis's trackInstantaneousMetric (instantaneous_ops_per_sec, _input_kbps, _output_kbps).
func TestInstantMetric(t *testing.T) {
	var m instantMetric
	m.last = 1000
	// 1000 more in 0.1 s: 10000 a second, one sample of 16.
	if got := m.sample(2000, 0.1); got != 10000/opsSamples {
		t.Errorf("after one sample: %d, want %d", got, 10000/opsSamples)
	}
	for i := 1; i < opsSamples; i++ {
		m.sample(2000+int64(i)*1000, 0.1)
	}
	if got := m.sample(2000+opsSamples*1000, 0.1); got != 10000 {
		t.Errorf("steady 10000/s: %d", got)
	}
	// Idle: the mean falls as idle samples replace busy ones.
	for i := 0; i < opsSamples/2; i++ {
		m.sample(2000+opsSamples*1000, 0.1)
	}
	if got := m.sample(2000+opsSamples*1000, 0.1); got != 10000*(opsSamples/2-1)/opsSamples {
		t.Errorf("half idle: %d, want %d", got, 10000*(opsSamples/2-1)/opsSamples)
	}
}
