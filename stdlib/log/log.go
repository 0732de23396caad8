package log

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/hookhost/hookhost/stdlib"
)

// Bounds on what one call can put in the log. Past them text is cut, never
// refused: a log line must not be the reason a guardrail fails.
const (
	// MaxMessage is the longest message kept, in bytes.
	MaxMessage = 4096
	// MaxAttrs is how many key=value attributes one call keeps.
	MaxAttrs = 32
	// MaxKey is the longest attribute key kept, in bytes.
	MaxKey = 64
	// MaxValue is the longest attribute value kept, in bytes: a string's
	// length, or a list's or map's JSON text.
	MaxValue = 1024
)

// HookKey is the attribute that carries the calling hook's id. Scripts may
// not pass it, so a log line cannot claim to come from another hook.
const HookKey = "hook"

// DroppedKey is the attribute that counts attributes dropped past
// MaxAttrs.
const DroppedKey = "dropped_attrs"

// New returns the log module writing to logger, or discarding everything
// when logger is nil.
func New(logger *slog.Logger) stdlib.Module {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return stdlib.Module{
		Name: "log",
		Doc:  "structured logging into the host's log, tagged with the hook id",
		Funcs: []stdlib.Func{
			logFunc(logger, "debug", slog.LevelDebug),
			logFunc(logger, "info", slog.LevelInfo),
			logFunc(logger, "warn", slog.LevelWarn),
			logFunc(logger, "error", slog.LevelError),
		},
	}
}

func logFunc(logger *slog.Logger, name string, level slog.Level) stdlib.Func {
	return stdlib.Func{
		Name:   name,
		Params: []stdlib.Param{stdlib.P("msg")},
		Kwargs: true,
		Doc:    fmt.Sprintf("logs msg at %s level with key=value attributes", name),
		Impl: func(c *stdlib.Call) (any, error) {
			return nil, emit(c, logger, level)
		},
	}
}

func emit(c *stdlib.Call, logger *slog.Logger, level slog.Level) error {
	msg, err := c.String(0)
	if err != nil {
		return err
	}
	if _, reserved := c.Kwargs[HookKey]; reserved {
		return errors.New(`key "hook" is reserved for the calling hook's id`)
	}
	// Checked after the arguments so that a bad call fails the same way
	// whatever the level.
	if !logger.Enabled(c.Context, level) {
		return nil
	}
	logger.LogAttrs(c.Context, level, truncate(msg, MaxMessage), attrs(c.Hook, c.Kwargs)...)
	return nil
}

// attrs builds the hook attribute followed by the kwargs in key order, so
// that the same call always logs the same line.
func attrs(hook string, kwargs map[string]any) []slog.Attr {
	keys := stdlib.SortedKeys(kwargs)
	dropped := 0
	if len(keys) > MaxAttrs {
		dropped = len(keys) - MaxAttrs
		keys = keys[:MaxAttrs]
	}
	out := make([]slog.Attr, 0, len(keys)+2)
	out = append(out, slog.String(HookKey, hook))
	for _, k := range keys {
		out = append(out, slog.Attr{Key: truncate(k, MaxKey), Value: value(kwargs[k])})
	}
	if dropped > 0 {
		out = append(out, slog.Int(DroppedKey, dropped))
	}
	return out
}

// value converts a neutral value to a bounded slog value: scalars keep
// their type, so JSON handlers print numbers as numbers; lists and maps
// become their JSON text.
func value(v any) slog.Value {
	switch v := v.(type) {
	case nil:
		return slog.AnyValue(nil)
	case bool:
		return slog.BoolValue(v)
	case int64:
		return slog.Int64Value(v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) { // slog's JSON handler fails on them
			return slog.StringValue(strconv.FormatFloat(v, 'g', -1, 64))
		}
		return slog.Float64Value(v)
	case string:
		return slog.StringValue(truncate(v, MaxValue))
	default:
		return slog.StringValue(encode(v, MaxValue))
	}
}

// truncate cuts s to at most max bytes on a UTF-8 boundary and says how
// much it cut, so a reader knows the text is incomplete.
func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	kept := prefix(s, max)
	return fmt.Sprintf("%s…[truncated %d bytes]", kept, len(s)-len(kept))
}

// prefix returns the longest prefix of s of at most max bytes that does
// not split a UTF-8 sequence.
func prefix(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
