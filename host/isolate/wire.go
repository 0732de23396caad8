package isolate

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// Messages on the wire. Each message is a struct whose wire method names
// its fields once, for both directions: encoding, a fields value copies
// them into a map of neutral values (codec.go); decoding, it reads them
// back, and a field that is missing, has the wrong kind or that the
// message does not declare is an error, never a zero value. The map also
// carries the message's kind under "op".

// A message is one frame's content.
type message interface {
	// op is the message's kind on the wire.
	op() string
	// wire visits the message's fields (see fields).
	wire(f *fields)
}

// opKey is the key of a message's kind in its frame.
const opKey = "op"

// errProtocol is the cause of every message that breaks the protocol:
// an unknown kind, a missing, unknown or mistyped field.
var errProtocol = errors.New("a message between the host and a worker breaks the protocol")

// fields visits a message's fields: it encodes them into enc, or, when
// dec is set, decodes them from dec, recording the first error.
type fields struct {
	enc  map[string]any
	dec  map[string]any
	seen int    // fields of dec read
	path string // where in the message, for errors ("call.error.")
	err  error
}

// field encodes v under key, or returns what dec holds under key, with
// ok false (and the error recorded) when it is missing.
func (f *fields) field(key string, v any) (any, bool) {
	if f.dec == nil {
		f.enc[key] = v
		return nil, false
	}
	got, ok := f.dec[key]
	if !ok {
		f.fail("field %s%s is missing", f.path, key)
		return nil, false
	}
	f.seen++
	return got, f.err == nil
}

func (f *fields) fail(format string, args ...any) {
	if f.err == nil {
		f.err = fmt.Errorf("%w: "+format, append([]any{errProtocol}, args...)...)
	}
}

// mistyped records a field whose value has the wrong kind.
func (f *fields) mistyped(key, want string, got any) {
	f.fail("field %s%s is %s, want %s", f.path, key, kindName(got), want)
}

func (f *fields) str(key string, p *string) {
	if v, ok := f.field(key, *p); ok {
		if s, isStr := v.(string); isStr {
			*p = s
		} else {
			f.mistyped(key, "a string", v)
		}
	}
}

func (f *fields) boolean(key string, p *bool) {
	if v, ok := f.field(key, *p); ok {
		if b, isBool := v.(bool); isBool {
			*p = b
		} else {
			f.mistyped(key, "a boolean", v)
		}
	}
}

// integer visits an integer field of any signed integer type.
func integer[T ~int | ~int64](f *fields, key string, p *T) {
	if v, ok := f.field(key, int64(*p)); ok {
		if n, isInt := v.(int64); isInt && int64(T(n)) == n {
			*p = T(n)
		} else {
			f.mistyped(key, "an integer", v)
		}
	}
}

// unsigned visits a uint64 field; it travels as an int64, so values past
// MaxInt64 are refused on encoding.
func (f *fields) unsigned(key string, p *uint64) {
	n := int64(*p)
	if f.dec == nil && n < 0 {
		f.fail("field %s%s is %d, past the wire's integers", f.path, key, *p)
	}
	integer(f, key, &n)
	if f.dec != nil && f.err == nil {
		if n < 0 {
			f.mistyped(key, "a non-negative integer", n)
			return
		}
		*p = uint64(n)
	}
}

func (f *fields) duration(key string, p *time.Duration) { integer(f, key, p) }

// value visits a field that is any neutral value (nil included).
func (f *fields) value(key string, p *any) {
	if v, ok := f.field(key, *p); ok {
		*p = v
	}
}

// dict visits a map of neutral values; it is never nil once decoded.
func (f *fields) dict(key string, p *map[string]any) {
	var enc any = *p
	if *p == nil {
		enc = map[string]any{}
	}
	if v, ok := f.field(key, enc); ok {
		if m, isMap := v.(map[string]any); isMap {
			*p = m
		} else {
			f.mistyped(key, "a map", v)
		}
	}
}

func (f *fields) strs(key string, p *[]string) {
	enc := *p
	if enc == nil {
		enc = []string{}
	}
	v, ok := f.field(key, enc)
	if !ok {
		return
	}
	list, isList := v.([]any)
	if !isList {
		f.mistyped(key, "a list of strings", v)
		return
	}
	out := make([]string, len(list))
	for i, e := range list {
		s, isStr := e.(string)
		if !isStr {
			f.mistyped(fmt.Sprintf("%s[%d]", key, i), "a string", e)
			return
		}
		out[i] = s
	}
	*p = out
}

