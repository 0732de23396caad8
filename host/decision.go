package host

import (
	"fmt"
	"slices"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// A Decision is the outcome of a fire: what the caller should do.
type Decision struct {
	// Action is the final action.
	Action Action
	// Reason explains it, when a hook gave one.
	Reason string
	// Hook is the id of the hook whose action became final (for modify,
	// the last hook that modified); empty when no hook decided.
	Hook string
	// Result is the result to use instead of running the action, for
	// Respond.
	Result any
	// Approval describes what a human must approve, for Ask.
	Approval *Approval
}

// An Approval is what hook.ask asks a human.
type Approval struct {
	Title    string
	Severity string
	// Timeout is how long to wait for the human; zero leaves it to the
	// caller.
	Timeout time.Duration
	// TimeoutBehavior is Allow or Deny: what to do when nobody answers in
	// time (Deny unless the hook said otherwise).
	TimeoutBehavior Action
}

// A Message is a message a hook adds to the conversation.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// MarshalJSON writes the decision as the fire --json contract gives it:
// action, reason and hook always; result for respond; approval for ask.
func (d Decision) MarshalJSON() ([]byte, error) {
	type approvalJSON struct {
		Title           string `json:"title,omitempty"`
		Severity        string `json:"severity,omitempty"`
		TimeoutMS       int64  `json:"timeout_ms,omitempty"`
		TimeoutBehavior Action `json:"timeout_behavior"`
	}
	out := struct {
		Action   Action        `json:"action"`
		Reason   string        `json:"reason"`
		Hook     string        `json:"hook"`
		Result   *any          `json:"result,omitempty"`
		Approval *approvalJSON `json:"approval,omitempty"`
	}{Action: d.Action, Reason: d.Reason, Hook: d.Hook}
	if d.Action == Respond {
		out.Result = &d.Result
	}
	if a := d.Approval; a != nil && d.Action == Ask {
		out.Approval = &approvalJSON{a.Title, a.Severity, a.Timeout.Milliseconds(), a.TimeoutBehavior}
	}
	return marshal(out)
}

// A reply is one hook's return value, parsed.
type reply struct {
	action   Action // Continue when the hook decided nothing
	reason   string
	fields   map[string]any
	result   any
	approval *Approval
	messages []Message
	stop     bool
}

// parseReply parses and validates a hook's return value against the
// event: nothing, a map, or a decision a constructor built. The error
// says what was expected.
func parseReply(v any, spec *EventSpec) (reply, error) {
	switch v := v.(type) {
	case nil:
		return reply{action: Continue}, nil
	case map[string]any:
		return parseMap(v, spec)
	case *scripting.Decision:
		if m, ok := v.Raw(); ok {
			return parseMap(m, spec)
		}
		return parseDecision(v, spec)
	}
	return reply{action: Continue}, fmt.Errorf("want nothing or a decision (hook.allow(), hook.deny(reason), … or a table with an action), got %s", stdlib.TypeName(v))
}

// parseMap parses a map a hook returned.
func parseMap(m map[string]any, spec *EventSpec) (reply, error) {
	r := reply{action: Continue}
	for k := range m {
		if keys := scripting.DecisionKeys(); !slices.Contains(keys, k) {
			return r, fmt.Errorf("unknown key %q in the decision (want %s)", k, joinStrings(keys))
		}
	}
	if err := r.parseAction(m); err != nil {
		return r, err
	}
	get := func(k string) (any, bool) { v, ok := m[k]; return v, ok }
	if err := r.parseFields(get); err != nil {
		return r, err
	}
	return r, r.checkAllowed(spec)
}

// parseDecision parses a decision a constructor built. Its keys are
// decision keys and its action, reason and stop are of the right types by
// construction, so only what a script chose is checked, as in a map.
func parseDecision(d *scripting.Decision, spec *EventSpec) (reply, error) {
	r := reply{action: Continue, reason: d.Reason(), stop: d.Stop()}
	if a, ok := d.Action(); ok {
		act, ok := actionOf(a)
		if !ok {
			return r, fmt.Errorf("unknown action %q (want %s)", a, actionList(decisionActions))
		}
		r.action = act
	}
	if d.Plain() && r.action != Modify && r.action != Respond && r.action != Ask {
		return r, r.checkAllowed(spec) // no key of parseFields' to read
	}
	if err := r.parseFields(d.Field); err != nil {
		return r, err
	}
	return r, r.checkAllowed(spec)
}

// actionNamed is the action a decision names; a is a string or not.
func actionNamed(a any) (Action, error) {
	s, ok := a.(string)
	act, valid := actionOf(s)
	if !ok || !valid {
		return "", fmt.Errorf("unknown action %v (want %s)", describe(a), actionList(decisionActions))
	}
	return act, nil
}

// actionOf is the action a decision may name s, if s is one.
func actionOf(s string) (Action, bool) {
	a := Action(s)
	return a, a.valid() && a != MessageAction
}

func (r *reply) parseAction(m map[string]any) error {
	if a, ok := m["action"]; ok {
		act, err := actionNamed(a)
		if err != nil {
			return err
		}
		r.action = act
	}
	if s, ok := m["stop"]; ok {
		b, ok := s.(bool)
		if !ok {
			return fmt.Errorf("stop: want a bool, got %s", stdlib.TypeName(s))
		}
		r.stop = b
	}
	if s, ok := m["reason"]; ok {
		str, ok := s.(string)
		if !ok {
			return fmt.Errorf("reason: want a string, got %s", stdlib.TypeName(s))
		}
		r.reason = str
	}
	return nil
}

// parseFields reads the keys that belong to one action, and messages,
// through get.
func (r *reply) parseFields(get func(string) (any, bool)) error {
	if err := r.onlyWith(get, "fields", Modify); err != nil {
		return err
	}
	if err := r.onlyWith(get, "result", Respond); err != nil {
		return err
	}
	if err := r.onlyWith(get, "approval", Ask); err != nil {
		return err
	}
	switch r.action {
	case Modify:
		fv, _ := get("fields")
		f, ok := fv.(map[string]any)
		if !ok {
			return fmt.Errorf("modify needs fields: a table of the payload fields to replace, got %s", stdlib.TypeName(fv))
		}
		r.fields = f
	case Respond:
		res, ok := get("result")
		if !ok {
			return fmt.Errorf("respond needs a result")
		}
		r.result = res
	case Ask:
		av, _ := get("approval")
		a, err := parseApproval(av)
		if err != nil {
			return fmt.Errorf("approval: %w", err)
		}
		r.approval = a
	}
	if msgs, ok := get("messages"); ok {
		list, err := parseMessages(msgs)
		if err != nil {
			return fmt.Errorf("messages: %w", err)
		}
		r.messages = list
	}
	return nil
}

// onlyWith rejects key unless the action is the one it belongs to.
func (r *reply) onlyWith(get func(string) (any, bool), key string, a Action) error {
	if _, ok := get(key); ok && r.action != a {
		return fmt.Errorf("%s belongs to action %s, not %s", key, a, r.action)
	}
	return nil
}

func parseApproval(v any) (*Approval, error) {
	a := &Approval{TimeoutBehavior: Deny}
	if v == nil {
		return a, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a table with title, severity, timeout, timeout_behavior, got %s", stdlib.TypeName(v))
	}
	for k, x := range m {
		if err := a.set(k, x); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (a *Approval) set(k string, v any) error {
	str := func() (string, error) {
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s: want a string, got %s", k, stdlib.TypeName(v))
		}
		return s, nil
	}
	var err error
	switch k {
	case "title":
		a.Title, err = str()
	case "severity":
		a.Severity, err = str()
	case "timeout":
		a.Timeout, err = stdlib.ParseDuration(v)
		if err != nil {
			err = fmt.Errorf("timeout: %w", err)
		}
	case "timeout_behavior":
		var s string
		s, err = str()
		if err == nil && s != "allow" && s != "deny" {
			err = fmt.Errorf("timeout_behavior: want allow or deny, got %q", s)
		}
		a.TimeoutBehavior = Action(s)
	default:
		err = fmt.Errorf("unknown key %q (want title, severity, timeout, timeout_behavior)", k)
	}
	return err
}

func parseMessages(v any) ([]Message, error) {
	list, ok := v.([]any)
	if !ok {
		if m, isMap := v.(map[string]any); isMap && len(m) == 0 {
			return nil, nil
		}
		return nil, fmt.Errorf("want a list of {role, content}, got %s", stdlib.TypeName(v))
	}
	out := make([]Message, 0, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("message %d: want {role, content}, got %s", i+1, stdlib.TypeName(e))
		}
		msg, err := parseMessage(m)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i+1, err)
		}
		out = append(out, msg)
	}
	return out, nil
}

