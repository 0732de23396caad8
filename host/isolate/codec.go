package isolate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
)

// The wire format between a host and its workers: each message is a
// frame, a 4-byte big-endian length and that many bytes, holding one
// neutral value encoded as a tag byte and its content. Neutral values
// keep their kinds exactly (an int64 stays an int64, 2.0 stays a float),
// which JSON would not, and a message is a map of them, so one codec
// serves every message.

// Tags of the encoding.
const (
	tagNil    = 'n'
	tagFalse  = 'f'
	tagTrue   = 't'
	tagInt    = 'i' // zig-zag varint
	tagFloat  = 'd' // 8 bytes, IEEE 754 big-endian
	tagString = 's' // uvarint length, bytes
	tagList   = 'l' // uvarint count, values
	tagMap    = 'm' // uvarint count, (uvarint key length, key bytes, value) pairs, keys sorted
)

// maxFrame bounds one message, so that a worker cannot make the host
// allocate without bound by announcing a huge frame.
const maxFrame = 256 << 20

// maxWireDepth bounds nesting on the wire: a message wraps a payload or a
// return value in two levels of its own.
const maxWireDepth = 512 + 4

// errFrameTooLarge is returned for a message past maxFrame.
var errFrameTooLarge = fmt.Errorf("a message between the host and a worker is larger than %d MiB", maxFrame>>20)

// appendValue appends the encoding of a neutral value.
func appendValue(b []byte, v any, depth int) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, tagNil), nil
	case bool:
		if v {
			return append(b, tagTrue), nil
		}
		return append(b, tagFalse), nil
	case int64:
		return binary.AppendVarint(append(b, tagInt), v), nil
	case int:
		return binary.AppendVarint(append(b, tagInt), int64(v)), nil
	case float64:
		return binary.BigEndian.AppendUint64(append(b, tagFloat), math.Float64bits(v)), nil
	case string:
		return append(binary.AppendUvarint(append(b, tagString), uint64(len(v))), v...), nil
	case []any:
		return appendList(b, v, depth)
	case []string:
		b = binary.AppendUvarint(append(b, tagList), uint64(len(v)))
		for _, s := range v {
			b = append(binary.AppendUvarint(append(b, tagString), uint64(len(s))), s...)
		}
		return b, nil
	case map[string]any:
		return appendMap(b, v, depth)
	}
	return nil, fmt.Errorf("%T cannot be sent to a worker", v)
}

func appendList(b []byte, v []any, depth int) ([]byte, error) {
	if depth >= maxWireDepth {
		return nil, errors.New("a value nests too deeply to be sent to a worker")
	}
	b = binary.AppendUvarint(append(b, tagList), uint64(len(v)))
	var err error
	for _, e := range v {
		if b, err = appendValue(b, e, depth+1); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func appendMap(b []byte, v map[string]any, depth int) ([]byte, error) {
	if depth >= maxWireDepth {
		return nil, errors.New("a value nests too deeply to be sent to a worker")
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = binary.AppendUvarint(append(b, tagMap), uint64(len(v)))
	var err error
	for _, k := range keys {
		b = append(binary.AppendUvarint(b, uint64(len(k))), k...)
		if b, err = appendValue(b, v[k], depth+1); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// A decoder reads one encoded value.
type decoder struct {
	b []byte
	i int
}

var errCorrupt = errors.New("a corrupt message between the host and a worker")

// decodeValue decodes one value that must fill b.
func decodeValue(b []byte) (any, error) {
	d := decoder{b: b}
	v, err := d.value(0)
	if err == nil && d.i != len(b) {
		err = errCorrupt
	}
	return v, err
}

func (d *decoder) value(depth int) (any, error) {
	if d.i >= len(d.b) {
		return nil, errCorrupt
	}
	tag := d.b[d.i]
	d.i++
	switch tag {
	case tagNil:
		return nil, nil
	case tagFalse:
		return false, nil
	case tagTrue:
		return true, nil
	case tagInt:
		n, w := binary.Varint(d.b[d.i:])
		if w <= 0 {
			return nil, errCorrupt
		}
		d.i += w
		return n, nil
	case tagFloat:
		if len(d.b)-d.i < 8 {
			return nil, errCorrupt
		}
		f := math.Float64frombits(binary.BigEndian.Uint64(d.b[d.i:]))
		d.i += 8
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, errCorrupt // not a neutral value
		}
		return f, nil
	case tagString:
		return d.str()
	case tagList, tagMap:
		if depth >= maxWireDepth {
			return nil, errCorrupt
		}
		if tag == tagList {
			return d.list(depth)
		}
		return d.dict(depth)
	}
	return nil, errCorrupt
}

// count reads a length and checks it against what is left: every element
// takes at least one byte, so a hostile count cannot make a huge
// allocation.
func (d *decoder) count() (int, error) {
	n, w := binary.Uvarint(d.b[d.i:])
	if w <= 0 || n > uint64(len(d.b)-d.i-w) {
		return 0, errCorrupt
	}
	d.i += w
	return int(n), nil
}

func (d *decoder) str() (string, error) {
	n, err := d.count()
	if err != nil {
		return "", err
	}
	s := string(d.b[d.i : d.i+n])
	d.i += n
	return s, nil
}

func (d *decoder) list(depth int) (any, error) {
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	out := make([]any, n)
	for i := range out {
		if out[i], err = d.value(depth + 1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (d *decoder) dict(depth int) (any, error) {
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, n)
	for range n {
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		if out[k], err = d.value(depth + 1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeFrame writes one message.
func writeFrame(w io.Writer, msg map[string]any) error {
	b, err := appendValue(make([]byte, 4, 256), msg, 0)
	if err != nil {
		return err
	}
	if len(b)-4 > maxFrame {
		return errFrameTooLarge
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	_, err = w.Write(b)
	return err
}

// readFrame reads one message.
func readFrame(r io.Reader) (map[string]any, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return nil, errFrameTooLarge
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	v, err := decodeValue(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errCorrupt
	}
	return m, nil
}
