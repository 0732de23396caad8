package main

import "strconv"

// refusalHeader marks the server's 200 that blocks a guard event it
// could not decide (busy, an event that does not decode): the full
// command decides those instead, as "--server auto" does today.
const refusalHeader = "hookhost-refusal"

// parseAnswer reads an HTTP/1.1 response read whole: the body of a 200
// with a Content-Length that matches it and no refusal mark; ok is false
// for anything else.
func parseAnswer(resp []byte) ([]byte, bool) {
	text := string(resp)
	head, body, found := cutString(text, "\r\n\r\n")
	if !found {
		return nil, false
	}
	status, head, _ := cutString(head, "\r\n")
	if status != "HTTP/1.1 200" && !hasPrefix(status, "HTTP/1.1 200 ") {
		return nil, false
	}
	length := -1
	for head != "" {
		var line string
		line, head, _ = cutString(head, "\r\n")
		name, value, ok := cut(line, ':')
		if !ok {
			return nil, false
		}
		switch lowerASCII(trimSpace(name)) {
		case refusalHeader:
			return nil, false
		case "transfer-encoding":
			return nil, false // the server gives every answer a length
		case "content-length":
			n, err := strconv.Atoi(trimSpace(value))
			if err != nil || n < 0 || length >= 0 {
				return nil, false
			}
			length = n
		}
	}
	if length != len(body) || length > maxAnswer {
		return nil, false
	}
	return resp[len(resp)-len(body):], true
}