func parseMessage(m map[string]any) (Message, error) {
	msg := Message{Role: "system"}
	for k, v := range m {
		s, ok := v.(string)
		switch {
		case k != "role" && k != "content":
			return msg, fmt.Errorf("unknown key %q (want role, content)", k)
		case !ok:
			return msg, fmt.Errorf("%s: want a string, got %s", k, stdlib.TypeName(v))
		case k == "role" && s == "":
			return msg, fmt.Errorf("role: want a non-empty string")
		case k == "role":
			msg.Role = s
		default:
			msg.Content = s
		}
	}
	return msg, nil
}

// checkAllowed validates the reply against what the event allows.
func (r *reply) checkAllowed(spec *EventSpec) error {
	if spec.Mode == Observe {
		return nil // observe ignores returns with a warning; never an error
	}
	if r.action != Continue && !spec.allows(r.action) {
		return fmt.Errorf("action %s is not allowed for event %s (allowed: %s)", r.action, spec.Name, allowedList(spec))
	}
	if len(r.messages) > 0 && !spec.allows(MessageAction) {
		return fmt.Errorf("messages are not allowed for event %s (allowed: %s)", spec.Name, allowedList(spec))
	}
	return nil
}

func allowedList(spec *EventSpec) string {
	if len(spec.Actions) == 0 {
		return "nothing"
	}
	return actionList(spec.Actions)
}

func describe(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return stdlib.TypeName(v)
}

func joinStrings(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