// A wirer is a struct that visits its fields, nested in a message.
type wirer[T any] interface {
	*T
	wire(f *fields)
}

// object visits a nested struct.
func object[T any, P wirer[T]](f *fields, key string, p *T) {
	if f.dec == nil {
		f.enc[key] = encodeFields(P(p))
		return
	}
	if v, ok := f.field(key, nil); ok {
		f.nested(key, v, P(p))
	}
}

// objects visits a list of nested structs; it is never nil once decoded.
func objects[T any, P wirer[T]](f *fields, key string, p *[]T) {
	if f.dec == nil {
		list := make([]any, len(*p))
		for i := range *p {
			list[i] = encodeFields(P(&(*p)[i]))
		}
		f.enc[key] = list
		return
	}
	v, ok := f.field(key, nil)
	if !ok {
		return
	}
	list, isList := v.([]any)
	if !isList {
		f.mistyped(key, "a list", v)
		return
	}
	out := make([]T, len(list))
	for i, e := range list {
		f.nested(fmt.Sprintf("%s[%d]", key, i), e, P(&out[i]))
	}
	if f.err == nil {
		*p = out
	}
}

// nested decodes v, which must be a map, into w.
func (f *fields) nested(key string, v any, w interface{ wire(*fields) }) {
	m, isMap := v.(map[string]any)
	if !isMap {
		f.mistyped(key, "a map", v)
		return
	}
	if err := decodeFields(m, w, f.path+key+"."); err != nil && f.err == nil {
		f.err = err
	}
}

// encodeFields is w's fields as a map.
func encodeFields(w interface{ wire(*fields) }) map[string]any {
	f := &fields{enc: map[string]any{}}
	w.wire(f)
	return f.enc
}

// decodeFields fills w from m: every field w declares must be there with
// its kind, and m must hold nothing else.
func decodeFields(m map[string]any, w interface{ wire(*fields) }, path string) error {
	f := &fields{dec: m, path: path}
	w.wire(f)
	if f.err == nil && f.seen != len(m) {
		known := encodeFields(w)
		var unknown []string
		for k := range m {
			if _, ok := known[k]; !ok {
				unknown = append(unknown, path+k)
			}
		}
		sort.Strings(unknown)
		f.fail("unknown field %s", strings.Join(unknown, ", "))
	}
	return f.err
}

// kindName names a neutral value's kind, for errors.
func kindName(v any) string {
	switch v.(type) {
	case nil:
		return "nil"
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "a map"
	}
	return fmt.Sprintf("%T", v)
}

// encodeMessage is msg as a map, its kind included.
func encodeMessage(msg message) map[string]any {
	m := encodeFields(msg)
	m[opKey] = msg.op()
	return m
}

// decodeMessage turns a frame's map into the message of its kind; kinds
// returns a new message of a kind this side accepts, or nil. It takes m
// over.
func decodeMessage(m map[string]any, kinds func(op string) message) (message, error) {
	op, isStr := m[opKey].(string)
	if !isStr {
		return nil, fmt.Errorf("%w: a message without a kind (field op)", errProtocol)
	}
	msg := kinds(op)
	if msg == nil {
		return nil, fmt.Errorf("%w: unknown message %q", errProtocol, op)
	}
	delete(m, opKey) // the map is the frame's own, decoded for this
	if err := decodeFields(m, msg, op+"."); err != nil {
		return nil, err
	}
	return msg, nil
}

// writeMessage writes msg as one frame.
func writeMessage(w io.Writer, msg message) error {
	return writeFrame(w, encodeMessage(msg))
}

// readMessage reads one frame and decodes it as a message kinds accepts.
func readMessage(r io.Reader, kinds func(op string) message) (message, error) {
	m, err := readFrame(r)
	if err != nil {
		return nil, err
	}
	return decodeMessage(m, kinds)
}

// oneOf is a kinds function accepting the messages news makes.
func oneOf(news ...func() message) func(string) message {
	ops := make([]string, len(news))
	for i, n := range news {
		ops[i] = n().op()
	}
	return func(op string) message {
		if i := slices.Index(ops, op); i >= 0 {
			return news[i]()
		}
		return nil
	}
}
