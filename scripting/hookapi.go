package scripting

import (
	"errors"
	"fmt"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// The decision constructors of the predeclared hook module, written once
// over neutral values. Each engine binds HookModule and adds hook.on,
// which needs the engine's own function values. A constructor returns the
// same map a script could write by hand, so host-side parsing is the one
// place that validates decisions; it travels sealed in a Decision (see
// decision.go), so that the engines need not convert it.

// HookModule returns the decision constructors of the hook module.
func HookModule() stdlib.Module {
	reason := func(a ReasonAction) stdlib.Func {
		f := stdlib.Func{Name: a.Name, Params: []stdlib.Param{stdlib.P("reason")}, Doc: a.Name + " with a reason",
			Impl: func(c *stdlib.Call) (any, error) { return withReason(c, a) }}
		if a.Optional {
			f.Params, f.Doc = []stdlib.Param{stdlib.Opt("reason")}, a.Name+", with an optional reason"
		}
		return f
	}
	return stdlib.Module{
		Name: "hook",
		Doc:  "register hooks and build decisions",
		Funcs: []stdlib.Func{
			reason(allowAction),
			reason(denyAction),
			{Name: "ask", Params: []stdlib.Param{stdlib.P("reason"), stdlib.Opt("opts")}, Doc: "ask a human to approve",
				Impl: ask},
			{Name: "verdict", Params: []stdlib.Param{stdlib.Opt("verdict"), stdlib.P("reason"), stdlib.Opt("opts")},
				Doc:  `the decision of a verdict ("deny", "ask" with opts, or none for "allow" and nil), as a pack's verdicts setting gives it`,
				Impl: verdict},
			{Name: "modify", Params: []stdlib.Param{stdlib.P("fields")}, Doc: "replace top-level payload fields",
				Impl: modify},
			{Name: "respond", Params: []stdlib.Param{stdlib.P("result")}, Doc: "skip the real action and use this result",
				Impl: respond},
			reason(abortTurnAction),
			reason(hardAbortAction),
			{Name: "message", Params: []stdlib.Param{stdlib.P("text"), stdlib.Opt("role")}, Doc: "add a message (role defaults to system)",
				Impl: message},
			{Name: "stop", Params: []stdlib.Param{stdlib.Opt("decision")}, Doc: "stop lower-priority hooks, with an optional decision",
				Impl: stop},
		},
	}
}

func withReason(c *stdlib.Call, a ReasonAction) (any, error) {
	if a.Optional && !c.Present(0) {
		d := ActionDecision(a.Name)
		return &d, nil
	}
	r, err := c.String(0)
	if err != nil {
		return nil, err
	}
	d := ReasonDecision(a.Name, r)
	return &d, nil
}

// approvalKeys are the options hook.ask accepts.
var approvalKeys = map[string]bool{"title": true, "severity": true, "timeout": true, "timeout_behavior": true}

func ask(c *stdlib.Call) (any, error) { return askWith(c, 0, 1) }

// askWith is hook.ask of the reason and opts in arguments reason and opt.
func askWith(c *stdlib.Call, reason, opt int) (any, error) {
	r, err := c.String(reason)
	if err != nil {
		return nil, err
	}
	d := Decision{action: "ask", reason: r, has: hasAction | hasReason}
	if !c.Present(opt) {
		return newDecision(d), nil
	}
	opts, err := c.Map(opt)
	if err != nil {
		return nil, err
	}
	for k := range opts {
		if !approvalKeys[k] {
			return nil, fmt.Errorf("argument %d (opts): unknown option %q (want title, severity, timeout, timeout_behavior)", opt+1, k)
		}
	}
	d.approval, d.has = opts, d.has|hasApproval
	return newDecision(d), nil
}

// verdict is the decision of a verdict, the value a pack's verdicts
// setting gives a rule (setting.verdicts checks the setting): deny with
// the reason, ask with the reason and opts, no decision for allow or nil.
// The reason is checked whatever the verdict, so that a call that works
// for one verdict works for all.
func verdict(c *stdlib.Call) (any, error) {
	if _, err := c.String(1); err != nil {
		return nil, err
	}
	if !c.Present(0) {
		return nil, nil
	}
	v, err := c.String(0)
	if err != nil {
		return nil, err
	}
	switch v {
	case "deny":
		r, _ := c.String(1)
		d := ReasonDecision(denyAction.Name, r)
		return &d, nil
	case "ask":
		return askWith(c, 1, 2)
	case "allow":
		return nil, nil
	}
	return nil, fmt.Errorf("argument 1 (verdict): want deny, ask, allow or nil, got %q", v)
}

func modify(c *stdlib.Call) (any, error) {
	f, err := c.Map(0)
	if err != nil {
		return nil, err
	}
	return newDecision(Decision{action: "modify", fields: f, has: hasAction | hasFields}), nil
}

func respond(c *stdlib.Call) (any, error) {
	return newDecision(Decision{action: "respond", result: c.Any(0), has: hasAction | hasResult}), nil
}

func message(c *stdlib.Call) (any, error) {
	switch v := c.Any(0).(type) {
	case string:
		role, err := c.OptString(1, "system")
		if err != nil {
			return nil, err
		}
		return newDecision(Decision{messages: []any{map[string]any{"role": role, "content": v}}, has: hasMessages}), nil
	case []any:
		msgs, err := messageList(v)
		if err != nil {
			return nil, err
		}
		return newDecision(Decision{messages: msgs, has: hasMessages}), nil
	default:
		return nil, fmt.Errorf("argument 1 (text): want a string or a list of messages, got %s", stdlib.TypeName(v))
	}
}

// messageList accepts strings (system messages) and {role, content}
// maps, and returns maps.
func messageList(v []any) ([]any, error) {
	out := make([]any, 0, len(v))
	for i, m := range v {
		switch m := m.(type) {
		case string:
			out = append(out, map[string]any{"role": "system", "content": m})
		case map[string]any:
			out = append(out, m)
		default:
			return nil, fmt.Errorf("message %d: want a string or {role, content}, got %s", i+1, stdlib.TypeName(m))
		}
	}
	return out, nil
}

func stop(c *stdlib.Call) (any, error) {
	if !c.Present(0) {
		return newDecision(Decision{has: hasStop}), nil
	}
	d, err := c.Map(0)
	if err != nil {
		return nil, errors.New("argument 1 (decision): want a decision such as hook.deny(…), got " + stdlib.TypeName(c.Any(0)))
	}
	out := make(map[string]any, len(d)+1)
	for k, v := range d {
		out[k] = v
	}
	out["stop"] = true
	return decisionOfMap(out), nil
}

// HookOptions are the options of hook.on.
type HookOptions struct {
	Name     string
	Priority int64
	Timeout  time.Duration
	Enabled  bool
	// ErrorBehavior and TimeoutBehavior are "skip", "deny", or empty when
	// the script declared none: what the hook's failure does to its fire
	// (the operator's config beats them; the host resolves them).
	ErrorBehavior, TimeoutBehavior string
}

// ParseHookOptions reads hook.on's options from a neutral map (a Lua
// table or Starlark keyword arguments). defaultName is used when the map
// has no name.
func ParseHookOptions(opts map[string]any, defaultName string) (HookOptions, error) {
	o := HookOptions{Name: defaultName, Enabled: true}
	for _, k := range stdlib.SortedKeys(opts) {
		if err := o.set(k, opts[k]); err != nil {
			return o, err
		}
	}
	return o, nil
}

func (o *HookOptions) set(key string, v any) error {
	switch key {
	case "name":
		s, ok := v.(string)
		if !ok || s == "" || len(s) > 128 {
			return fmt.Errorf("option name: want a non-empty string of at most 128 bytes, got %s", stdlib.TypeName(v))
		}
		o.Name = s
	case "priority":
		p, ok := v.(int64)
		if !ok {
			return fmt.Errorf("option priority: want an integer, got %s", stdlib.TypeName(v))
		}
		o.Priority = p
	case "timeout":
		d, err := stdlib.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("option timeout: %w", err)
		}
		if d <= 0 || d > MaxTimeout {
			return fmt.Errorf("option timeout: %v is out of range (want more than 0 and at most %v)", d, MaxTimeout)
		}
		o.Timeout = d
	case "enabled":
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("option enabled: want a bool, got %s", stdlib.TypeName(v))
		}
		o.Enabled = b
	case "error_behavior", "timeout_behavior":
		b, ok := v.(string)
		if !ok || b != "skip" && b != "deny" {
			return fmt.Errorf("option %s: want \"skip\" or \"deny\", got %s", key, behaviorText(v))
		}
		if key == "error_behavior" {
			o.ErrorBehavior = b
		} else {
			o.TimeoutBehavior = b
		}
	default:
		return fmt.Errorf("unknown option %q (want name, priority, timeout, enabled, error_behavior, timeout_behavior)", key)
	}
	return nil
}

// behaviorText names a bad behaviour value: a string quoted, clipped;
// anything else by its type.
func behaviorText(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", Clip(s, 64))
	}
	return stdlib.TypeName(v)
}

// MaxTimeout is the longest budget any hook call may have.
const MaxTimeout = 10 * time.Minute
