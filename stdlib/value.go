package stdlib

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxDepth is how deeply neutral values may nest: a list or map inside a
// list or map counts one level. Conversions and Check refuse anything
// deeper, so hostile input cannot exhaust the Go stack.
const MaxDepth = 512

// ErrTooDeep is returned (wrapped) for a value nested past MaxDepth.
var ErrTooDeep = fmt.Errorf("value nests deeper than %d levels", MaxDepth)

// Check reports whether v is a neutral value: nil, bool, int64, float64
// (finite), string, []any or map[string]any, nested at most MaxDepth
// levels. The error names the path of the first offending element
// ("params.args[2]"). A valid value costs no allocation: the path is only
// built for an error, on the way out.
func Check(v any) error {
	if err := check(v, 0); err != nil {
		return fmt.Errorf("%s: %w", PathName(err.path), err.err)
	}
	return nil
}

// CheckField is Check of a map's field: what Check(map[string]any{key:
// v}) reports, without the map. A caller that knows some fields of a map
// are checked elsewhere checks the others with it.
func CheckField(key string, v any) error {
	if err := check(v, 1); err != nil {
		err.under(key)
		return fmt.Errorf("%s: %w", PathName(err.path), err.err)
	}
	return nil
}

// checkError is an error found at a path, built as check unwinds.
type checkError struct {
	path string
	err  error
}

// under prefixes the path with a map key or a list index ("[2]").
func (e *checkError) under(segment string) *checkError {
	if e.path == "" || e.path[0] == '[' {
		e.path = segment + e.path
	} else {
		e.path = segment + "." + e.path
	}
	return e
}

func check(v any, depth int) *checkError {
	switch v := v.(type) {
	case nil, bool, int64, string:
		return nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &checkError{err: fmt.Errorf("%v cannot be represented", v)}
		}
		return nil
	case []any:
		if depth >= MaxDepth {
			return &checkError{err: ErrTooDeep}
		}
		for i, e := range v {
			if err := check(e, depth+1); err != nil {
				return err.under("[" + strconv.Itoa(i) + "]")
			}
		}
		return nil
	case map[string]any:
		if depth >= MaxDepth {
			return &checkError{err: ErrTooDeep}
		}
		for k, e := range v {
			if err := check(e, depth+1); err != nil {
				return err.under(k)
			}
		}
		return nil
	default:
		return &checkError{err: fmt.Errorf("%T is not a neutral value (want nil, bool, int64, float64, string, []any or map[string]any)", v)}
	}
}

// PathName names the place of an element inside a value for messages:
// the path ("params.args[2]"), or "value" for the value itself. A step
// repeated many times in a row is written once with its count
// ("v[1]×510" for 510 steps into a first element), so that the path of
// something nested hundreds of levels deep still reads as one short line.
func PathName(path string) string {
	if path == "" {
		return "value"
	}
	return abbreviate(compactPath(path), maxPathName)
}

// maxPathName is the longest path PathName writes: a payload's keys are
// anyone's, and one key of megabytes must not make a message of
// megabytes.
const maxPathName = 256

// Abbreviate shortens text that a message quotes (a number, a key, a
// value from a payload): past 32 bytes, its first 32 and "…".
func Abbreviate(s string) string { return abbreviate(s, 32) }

// abbreviate keeps the first n bytes of s, cut at a character boundary,
// and marks the cut with "…".
func abbreviate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// minRun is how many equal steps in a row compactPath folds into one.
const minRun = 4

// compactPath folds runs of at least minRun equal steps of a path. A step
// is a map key (with the dot before it) or a list index in brackets.
func compactPath(path string) string {
	steps := pathSteps(path)
	if len(steps) < minRun {
		return path
	}
	var b strings.Builder
	for i := 0; i < len(steps); {
		j := i + 1
		for j < len(steps) && steps[j] == steps[i] {
			j++
		}
		if n := j - i; n >= minRun {
			fmt.Fprintf(&b, "%s×%d", steps[i], n)
		} else {
			b.WriteString(strings.Repeat(steps[i], n))
		}
		i = j
	}
	return b.String()
}

// pathSteps splits a path before each "." and "[" (the first key has no
// dot). A key that itself holds a dot or a bracket splits too; that only
// changes how runs are found, never the text written back.
func pathSteps(path string) []string {
	var steps []string
	start := 0
	for i := 1; i < len(path); i++ {
		if path[i] == '.' || path[i] == '[' {
			steps = append(steps, path[start:i])
			start = i
		}
	}
	return append(steps, path[start:])
}

// PathKey extends a path by a map key: "params" and "command" give
// "params.command".
func PathKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Copy returns a deep copy of the neutral value v. Scalars are returned
// as they are; lists and maps are copied at every level, and a Record
// becomes the map it stands for.
func Copy(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = Copy(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = Copy(e)
		}
		return out
	case Record: // a module's result (record.go): the map it stands for
		return v.Map()
	default:
		return v
	}
}

// Equal reports whether two neutral values are equal. Numbers compare by
// value across int64 and float64 (1 == 1.0); a list never equals a map.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool, string:
		return a == b
	case int64:
		switch b := b.(type) {
		case int64:
			return a == b
		case float64:
			return float64(a) == b
		}
		return false
	case float64:
		switch b := b.(type) {
		case int64:
			return a == float64(b)
		case float64:
			return a == b
		}
		return false
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !Equal(a[i], bl[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// SortedKeys returns m's keys in byte order, for deterministic output.
func SortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ParseDuration reads a duration as scripts and config write it: a Go
// duration string ("250ms", "1m30s") or a number of milliseconds. It
// rejects negative durations.
func ParseDuration(v any) (time.Duration, error) {
	var d time.Duration
	switch v := v.(type) {
	case string:
		var err error
		d, err = time.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			return 0, fmt.Errorf("bad duration %q (want e.g. \"250ms\", \"2s\", or milliseconds)", v)
		}
	case int64:
		if v > math.MaxInt64/int64(time.Millisecond) {
			return 0, fmt.Errorf("duration %d ms is too long", v)
		}
		d = time.Duration(v) * time.Millisecond
	case float64:
		if math.IsNaN(v) || v > float64(math.MaxInt64/int64(time.Millisecond)) {
			return 0, fmt.Errorf("bad duration %v ms", v)
		}
		d = time.Duration(v * float64(time.Millisecond))
	default:
		return 0, fmt.Errorf("bad duration: want a string such as \"250ms\" or milliseconds, got %s", TypeName(v))
	}
	if d < 0 {
		return 0, errors.New("duration must not be negative")
	}
	return d, nil
}

// Duration returns argument i as a duration (see ParseDuration).
func (c *Call) Duration(i int) (time.Duration, error) {
	d, err := ParseDuration(c.arg(i))
	if err != nil {
		return 0, c.argError(i, "%v", err)
	}
	return d, nil
}

// OptDuration returns argument i as a duration, or def when it is absent.
func (c *Call) OptDuration(i int, def time.Duration) (time.Duration, error) {
	if !c.Present(i) {
		return def, nil
	}
	return c.Duration(i)
}
