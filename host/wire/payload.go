package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hookhost/hookhost/stdlib"
)

// StdinPayload is the PAYLOAD argument that reads the payload from stdin.
const StdinPayload = "-"

// ReadPayload returns the payload a fire was given: arg itself, or stdin
// when arg is "-". An empty (or all-space) payload means {}.
func ReadPayload(arg string, stdin io.Reader) (map[string]any, error) {
	if arg != StdinPayload {
		return DecodePayload([]byte(arg))
	}
	if stdin == nil {
		return map[string]any{}, nil
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fmt.Errorf("reading the payload from stdin: %w", err)
	}
	return DecodePayload(data)
}

var errTooDeep = fmt.Errorf("payload: nests deeper than %d levels", stdlib.MaxDepth)

// DecodePayload decodes a payload: exactly one JSON object, numbers kept
// exact (whole numbers become int64), nested at most stdlib.MaxDepth
// levels.
func DecodePayload(data []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(err, data)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("payload: invalid JSON: more data after the object at byte %d", dec.InputOffset()+1)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("payload: want a JSON object, got %s", jsonKind(v))
	}
	n, err := stdlib.Normalize(v)
	if errors.Is(err, stdlib.ErrTooDeep) {
		return nil, errTooDeep
	}
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return n.(map[string]any), nil
}

// jsonError describes a decoding error with its byte offset.
func jsonError(err error, data []byte) error {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn) && strings.Contains(syn.Error(), "exceeded max depth"):
		return errTooDeep
	case errors.As(err, &syn):
		return fmt.Errorf("payload: invalid JSON at byte %d: %v", syn.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("payload: invalid JSON: unexpected end after %d bytes", len(data))
	}
	return fmt.Errorf("payload: invalid JSON: %v", err)
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
