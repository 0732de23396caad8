package host

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A Mode is how an event folds its hooks' decisions.
type Mode string

const (
	// Observe runs every hook; returns are ignored with a warning, stop is
	// ignored, and the decision is always the event's default.
	Observe Mode = "observe"
	// Collect runs hooks in order and collects their messages; stop ends
	// the chain.
	Collect Mode = "collect"
	// First runs hooks in order; the first decision wins and ends the
	// chain.
	First Mode = "first"
	// Chain runs hooks in order, each seeing the payload as modified by
	// those before; deny, respond, abort_turn and hard_abort end it.
	Chain Mode = "chain"
)

// An Action is what a decision tells the caller to do.
type Action string

const (
	Continue  Action = "continue"
	Allow     Action = "allow"
	Deny      Action = "deny"
	Ask       Action = "ask"
	Modify    Action = "modify"
	Respond   Action = "respond"
	AbortTurn Action = "abort_turn"
	HardAbort Action = "hard_abort"
	// MessageAction is not a final action: in an event's allowed actions
	// it means hooks may add messages.
	MessageAction Action = "message"
)

// decisionActions are the actions a Decision can carry, in the order
// error messages list them.
var decisionActions = []Action{Continue, Allow, Deny, Ask, Modify, Respond, AbortTurn, HardAbort}

func (a Action) valid() bool { return a == MessageAction || slices.Contains(decisionActions, a) }

// terminal reports whether a chain ends at this action.
func (a Action) terminal() bool {
	return a == Deny || a == Respond || a == AbortTurn || a == HardAbort
}

// A Behavior is what a hook's failure (an error, or a timeout) does to the
// fire.
type Behavior string

const (
	// Skip treats the failed hook as if it returned nothing (the default).
	Skip Behavior = "skip"
	// FailClosed ends the fire with deny, naming the hook and the failure.
	FailClosed Behavior = "deny"
)

// valid reports whether b is one a config may name: unset, skip or deny.
func (b Behavior) valid() bool { return b == "" || b == Skip || b == FailClosed }

// An EventSpec describes an event: how it dispatches, what its hooks may
// decide, and what failure does. The zero values of Default, OnTimeout
// and OnError mean continue, skip and skip.
type EventSpec struct {
	// Name is the event's name ("tool.execute.pre").
	Name string
	// Mode is how decisions fold.
	Mode Mode
	// Actions lists what hooks may return; MessageAction allows messages.
	// Observe events allow nothing.
	Actions []Action
	// Default is the decision when no hook decides (Continue when empty).
	Default Action
	// Timeout is the event's default budget per hook, below the script's
	// own and the operator's settings; zero means none.
	Timeout time.Duration
	// OnTimeout and OnError say what a hook's timeout or error does.
	// FailClosed requires Deny among Actions.
	OnTimeout Behavior
	OnError   Behavior
	// Fields documents the payload fields.
	Fields []string
	// Doc is a one-line description.
	Doc string
}

// normalized returns the spec with defaults filled in, or an error
// saying what is wrong.
func (s EventSpec) normalized() (EventSpec, error) {
	if s.Name == "" || strings.ContainsAny(s.Name, " \t\n:/") {
		return s, fmt.Errorf("event name %q: want a non-empty name without spaces, ':' or '/'", s.Name)
	}
	if s.Default == "" {
		s.Default = Continue
	}
	if s.OnTimeout == "" {
		s.OnTimeout = Skip
	}
	if s.OnError == "" {
		s.OnError = Skip
	}
	if err := s.check(); err != nil {
		return s, fmt.Errorf("event %s: %w", s.Name, err)
	}
	s.Actions = slices.Clone(s.Actions)
	s.Fields = slices.Clone(s.Fields)
	return s, nil
}

func (s EventSpec) check() error {
	if err := checkMode(s.Mode); err != nil {
		return err
	}
	for _, a := range s.Actions {
		if !a.valid() || a == Continue {
			return fmt.Errorf("unknown action %q (want %s)", a, actionList(append(decisionActions[1:len(decisionActions):len(decisionActions)], MessageAction)))
		}
	}
	if err := s.checkActionsForMode(); err != nil {
		return err
	}
	if s.Default != Continue && s.Default != Allow && s.Default != Deny {
		return fmt.Errorf("default %q: want continue, allow or deny", s.Default)
	}
	for _, b := range []struct {
		name string
		b    Behavior
	}{{"timeout_behavior", s.OnTimeout}, {"error_behavior", s.OnError}} {
		if b.b != Skip && b.b != FailClosed {
			return fmt.Errorf("%s %q: want skip or deny", b.name, b.b)
		}
		if b.b == FailClosed && !s.allows(Deny) {
			return fmt.Errorf("%s deny: the event does not allow deny", b.name)
		}
	}
	return nil
}

func checkMode(m Mode) error {
	switch m {
	case Observe, Collect, First, Chain:
		return nil
	}
	return fmt.Errorf("mode %q: want observe, collect, first or chain", m)
}

