package stdlib

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DecodeObject decodes JSON text holding exactly one object into neutral
// values: whole numbers that fit become int64, other numbers float64, and
// nesting is bounded by MaxDepth. It is the one decoder of an object that
// comes as text — an event's payload, or a tool's arguments sent as the
// model's JSON text — so that hooks see the same values whichever way the
// object reached them. Errors name the byte where the text went wrong.
func DecodeObject(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(err, data)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("invalid JSON: more data after the object at byte %d", dec.InputOffset()+1)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("want a JSON object, got %s", jsonKind(v))
	}
	n, err := Normalize(v)
	if errors.Is(err, ErrTooDeep) {
		return nil, errNestsTooDeep // where it nests too deep says nothing more
	}
	if err != nil {
		return nil, err
	}
	return n.(map[string]any), nil
}

var errNestsTooDeep = fmt.Errorf("nests deeper than %d levels", MaxDepth)

// jsonError describes a decoding error with its byte offset.
func jsonError(err error, data []byte) error {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn) && strings.Contains(syn.Error(), "exceeded max depth"):
		return errNestsTooDeep
	case errors.As(err, &syn):
		return fmt.Errorf("invalid JSON at byte %d: %v", syn.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("invalid JSON: unexpected end after %d bytes", len(data))
	}
	return fmt.Errorf("invalid JSON: %v", err)
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}
