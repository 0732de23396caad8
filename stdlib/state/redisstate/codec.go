package redisstate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hookhost/hookhost/stdlib"
)

// encode writes a neutral value as JSON in which every float has a point
// or an exponent and no integer has either, so that decode gives back
// the same kinds. A value was checked (stdlib.Check) before it gets here.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := appendJSON(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func appendJSON(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%v cannot be stored", v)
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		b.WriteString(s)
	case string:
		q, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.Write(q)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := appendJSON(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			q, err := json.Marshal(k)
			if err != nil {
				return err
			}
			b.Write(q)
			b.WriteByte(':')
			if err := appendJSON(b, v[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("%T is not a neutral value", v)
	}
	return nil
}

// errForeign: the text under a key is not a value hookhost wrote.
var errForeign = errors.New("not a value hookhost wrote")

// decode reads what encode wrote.
func decode(text string) (any, error) {
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var raw any
	if err := d.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: %v", errForeign, err)
	}
	if d.More() {
		return nil, fmt.Errorf("%w: text after the value", errForeign)
	}
	v, err := neutral(raw)
	if err != nil {
		return nil, err
	}
	if err := stdlib.Check(v); err != nil {
		return nil, fmt.Errorf("%w: %v", errForeign, err)
	}
	return v, nil
}

// neutral turns the decoder's json.Numbers into int64 or float64.
func neutral(v any) (any, error) {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if strings.ContainsAny(s, ".eE") {
			return strconv.ParseFloat(s, 64)
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errForeign, err)
		}
		return n, nil
	case []any:
		for i, e := range v {
			n, err := neutral(e)
			if err != nil {
				return nil, err
			}
			v[i] = n
		}
	case map[string]any:
		for k, e := range v {
			n, err := neutral(e)
			if err != nil {
				return nil, err
			}
			v[k] = n
		}
	}
	return v, nil
}
