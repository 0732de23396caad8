package autosock

// The limits of a command hook's client, the same in hookhost (package
// adapter names them) and in hookhost-hook, which must read and wait
// exactly as far as hookhost would. Times are in nanoseconds, untyped:
// hookhost makes them time.Durations, and hookhost-hook does not link
// package time.
const (
	// MaxEvent bounds the event a command hook reads from stdin, in bytes.
	MaxEvent = 8 << 20
	// ConnectTimeout bounds connecting to a server: one that does not
	// accept within it counts as unavailable.
	ConnectTimeout = 200 * millisecond
	// RequestTimeout is the default bound of a whole request, connection
	// included (--server-timeout).
	RequestTimeout = 10 * second
	// MaxAnswer bounds the answer a client reads from a server.
	MaxAnswer = 64 << 20
)

const (
	millisecond = 1_000_000
	second      = 1000 * millisecond
)
