package wire

import (
	"bytes"
	"fmt"
	"io"

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

// DecodePayload decodes a payload: exactly one JSON object, numbers kept
// exact (whole numbers become int64), nested at most stdlib.MaxDepth
// levels (stdlib.DecodeObject); empty text is the empty object.
func DecodePayload(data []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	m, err := stdlib.DecodeObject(data)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return m, nil
}
