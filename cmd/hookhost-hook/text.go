package main

// The few string functions hookhost-hook needs, so that it does not link
// package strings, whose start-up (the unicode tables' maps) it would
// pay at every run. They are ASCII-only, which is all that command-line
// flags and HTTP headers need.

func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

func trimPrefix(s, prefix string) string {
	if hasPrefix(s, prefix) {
		return s[len(prefix):]
	}
	return s
}

func trimSuffix(s, suffix string) string {
	if len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)]
	}
	return s
}

// cut is strings.Cut around the byte sep.
func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// cutString is strings.Cut.
func cutString(s, sep string) (before, after string, found bool) {
	for i := 0; i+len(sep) <= len(s); i++ {
		if s[i:i+len(sep)] == sep {
			return s[:i], s[i+len(sep):], true
		}
	}
	return s, "", false
}

// trimSpace trims the spaces and tabs HTTP allows around a header's value.
func trimSpace(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// lowerASCII lowers A to Z.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// splitCmdline splits /proc/self/cmdline: each argument ends with a NUL.
func splitCmdline(data []byte) []string {
	var args []string
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != 0 {
			i++
		}
		args = append(args, string(data[:i]))
		data = data[min(i+1, len(data)):]
	}
	return args
}

// parseDuration reads the durations hookhost's flags take, as
// time.ParseDuration does: one or more numbers, each with an optional
// fraction and a unit (ns, us, µs, ms, s, m, h), such as "1.5s" or
// "1m30s". ok is false for anything else — a sign, a bare number, an
// overflow — which main hands to the full command, whose
// time.ParseDuration then reads or reports it; where both read a text,
// they read the same value (TestParseDuration).
func parseDuration(s string) (nanos int64, ok bool) {
	if s == "" {
		return 0, false
	}
	const maxNanos = 1<<63 - 1
	var total uint64
	for s != "" {
		var whole, frac uint64
		scale := 1.0
		i := 0
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			if whole > (maxNanos-9)/10 {
				return 0, false
			}
			whole = whole*10 + uint64(s[i]-'0')
		}
		digits := i
		if i < len(s) && s[i] == '.' {
			// The fraction's digits past what a uint64 holds are read
			// and dropped, as time.ParseDuration drops them.
			full := false
			for i++; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
				digits++
				if full = full || frac > maxNanos/10; !full {
					if y := frac*10 + uint64(s[i]-'0'); y > 1<<63 {
						full = true
					} else {
						frac, scale = y, scale*10
					}
				}
			}
		}
		if digits == 0 {
			return 0, false
		}
		s = s[i:]
		j := 0
		for j < len(s) && s[j] != '.' && (s[j] < '0' || s[j] > '9') {
			j++
		}
		var unit uint64
		switch s[:j] {
		case "ns":
			unit = 1
		case "us", "µs", "μs":
			unit = 1e3
		case "ms":
			unit = 1e6
		case "s":
			unit = 1e9
		case "m":
			unit = 60e9
		case "h":
			unit = 3600e9
		default:
			return 0, false
		}
		s = s[j:]
		if whole > maxNanos/unit {
			return 0, false
		}
		v := whole * unit
		if frac > 0 {
			v += uint64(float64(frac) * (float64(unit) / scale))
		}
		if v > maxNanos || total > maxNanos-v {
			return 0, false
		}
		total += v
	}
	return int64(total), true
}
