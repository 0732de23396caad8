package scripting

import (
	"strings"
	"testing"
)

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		err  string
	}{
		{"512MiB", 512 << 20, ""},
		{"1GiB", 1 << 30, ""},
		{"64KiB", 64 << 10, ""},
		{"100B", 100, ""},
		{"4096", 4096, ""},
		{" 2 GiB ", 2 << 30, ""},
		{"1TiB", 1 << 40, ""},
		{"0", 0, ""},
		{"512MB", 0, "want a whole number and a unit"},
		{"1.5GiB", 0, "want a whole number and a unit"},
		{"GiB", 0, "want a whole number and a unit"},
		{"", 0, "want a whole number and a unit"},
		{"-1MiB", 0, "negative"},
		{"9999999999TiB", 0, "too large"},
		{"99999999999999999999", 0, "too large"},
	} {
		got, err := ParseBytes(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseBytes(%q) = %d, %v; want an error containing %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
		if c.want > 0 {
			if back, err := ParseBytes(FormatBytes(got)); err != nil || back != got {
				t.Errorf("FormatBytes(%d) = %q does not read back: %d, %v", got, FormatBytes(got), back, err)
			}
		}
	}
}
