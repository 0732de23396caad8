package main

import (
	"slices"
	"testing"
	"time"
)

// TestParseDuration: parseDuration reads what hookhost's flags are given
// as time.ParseDuration reads it, and refuses (for the full command to
// read or report) what it does not read.
func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{"3s", true}, {"250ms", true}, {"1m30s", true}, {"1.5h", true}, {".5s", true}, {"5.s", true},
		{"10us", true}, {"10µs", true}, {"10μs", true}, {"7ns", true}, {"2h45m0.5s", true},
		{"1.000000000000000000001s", true}, {"0.1234567890123456789012h", true},
		{"9223372036ns", true}, {"2562047h", true},
		{"", false}, {"0", false}, {"-1s", false}, {"+1s", false}, {"1", false}, {"s", false},
		{".s", false}, {"1x", false}, {"1sm", false}, {"soon", false}, {"1 s", false},
		{"2562048h", false}, {"9223372036854775808ns", false}, {"99999999999999999999s", false},
	} {
		got, ok := parseDuration(tc.text)
		if ok != tc.ok {
			t.Errorf("parseDuration(%q): ok %v, want %v", tc.text, ok, tc.ok)
		}
		if !ok {
			continue
		}
		if want, err := time.ParseDuration(tc.text); err != nil || got != int64(want) {
			t.Errorf("parseDuration(%q) = %d; time.ParseDuration: %d, %v", tc.text, got, want, err)
		}
	}
}

// FuzzParseDuration: whatever parseDuration reads, time.ParseDuration
// reads too, to the same value.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"3s", "1m30s", "1.5h", ".5s", "10µs", "0.1234567890123456789012h", "2562047h47m16.854775807s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseDuration(s)
		if !ok {
			return
		}
		want, err := time.ParseDuration(s)
		if err != nil || got != int64(want) {
			t.Errorf("parseDuration(%q) = %d; time.ParseDuration: %d, %v", s, got, want, err)
		}
	})
}

func TestSplitCmdline(t *testing.T) {
	for _, tc := range []struct {
		data string
		want []string
	}{
		{"hookhost-hook\x00claude\x00--dir\x00/p/hooks.d\x00", []string{"hookhost-hook", "claude", "--dir", "/p/hooks.d"}},
		{"h\x00\x00a b\x00", []string{"h", "", "a b"}},
		{"h\x00", []string{"h"}},
		{"h", []string{"h"}},
		{"", nil},
	} {
		if got := splitCmdline([]byte(tc.data)); !slices.Equal(got, tc.want) {
			t.Errorf("splitCmdline(%q) = %q, want %q", tc.data, got, tc.want)
		}
	}
}

func TestParseAnswerText(t *testing.T) {
	for _, tc := range []struct {
		in        string
		before    string
		after     string
		found     bool
		lower     string
		trimmed   string
		hasPrefix bool
	}{
		{"Content-Length: 12", "Content-Length", " 12", true, "content-length: 12", "Content-Length: 12", false},
		{"\t x \t", "\t x \t", "", false, "\t x \t", "x", false},
		{"-x", "-x", "", false, "-x", "-x", true},
	} {
		b, a, f := cut(tc.in, ':')
		if b != tc.before || a != tc.after || f != tc.found {
			t.Errorf("cut(%q) = %q, %q, %v", tc.in, b, a, f)
		}
		if got := lowerASCII(tc.in); got != tc.lower {
			t.Errorf("lowerASCII(%q) = %q", tc.in, got)
		}
		if got := trimSpace(tc.in); got != tc.trimmed {
			t.Errorf("trimSpace(%q) = %q", tc.in, got)
		}
		if got := hasPrefix(tc.in, "-"); got != tc.hasPrefix {
			t.Errorf("hasPrefix(%q, -) = %v", tc.in, got)
		}
	}
	if b, a, f := cutString("HTTP/1.1 200 OK\r\nA: b\r\n", "\r\n"); b != "HTTP/1.1 200 OK" || a != "A: b\r\n" || !f {
		t.Errorf("cutString: %q %q %v", b, a, f)
	}
	if got := trimSuffix("/usr/bin/hookhost-hook (deleted)", " (deleted)"); got != "/usr/bin/hookhost-hook" {
		t.Errorf("trimSuffix: %q", got)
	}
}
