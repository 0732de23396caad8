package stdlib

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Normalize converts v, which may hold Go values decoded from JSON or
// YAML (int, int32, uint, float32, []string, map[string]string, …), into
// a neutral value, checking it as Check does. Integral values become
// int64; json.Number becomes int64 when it is whole and fits, else
// float64.
//
// It runs on every payload, and a payload's keys are anyone's: the path
// of an element is therefore written only for an error, as normalize
// unwinds, never for each element on the way in (a long key over many
// elements would otherwise cost their product).
func Normalize(v any) (any, error) {
	out, err := normalize(v, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", PathName(err.path()), err.err)
	}
	return out, nil
}

// A normalizeError is an error found inside a value, with the steps that
// lead to it from the value, innermost first, collected as normalize
// unwinds.
type normalizeError struct {
	steps []pathStep
	err   error
}

// A pathStep is a map key, or a list index when index is not negative.
type pathStep struct {
	key   string
	index int
}

func normalizeErrorf(format string, args ...any) *normalizeError {
	return &normalizeError{err: fmt.Errorf(format, args...)}
}

// in records that the error lies under step.
func (e *normalizeError) in(step pathStep) *normalizeError {
	e.steps = append(e.steps, step)
	return e
}

// path writes the steps out as PathKey and "[i]" write them.
func (e *normalizeError) path() string {
	var b strings.Builder
	for i := len(e.steps) - 1; i >= 0; i-- {
		switch s := e.steps[i]; {
		case s.index >= 0:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case b.Len() == 0:
			b.WriteString(s.key)
		default:
			b.WriteByte('.')
			b.WriteString(s.key)
		}
	}
	return b.String()
}

func normalize(v any, depth int) (any, *normalizeError) {
	if f, ok := v.(float64); ok {
		// Apart from the switch, so that v is returned as it came rather
		// than boxed again.
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, normalizeErrorf("%v cannot be represented", f)
		}
		return v, nil
	}
	switch v := v.(type) {
	case nil, bool, int64, string:
		return v, nil
	case float32:
		return normalize(float64(v), depth)
	case int:
		return int64(v), nil
	case int8:
		return int64(v), nil
	case int16:
		return int64(v), nil
	case int32:
		return int64(v), nil
	case uint:
		return normalizeUint(uint64(v))
	case uint8:
		return int64(v), nil
	case uint16:
		return int64(v), nil
	case uint32:
		return int64(v), nil
	case uint64:
		return normalizeUint(v)
	case time.Duration:
		return int64(v / time.Millisecond), nil
	case interface{ Int64() (int64, error) }: // json.Number
		if i, err := v.Int64(); err == nil {
			return i, nil
		}
		if f, ok := v.(interface{ Float64() (float64, error) }); ok {
			x, err := f.Float64()
			if err != nil {
				// strconv's error quotes the whole text, which a payload
				// can make megabytes long.
				return nil, normalizeErrorf("number %s is out of range", Abbreviate(fmt.Sprint(v)))
			}
			return normalize(x, depth)
		}
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out, nil
	case map[string]string:
		out := make(map[string]any, len(v))
		for k, s := range v {
			out[k] = s
		}
		return out, nil
	}
	return normalizeContainer(v, depth)
}

func normalizeUint(u uint64) (any, *normalizeError) {
	if u > math.MaxInt64 {
		return nil, normalizeErrorf("%d overflows int64", u)
	}
	return int64(u), nil
}

func normalizeContainer(v any, depth int) (any, *normalizeError) {
	switch v := v.(type) {
	case []any:
		if depth >= MaxDepth {
			return nil, &normalizeError{err: ErrTooDeep}
		}
		out := make([]any, len(v))
		for i, e := range v {
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err.in(pathStep{index: i})
			}
			out[i] = n
		}
		return out, nil
	case map[string]any:
		if depth >= MaxDepth {
			return nil, &normalizeError{err: ErrTooDeep}
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err.in(pathStep{key: k, index: -1})
			}
			out[k] = n
		}
		return out, nil
	case map[any]any: // YAML v2 style maps
		if depth >= MaxDepth {
			return nil, &normalizeError{err: ErrTooDeep}
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			ks, ok := k.(string)
			if !ok {
				return nil, normalizeErrorf("map key %s is not a string", Abbreviate(fmt.Sprint(k)))
			}
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err.in(pathStep{key: ks, index: -1})
			}
			out[ks] = n
		}
		return out, nil
	}
	return nil, normalizeErrorf("%T is not a neutral value (want nil, bool, int64, float64, string, []any or map[string]any)", v)
}
