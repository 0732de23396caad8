package log

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/hookhost/hookhost/stdlib"
)

// encode writes v as compact JSON with sorted keys, giving up once the
// text passes max bytes: a script can pass a list of a million elements,
// and the log keeps only the first max bytes of it anyway. Values outside
// the neutral set are written as their type name in angle brackets.
// The marker of a cut carries no byte count: encoding stopped early, so
// the full length is unknown.
func encode(v any, max int) string {
	e := &encoder{max: max}
	e.value(v)
	if !e.full() {
		return e.b.String()
	}
	return prefix(e.b.String(), max) + "…[truncated]"
}

type encoder struct {
	b   bytes.Buffer
	max int
}

// full reports whether the text has passed its bound. Every container
// writes a byte before descending, so this also bounds the recursion.
func (e *encoder) full() bool { return e.b.Len() > e.max }

func (e *encoder) value(v any) {
	if e.full() {
		return
	}
	switch v := v.(type) {
	case nil:
		e.b.WriteString("null")
	case bool:
		e.b.WriteString(strconv.FormatBool(v))
	case int64:
		e.b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		e.b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	case string:
		e.string(v)
	case []any:
		e.list(v)
	case map[string]any:
		e.object(v)
	default:
		e.b.WriteString("<" + stdlib.TypeName(v) + ">")
	}
}

// string quotes s, cutting it first so that a huge string costs no more
// than the room left. HTML characters stay as they are: this is a log,
// not a web page.
func (e *encoder) string(s string) {
	if room := e.max - e.b.Len() + 1; len(s) > room {
		s = s[:room]
	}
	enc := json.NewEncoder(&e.b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	e.b.Truncate(e.b.Len() - 1) // Encode ends with a newline
}

func (e *encoder) list(l []any) {
	e.b.WriteByte('[')
	for i, x := range l {
		if e.full() {
			return
		}
		if i > 0 {
			e.b.WriteByte(',')
		}
		e.value(x)
	}
	e.b.WriteByte(']')
}

func (e *encoder) object(m map[string]any) {
	e.b.WriteByte('{')
	for i, k := range stdlib.SortedKeys(m) {
		if e.full() {
			return
		}
		if i > 0 {
			e.b.WriteByte(',')
		}
		e.string(k)
		e.b.WriteByte(':')
		e.value(m[k])
	}
	e.b.WriteByte('}')
}
