package isolate

import (
	"context"
	"log/slog"
	"sync/atomic"
)

// Log records travel from a worker to its host as messages of their own,
//
//	{op: "log", level, msg, attrs: [[key, value] | [key, [attrs…], true] …]}
//
// and the host logs them on its own logger with the same level, message
// and attributes, in order: print and the log module of an isolated hook
// read in the host's log exactly as in process (file, hook, the script's
// fields), filtered by the host's level. What a worker writes on stderr
// besides (the Go runtime's last words) is logged as "worker output".

// frameHandler is the worker's slog.Handler: each record becomes a log
// message to the host.
type frameHandler struct {
	send  func(map[string]any)
	level *atomic.Int64 // the host's lowest enabled level, from compile messages
	attrs []any         // encoded attributes from WithAttrs
	group string        // key prefix from WithGroup ("a.b.")
}

func newFrameHandler(send func(map[string]any), level *atomic.Int64) *frameHandler {
	return &frameHandler{send: send, level: level}
}

func (h *frameHandler) Enabled(_ context.Context, l slog.Level) bool {
	return int64(l) >= h.level.Load()
}

func (h *frameHandler) Handle(_ context.Context, r slog.Record) error {
	attrs := make([]any, len(h.attrs), len(h.attrs)+r.NumAttrs())
	copy(attrs, h.attrs)
	r.Attrs(func(a slog.Attr) bool {
		attrs = append(attrs, encodeAttr(h.group, a))
		return true
	})
	h.send(map[string]any{"op": "log", "level": int64(r.Level), "msg": r.Message, "attrs": attrs})
	return nil
}

func (h *frameHandler) WithAttrs(as []slog.Attr) slog.Handler {
	out := *h
	out.attrs = append([]any(nil), h.attrs...)
	for _, a := range as {
		out.attrs = append(out.attrs, encodeAttr(h.group, a))
	}
	return &out
}

func (h *frameHandler) WithGroup(name string) slog.Handler {
	out := *h
	out.group = h.group + name + "."
	return &out
}

// encodeAttr is one attribute on the wire: its value as a neutral value
// (strings, integers, floats, booleans; anything else as its text), a
// group as its attributes.
func encodeAttr(prefix string, a slog.Attr) any {
	v := a.Value.Resolve()
	key := prefix + a.Key
	switch v.Kind() {
	case slog.KindGroup:
		inner := make([]any, 0, len(v.Group()))
		for _, g := range v.Group() {
			inner = append(inner, encodeAttr("", g))
		}
		return []any{key, inner, true}
	case slog.KindString:
		return []any{key, v.String()}
	case slog.KindInt64:
		return []any{key, v.Int64()}
	case slog.KindBool:
		return []any{key, v.Bool()}
	case slog.KindFloat64:
		return []any{key, v.Float64()}
	case slog.KindAny:
		if v.Any() == nil {
			return []any{key, nil}
		}
	}
	return []any{key, v.String()}
}

// replayLog logs a worker's log message on the host's logger.
func replayLog(logger *slog.Logger, msg map[string]any) {
	level := slog.Level(integer(msg, "level"))
	ctx := context.Background()
	if !logger.Enabled(ctx, level) {
		return
	}
	list, _ := msg["attrs"].([]any)
	logger.LogAttrs(ctx, level, str(msg, "msg"), decodeAttrs(list)...)
}

func decodeAttrs(list []any) []slog.Attr {
	out := make([]slog.Attr, 0, len(list))
	for _, e := range list {
		kv, _ := e.([]any)
		if len(kv) < 2 {
			continue
		}
		key, _ := kv[0].(string)
		if len(kv) == 3 {
			inner, _ := kv[1].([]any)
			out = append(out, slog.Attr{Key: key, Value: slog.GroupValue(decodeAttrs(inner)...)})
			continue
		}
		out = append(out, slog.Any(key, kv[1]))
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
