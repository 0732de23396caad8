package time

import (
	"fmt"
	"strings"
	stdtime "time"

	"github.com/hookhost/hookhost/stdlib"
)

// MaxLayout is the longest layout format accepts, in bytes. It bounds the
// size of the string format builds.
const MaxLayout = 128

// namedLayout returns the Go layout of one of format's named layouts.
func namedLayout(name string) (string, bool) {
	switch strings.ToLower(name) {
	case "rfc3339":
		return stdtime.RFC3339, true
	case "rfc3339ms":
		return "2006-01-02T15:04:05.000Z07:00", true
	case "date":
		return stdtime.DateOnly, true
	case "time":
		return stdtime.TimeOnly, true
	case "datetime":
		return stdtime.DateTime, true
	}
	return "", false
}

const layoutNames = `"rfc3339", "rfc3339ms", "date", "time" or "datetime"`

// New returns the time module reading the clock now, or the system clock
// when now is nil. The host passes its own clock so that tests can fix it.
func New(now func() stdtime.Time) stdlib.Module {
	if now == nil {
		now = stdtime.Now
	}
	m := &module{now: now}
	return stdlib.Module{
		Name: "time",
		Doc:  "the host's clock, durations and timestamps in Unix milliseconds",
		Funcs: []stdlib.Func{
			{Name: "now", Impl: m.nowImpl,
				Doc: "the current time in Unix milliseconds"},
			{Name: "parse_duration", Params: []stdlib.Param{stdlib.P("d")}, Impl: parseDuration,
				Doc: `a duration ("1m30s", or milliseconds) in milliseconds`},
			{Name: "since", Params: []stdlib.Param{stdlib.P("t")}, Impl: m.since,
				Doc: "milliseconds elapsed since t (Unix milliseconds)"},
			{Name: "format", Params: []stdlib.Param{stdlib.P("t"), stdlib.Opt("layout")}, Impl: format,
				Doc: "t (Unix milliseconds) as UTC text, RFC 3339 by default"},
		},
	}
}

// module holds what the functions share: only the injected clock.
type module struct {
	now func() stdtime.Time
}

func (m *module) nowImpl(*stdlib.Call) (any, error) {
	return m.now().UnixMilli(), nil
}

func parseDuration(c *stdlib.Call) (any, error) {
	d, err := c.Duration(0)
	if err != nil {
		return nil, err
	}
	return d.Milliseconds(), nil
}

func (m *module) since(c *stdlib.Call) (any, error) {
	t, err := c.Int(0)
	if err != nil {
		return nil, err
	}
	now := m.now().UnixMilli()
	d := now - t
	// Subtraction overflows only when the signs differ; scripts can pass
	// any integer, so check rather than wrap around.
	if (t < 0 && d < now) || (t > 0 && d > now) {
		return nil, fmt.Errorf("t = %d is out of range", t)
	}
	return d, nil
}

func format(c *stdlib.Call) (any, error) {
	t, err := c.Int(0)
	if err != nil {
		return nil, err
	}
	layout, err := c.OptString(1, "rfc3339")
	if err != nil {
		return nil, err
	}
	goLayout, err := resolveLayout(layout)
	if err != nil {
		return nil, err
	}
	return stdtime.UnixMilli(t).UTC().Format(goLayout), nil
}

// resolveLayout maps a named layout to its Go layout and checks a Go
// layout. A misspelt name would otherwise be printed nearly verbatim as a
// Go layout, so a word that looks like a name ("rfc339": lower-case
// letters and digits) must be a known one, and a layout that formats two
// unrelated instants alike, having no time fields, is refused.
func resolveLayout(layout string) (string, error) {
	if l, ok := namedLayout(layout); ok {
		return l, nil
	}
	if looksLikeName(layout) {
		return "", fmt.Errorf("unknown layout %q (want %s, or a Go layout such as \"2006-01-02 15:04\")",
			layout, layoutNames)
	}
	if len(layout) > MaxLayout {
		return "", fmt.Errorf("layout is %d bytes, longer than %d", len(layout), MaxLayout)
	}
	// The probes differ in every field a layout can show, AM/PM and
	// weekday included.
	a := stdtime.Date(1999, 12, 31, 23, 59, 58, 123e6, stdtime.UTC)
	b := stdtime.Date(2001, 2, 3, 4, 5, 6, 789e6, stdtime.UTC)
	if a.Format(layout) == b.Format(layout) {
		return "", fmt.Errorf("layout %q has no time fields (want %s, or a Go layout such as \"2006-01-02 15:04\")",
			layout, layoutNames)
	}
	return layout, nil
}

// looksLikeName reports whether s is a lower-case word such as "rfc3339".
// No useful Go layout is one: Go's lower-case fields are only "pm".
func looksLikeName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}
