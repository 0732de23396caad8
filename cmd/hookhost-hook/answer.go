package main

import (
	"bytes"
	"strconv"
)

// refusalHeader marks the server's 200 that blocks a guard event it
// could not decide (busy, an event that does not decode): the full
// command decides those instead, as "--server auto" does today.
const refusalHeader = "hookhost-refusal"

// parseAnswer reads an HTTP/1.1 response read whole: the body of a 200
// with a Content-Length that matches it and no refusal mark; ok is false
// for anything else.
func parseAnswer(resp []byte) ([]byte, bool) {
	head, body, found := bytes.Cut(resp, []byte("\r\n\r\n"))
	if !found {
		return nil, false
	}
	lines := bytes.Split(head, []byte("\r\n"))
	status := lines[0]
	if !bytes.HasPrefix(status, []byte("HTTP/1.1 200 ")) && !bytes.Equal(status, []byte("HTTP/1.1 200")) {
		return nil, false
	}
	length := -1
	for _, line := range lines[1:] {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return nil, false
		}
		switch string(bytes.ToLower(bytes.TrimSpace(name))) {
		case refusalHeader:
			return nil, false
		case "transfer-encoding":
			return nil, false // the server gives every answer a length
		case "content-length":
			n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil || n < 0 || length >= 0 {
				return nil, false
			}
			length = n
		}
	}
	if length != len(body) || length > maxAnswer {
		return nil, false
	}
	return body, true
}
