package isolate

import (
	"context"
	"log/slog"
	"sync/atomic"
)

// Log records travel from a worker to its host as messages of their own
// (logMsg: level, message, attributes, each a key and a value or a group
// of attributes), and the host logs them on its own logger with the same level, message
// and attributes, in order: print and the log module of an isolated hook
// read in the host's log exactly as in process (file, hook, the script's
// fields), filtered by the host's level. What a worker writes on stderr
// besides (the Go runtime's last words) is logged as "worker output".

// frameHandler is the worker's slog.Handler: each record becomes a log
// message to the host.
type frameHandler struct {
	send  func(message)
	level *atomic.Int64 // the host's lowest enabled level, from compile messages
	attrs []logAttr     // encoded attributes from WithAttrs
	group string        // key prefix from WithGroup ("a.b.")
}

func newFrameHandler(send func(message), level *atomic.Int64) *frameHandler {
	return &frameHandler{send: send, level: level}
}

// Enabled reports whether the host logs records at l, as its last
// compile message said, so that a disabled record never crosses.
func (h *frameHandler) Enabled(_ context.Context, l slog.Level) bool {
	return int64(l) >= h.level.Load()
}

// Handle sends the record to the host with the handler's attributes
// first, each key prefixed by its groups.
func (h *frameHandler) Handle(_ context.Context, r slog.Record) error {
	attrs := make([]logAttr, len(h.attrs), len(h.attrs)+r.NumAttrs())
	copy(attrs, h.attrs)
	r.Attrs(func(a slog.Attr) bool {
		attrs = appendAttr(attrs, h.group, a)
		return true
	})
	h.send(&logMsg{Level: int64(r.Level), Msg: r.Message, Attrs: attrs})
	return nil
}

// WithAttrs returns a handler that sends as with every record, encoded
// once here.
func (h *frameHandler) WithAttrs(as []slog.Attr) slog.Handler {
	out := *h
	out.attrs = append([]logAttr(nil), h.attrs...)
	for _, a := range as {
		out.attrs = appendAttr(out.attrs, h.group, a)
	}
	return &out
}

// WithGroup returns a handler whose later keys are prefixed by name.
func (h *frameHandler) WithGroup(name string) slog.Handler {
	out := *h
	out.group = h.group + name + "."
	return &out
}

// A logAttr is one attribute on the wire: a key and a value (strings,
// integers, floats, booleans, nil; anything else as its text), or a key
// and the attributes of a group.
type logAttr struct {
	Key   string
	Value any
	Group []logAttr // nil for a value
}

func (a *logAttr) wire(f *fields) {
	f.str("key", &a.Key)
	f.value("value", &a.Value)
	objects(f, "group", &a.Group)
}

// appendAttr appends a's wire form; an empty group is left out, as slog's
// handlers leave it out.
func appendAttr(to []logAttr, prefix string, a slog.Attr) []logAttr {
	v := a.Value.Resolve()
	key := prefix + a.Key
	switch v.Kind() {
	case slog.KindGroup:
		if len(v.Group()) == 0 {
			return to
		}
		inner := make([]logAttr, 0, len(v.Group()))
		for _, g := range v.Group() {
			inner = appendAttr(inner, "", g)
		}
		return append(to, logAttr{Key: key, Group: inner})
	case slog.KindString:
		return append(to, logAttr{Key: key, Value: v.String()})
	case slog.KindInt64:
		return append(to, logAttr{Key: key, Value: v.Int64()})
	case slog.KindBool:
		return append(to, logAttr{Key: key, Value: v.Bool()})
	case slog.KindFloat64:
		return append(to, logAttr{Key: key, Value: v.Float64()})
	case slog.KindAny:
		if v.Any() == nil {
			return append(to, logAttr{Key: key})
		}
	}
	return append(to, logAttr{Key: key, Value: v.String()})
}

// replayLog logs a worker's log message on the host's logger.
func replayLog(logger *slog.Logger, msg *logMsg) {
	level := slog.Level(msg.Level)
	ctx := context.Background()
	if !logger.Enabled(ctx, level) {
		return
	}
	logger.LogAttrs(ctx, level, msg.Msg, decodeAttrs(msg.Attrs)...)
}

func decodeAttrs(list []logAttr) []slog.Attr {
	out := make([]slog.Attr, 0, len(list))
	for _, a := range list {
		if len(a.Group) > 0 {
			out = append(out, slog.Attr{Key: a.Key, Value: slog.GroupValue(decodeAttrs(a.Group)...)})
			continue
		}
		out = append(out, slog.Any(a.Key, a.Value))
	}
	return out
}

// lowestLevel is the lowest level logger logs, for the worker's handler
// to send nothing the host would drop; above Error when it logs none.
func lowestLevel(logger *slog.Logger) slog.Level {
	for _, l := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError} {
		if logger.Enabled(context.Background(), l) {
			return l
		}
	}
	return slog.LevelError + 1
}
