package autosock

import "time"

// The limits of a command hook's client, the same in hookhost (package
// adapter names them) and in hookhost-hook, which must read and wait
// exactly as far as hookhost would.
const (
	// MaxEvent bounds the event a command hook reads from stdin, in bytes.
	MaxEvent = 8 << 20
	// ConnectTimeout bounds connecting to a server: one that does not
	// accept within it counts as unavailable.
	ConnectTimeout = 200 * time.Millisecond
	// RequestTimeout is the default bound of a whole request, connection
	// included (--server-timeout).
	RequestTimeout = 10 * time.Second
	// MaxAnswer bounds the answer a client reads from a server.
	MaxAnswer = 64 << 20
)