func (s EventSpec) checkActionsForMode() error {
	switch s.Mode {
	case Observe:
		if len(s.Actions) > 0 {
			return fmt.Errorf("an observe event allows no actions (its hooks' returns are ignored)")
		}
	case Collect:
		for _, a := range s.Actions {
			if a != MessageAction {
				return fmt.Errorf("a collect event allows only message, not %s", a)
			}
		}
	}
	return nil
}

func (s *EventSpec) allows(a Action) bool { return slices.Contains(s.Actions, a) }

func actionList(as []Action) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = string(a)
	}
	return strings.Join(parts, ", ")
}

// The agent catalog's event names (AgentEvents): the one spelling of each
// that the adapters' dialect tables and answers use.
const (
	EventSessionStart    = "session.start"
	EventSessionEnd      = "session.end"
	EventTurnPre         = "turn.pre"
	EventTurnPost        = "turn.post"
	EventLoopContinue    = "loop.continue"
	EventGenerationPre   = "generation.pre"
	EventGenerationPost  = "generation.post"
	EventToolExecutePre  = "tool.execute.pre"
	EventToolApprove     = "tool.approve"
	EventToolExecutePost = "tool.execute.post"
	EventFileSavePre     = "file.save.pre"
	EventFileSavePost    = "file.save.post"
	EventMessageSending  = "message.sending"
	EventMessageReceived = "message.received"
	EventNotification    = "notification"
	EventRuntimeEvent    = "runtime.event"
	EventError           = "error"
)

// AgentEvents returns the agent catalog: the lifecycle
// events of an AI agent that the CLI ships.
func AgentEvents() []EventSpec {
	tool := []Action{Allow, Deny, Ask, Modify, Respond, MessageAction, AbortTurn, HardAbort}
	return []EventSpec{
		{Name: EventSessionStart, Mode: Collect, Actions: []Action{MessageAction}, Fields: []string{"session_id", "workspace", "source"},
			Doc: "a session begins; hooks may add context messages"},
		{Name: EventSessionEnd, Mode: Observe, Fields: []string{"session_id", "reason"}, Doc: "a session ends"},
		{Name: EventTurnPre, Mode: Chain, Actions: []Action{Modify, Deny, Respond, MessageAction}, Fields: []string{"session_id", "prompt"},
			Doc: "a user prompt is about to be processed; respond answers it without the model"},
		{Name: EventTurnPost, Mode: Collect, Actions: []Action{MessageAction}, Fields: []string{"session_id", "response"},
			Doc: "a turn finished"},
		{Name: EventLoopContinue, Mode: First, Actions: []Action{Allow, Deny}, Fields: []string{"session_id", "response"},
			Doc: "the agent would stop: allow keeps it going, deny lets it stop"},
		{Name: EventGenerationPre, Mode: Chain, Actions: []Action{Modify, Respond, MessageAction, AbortTurn, HardAbort},
			Fields: []string{"model", "messages", "tools", "options"}, Doc: "a model call is about to be made"},
		{Name: EventGenerationPost, Mode: Chain, Actions: []Action{Modify, MessageAction, AbortTurn, HardAbort},
			Fields: []string{"model", "response"}, Doc: "a model call returned"},
		{Name: EventToolExecutePre, Mode: Chain, Actions: tool, Fields: []string{"tool_name", "params", "session_id", "cwd"},
			Doc: "a tool is about to run"},
		{Name: EventToolApprove, Mode: First, Actions: []Action{Allow, Deny, Ask}, OnTimeout: FailClosed, OnError: FailClosed,
			Fields: []string{"tool_name", "params", "session_id"}, Doc: "a tool call needs approval"},
		{Name: EventToolExecutePost, Mode: Chain, Actions: []Action{Modify, MessageAction, AbortTurn, HardAbort},
			Fields: []string{"tool_name", "params", "result", "error", "duration_ms"}, Doc: "a tool ran"},
		{Name: EventFileSavePre, Mode: Chain, Actions: []Action{Allow, Deny, Modify}, Fields: []string{"path", "content"},
			Doc: "a file is about to be written"},
		{Name: EventFileSavePost, Mode: Observe, Fields: []string{"path"}, Doc: "a file was written"},
		{Name: EventMessageSending, Mode: Chain, Actions: []Action{Modify, Deny}, Fields: []string{"channel", "content"},
			Doc: "a message is about to be sent; deny cancels it"},
		{Name: EventMessageReceived, Mode: Observe, Fields: []string{"channel", "content", "sender"}, Doc: "a message arrived"},
		{Name: EventNotification, Mode: Observe, Fields: []string{"message", "kind"}, Doc: "the agent notifies the user"},
		{Name: EventRuntimeEvent, Mode: Observe, Fields: []string{"kind", "source", "scope", "payload"}, Doc: "a runtime event"},
		{Name: EventError, Mode: Observe, Fields: []string{"stage", "error"}, Doc: "an error occurred"},
	}
}
