package command

import (
	"testing"
	"time"
)

func TestParseTimeout(t *testing.T) {
	now := time.Now().UnixMilli()
	cases := []struct {
		arg    string
		min    int64 // the deadline is at least now+min ms (0: forever, deadline 0)
		errTxt string
	}{
		{"0", 0, ""},
		{"0.0", 0, ""},
		{"1", 1000, ""},
		{"0.1", 100, ""},
		{"0.0001", 1, ""}, // rounded up to the millisecond, as Redis's ceill
		{"-1", 0, "ERR timeout is negative"},
		{"-0.1", 0, "ERR timeout is negative"},
		{"abc", 0, "ERR timeout is not a float or out of range"},
		{" 1", 0, "ERR timeout is not a float or out of range"},
		{"1 ", 0, "ERR timeout is not a float or out of range"},
		{"", 0, "ERR timeout is not a float or out of range"},
		{"nan", 0, "ERR timeout is not a float or out of range"},
		{"inf", 0, "ERR timeout is out of range"},
		{"1e300", 0, "ERR timeout is out of range"},
		{"9223372036854775", 0, "ERR timeout is out of range"}, // ms overflow once now is added
	}
	for _, c := range cases {
		d, errTxt := ParseTimeout([]byte(c.arg))
		if errTxt != c.errTxt {
			t.Errorf("ParseTimeout(%q) error %q, want %q", c.arg, errTxt, c.errTxt)
			continue
		}
		switch {
		case errTxt != "":
		case c.min == 0 && d != 0:
			t.Errorf("ParseTimeout(%q) = %d, want 0 (forever)", c.arg, d)
		case c.min > 0 && (d < now+c.min || d > time.Now().UnixMilli()+c.min+1):
			t.Errorf("ParseTimeout(%q) = now%+d, want now+%d", c.arg, d-now, c.min)
		}
	}
}
