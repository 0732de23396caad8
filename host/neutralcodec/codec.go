package neutralcodec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

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

// MaxDepth bounds nesting, encoding and decoding: a payload's own bound
// (512) and a few levels for the messages that carry one.
const MaxDepth = 512 + 4

// ErrCorrupt is what Decode returns for bytes that no neutral value
// encodes to.
var ErrCorrupt = errors.New("corrupt encoding of a value")

// ErrTooDeep is what Append returns for a value nested past MaxDepth.
var ErrTooDeep = errors.New("a value nests too deeply to be encoded")

// Append appends the encoding of the neutral value v to b.
func Append(b []byte, v any) ([]byte, error) {
	return appendValue(b, v, 0)
}

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
		return appendString(append(b, tagString), v), nil
	case []any:
		return appendList(b, v, depth)
	case []string:
		b = binary.AppendUvarint(append(b, tagList), uint64(len(v)))
		for _, s := range v {
			b = appendString(append(b, tagString), s)
		}
		return b, nil
	case map[string]any:
		return appendMap(b, v, depth)
	}
	return nil, fmt.Errorf("%T is not a neutral value", v)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendList(b []byte, v []any, depth int) ([]byte, error) {
	if depth >= MaxDepth {
		return nil, ErrTooDeep
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

// appendMap writes the keys sorted, so that equal maps encode to equal
// bytes.
func appendMap(b []byte, v map[string]any, depth int) ([]byte, error) {
	if depth >= MaxDepth {
		return nil, ErrTooDeep
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = binary.AppendUvarint(append(b, tagMap), uint64(len(v)))
	var err error
	for _, k := range keys {
		b = appendString(b, k)
		if b, err = appendValue(b, v[k], depth+1); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Decode decodes the one value that fills b.
func Decode(b []byte) (any, error) {
	d := decoder{b: b}
	v, err := d.value(0)
	if err == nil && d.i != len(b) {
		err = ErrCorrupt
	}
	return v, err
}

// A decoder reads one encoded value.
type decoder struct {
	b []byte
	i int
}

func (d *decoder) value(depth int) (any, error) {
	if d.i >= len(d.b) {
		return nil, ErrCorrupt
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
			return nil, ErrCorrupt
		}
		d.i += w
		return n, nil
	case tagFloat:
		if len(d.b)-d.i < 8 {
			return nil, ErrCorrupt
		}
		f := math.Float64frombits(binary.BigEndian.Uint64(d.b[d.i:]))
		d.i += 8
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, ErrCorrupt // not a neutral value
		}
		return f, nil
	case tagString:
		return d.str()
	case tagList, tagMap:
		if depth >= MaxDepth {
			return nil, ErrCorrupt
		}
		if tag == tagList {
			return d.list(depth)
		}
		return d.dict(depth)
	}
	return nil, ErrCorrupt
}

// count reads a length and checks it against what is left: every element
// takes at least one byte, so a hostile count cannot make a huge
// allocation.
func (d *decoder) count() (int, error) {
	n, w := binary.Uvarint(d.b[d.i:])
	if w <= 0 || n > uint64(len(d.b)-d.i-w) {
		return 0, ErrCorrupt
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
