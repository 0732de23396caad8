package adapter

import (
	"bytes"
	"encoding/json"
	"slices"
)

// topLevel reads the fields keys of the JSON object data, raw, without
// decoding its other values, which may nest deeper than any decoder
// allows or be cut short: what can still be learnt of an input that does
// not decode. Reading stops at the first error, keeping what it read. A
// key given twice with different values is left out: which one counts
// would depend on the reader.
func topLevel(data []byte, keys ...string) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	twice := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return out
	}
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			break
		}
		if !slices.Contains(keys, key) {
			if skipValue(dec) != nil {
				break
			}
			continue
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			break
		}
		if old, seen := out[key]; seen && !bytes.Equal(old, raw) {
			twice[key] = true
		}
		out[key] = raw
	}
	for key := range twice {
		delete(out, key)
	}
	return out
}

// skipValue reads one value token by token: unlike Decode, it has no
// nesting limit, and it keeps nothing of what it reads.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
