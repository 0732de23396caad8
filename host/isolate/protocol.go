package isolate

import (
	"errors"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// The messages, each a map (codec.go). The host sends:
//
//	{op: "compile", id, prog, name, code, limits, log_level}   compile a file as program prog
//	{op: "call", id, prog, hook, payload, event, hook_id, config, timeout, remaining}
//	{op: "cancel", id}                               interrupt call id
//	{op: "drop", prog}                               forget a program
//
// and the worker answers each compile and call with {id, hooks} or
// {id, value} on success, {id, error} on failure; its first message is
// {op: "hello"}, and {op: "log", level, msg, attrs} carries a log record
// of its scripts (logs.go) at any time. Durations are nanoseconds. A call carries the time it
// has left rather than a deadline, because the two processes' clocks are
// not comparable.

// Cause names of an error's cause on the wire.
const (
	causeInterrupted = "interrupted"
	causeAbandoned   = "abandoned"
	causeMemory      = "memory"
)

// errorMessage encodes a script error for the wire.
func errorMessage(err error) map[string]any {
	m := map[string]any{"msg": err.Error()}
	var se *scripting.Error
	if errors.As(err, &se) {
		m = map[string]any{"file": se.File, "line": int64(se.Line), "hook": se.Hook, "msg": se.Msg, "backtrace": se.Backtrace}
	}
	switch {
	case errors.Is(err, scripting.ErrInterrupted):
		m["cause"] = causeInterrupted
	case errors.Is(err, scripting.ErrAbandoned):
		m["cause"] = causeAbandoned
	case errors.Is(err, scripting.ErrMemoryLimit):
		m["cause"] = causeMemory
	}
	return m
}

// decodeError turns an error message back into a *scripting.Error whose
// cause is the sentinel it named.
func decodeError(m map[string]any) *scripting.Error {
	e := &scripting.Error{File: str(m, "file"), Line: int(integer(m, "line")), Hook: str(m, "hook"),
		Msg: str(m, "msg"), Backtrace: str(m, "backtrace")}
	switch str(m, "cause") {
	case causeInterrupted:
		e.Err = scripting.ErrInterrupted
	case causeAbandoned:
		e.Err = scripting.ErrAbandoned
	case causeMemory:
		e.Err = scripting.ErrMemoryLimit
	}
	return e
}

// limitsMessage and decodeLimits carry scripting.Limits.
func limitsMessage(l scripting.Limits) map[string]any {
	return map[string]any{"steps": int64(l.MaxSteps), "string": int64(l.MaxStringSize), "depth": int64(l.MaxCallDepth),
		"idle": int64(l.MaxIdle), "memory": l.MaxCallMemory, "init": int64(l.InitTimeout)}
}

func decodeLimits(m map[string]any) scripting.Limits {
	return scripting.Limits{MaxSteps: uint64(integer(m, "steps")), MaxStringSize: int(integer(m, "string")),
		MaxCallDepth: int(integer(m, "depth")), MaxIdle: int(integer(m, "idle")), MaxCallMemory: integer(m, "memory"),
		InitTimeout: time.Duration(integer(m, "init"))}
}

// hookMessage and decodeHook carry a hook's registration; Func stays
// behind.
func hookMessage(h scripting.Hook) map[string]any {
	return map[string]any{"event": h.Event, "name": h.Name, "line": int64(h.Line), "priority": h.Priority,
		"timeout": int64(h.Timeout), "enabled": h.Enabled, "params": h.Params,
		"error_behavior": h.ErrorBehavior, "timeout_behavior": h.TimeoutBehavior}
}

func decodeHook(m map[string]any) scripting.Hook {
	h := scripting.Hook{Event: str(m, "event"), Name: str(m, "name"), Line: int(integer(m, "line")),
		Priority: integer(m, "priority"), Timeout: time.Duration(integer(m, "timeout")), Enabled: m["enabled"] == true,
		ErrorBehavior: str(m, "error_behavior"), TimeoutBehavior: str(m, "timeout_behavior")}
	if ps, ok := m["params"].([]any); ok {
		for _, p := range ps {
			if s, ok := p.(string); ok {
				h.Params = append(h.Params, s)
			}
		}
	}
	return h
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func integer(m map[string]any, k string) int64 {
	n, _ := m[k].(int64)
	return n
}

func mapOf(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
}
