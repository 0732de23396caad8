package adapter

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// The core of a command-hook exchange, whatever carries it: a command
// reads the event from stdin and prints the answer (RunCommand); serve
// reads it from a request body and answers it as the response body
// (POST /v1/agents/{agent}). Both decode with Decode, fire, map the
// result with the dialect's Answer and encode with Encode, so the agent
// gets the same bytes from either; where hookhost cannot decide, both
// block at guard events — the command by its exit status, serve by
// answering Refusal, since an agent reads an HTTP error as "proceed".

// Decode maps an agent's event, as the agent sent it. event, when not
// empty, is the agent's name for the event as the transport knows it
// (a command-line flag, a URL path) for agents whose input does not
// name it: it goes into hook_event_name, and an input that names another
// event there (not the same name in another case) is an error. When data does not decode, the call is what
// could still be learnt of it (see sniffEvent), so that the failure
// blocks only where the event is a guard.
func Decode(d CommandDialect, data []byte, event string) (Call, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return named(d, event), fmt.Errorf("not a %s hook event: empty", d.Name())
	}
	input, err := wire.DecodePayload(data)
	if err != nil {
		call := named(d, event)
		if event == "" {
			call = sniffEvent(d, data)
		}
		return call, fmt.Errorf("not a %s hook event: %w", d.Name(), err)
	}
	if event != "" {
		if name := EventName(input); name != "" && !strings.EqualFold(name, event) {
			// A guard either way fails as a guard.
			call := d.Request(input)
			if other := named(d, event); !call.Guard && other.Guard {
				call = other
			}
			return call, fmt.Errorf("not a %s %s event: it names itself %q", d.Name(), event, name)
		}
		// The same name in another case is the same event: Copilot CLI's
		// notification input names itself "Notification" while its hook
		// is wired as notification. The transport's spelling is the one
		// the dialect's table knows.
		input[eventField] = event
	}
	return d.Request(input), nil
}

// eventField is the field where the agents name their events.
const eventField = "hook_event_name"

// named is the call for the event name alone, or nothing.
func named(d CommandDialect, event string) Call {
	if event == "" {
		return Call{}
	}
	return d.Request(map[string]any{eventField: event})
}

// Exchange fires call through f and maps the result to the agent's
// answer. A call whose event the dialect does not map gets no answer
// and fires nothing.
func Exchange(ctx context.Context, d CommandDialect, f interface {
	Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error)
}, call Call) (Answer, error) {
	if call.Event == "" {
		return Answer{Notes: []string{"not an event hookhost maps: no answer"}}, nil
	}
	res, err := f.Fire(ctx, call.Event, call.Payload)
	if err != nil {
		return Answer{}, err
	}
	return d.Answer(call, res), nil
}

// Encode is the answer as the agent reads it: one line of JSON, or
// nothing when there is no answer.
func Encode(ans Answer) ([]byte, error) {
	if ans.Output == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := wire.WriteJSONLine(&buf, ans.Output); err != nil {
		return nil, fmt.Errorf("encoding the answer: %w", err)
	}
	return buf.Bytes(), nil
}

// Refusal is the answer that blocks call because hookhost could not
// decide it (err says why): what the dialect answers to a deny with that
// reason, or to abort_turn where the hookhost event cannot be denied
// (a model request), since stopping the turn is then the only way to
// block. It is meant for guard events, where every dialect's answer to
// one of the two blocks.
func Refusal(d CommandDialect, call Call, err error) Answer {
	action := host.AbortTurn
	if allows(call.Event, host.Deny) {
		action = host.Deny
	}
	res := host.Result{Event: call.Event, Payload: call.Payload,
		Decision: host.Decision{Action: action, Reason: "hookhost: " + err.Error()}}
	return d.Answer(call, res)
}

// allows reports whether the built-in event lets hooks decide action.
func allows(event string, action host.Action) bool {
	for _, spec := range host.AgentEvents() {
		if spec.Name == event {
			return slices.Contains(spec.Actions, action)
		}
	}
	return false
}
