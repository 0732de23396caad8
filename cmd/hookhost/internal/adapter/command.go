package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// MaxEvent bounds the event a command hook reads from stdin, in bytes (as
// serve's default body limit): an event past it is a failure, not a
// process that grows with whatever the agent sends.
const MaxEvent = 8 << 20

// A Failure is hookhost failing to answer an agent: stdin that is not an
// event, hooks that cannot be loaded, a server that is down with no
// fallback, a fire that failed. Block says whether the agent should block
// (exit 2) rather than proceed (exit 1).
type Failure struct {
	Err   error
	Block bool
}

func (f *Failure) Error() string { return f.Err.Error() }

func (f *Failure) Unwrap() error { return f.Err }

// A Connector gives the Firer that fires call: a server's client, or a
// host loaded in this process (which may load only the files the call's
// event needs, and may refuse to decide a guard event with hooks that did
// not load). The caller closes it.
type Connector func(ctx context.Context, call Call) (Firer, error)

// CommandOptions configure RunCommand.
type CommandOptions struct {
	Dialect CommandDialect
	Connect Connector
	// FailOpen makes every failure of hookhost's own let the agent proceed
	// (exit 1). Without it a failure blocks (exit 2) at the dialect's guard
	// events, and when stdin does not say which event it is.
	FailOpen bool
	// Log receives notes: unmapped events, decisions the agent cannot
	// express. Nil discards them.
	Log io.Writer
	// Event names the agent's event when its input does not (see
	// Decode); empty for agents that name it in hook_event_name.
	Event string
}

// RunCommand answers one command-hook event: it reads the event from
// stdin, fires it and writes the answer — at most one JSON object, or
// nothing when the hooks had no opinion — to stdout. Its error is a
// *Failure.
func RunCommand(ctx context.Context, opts CommandOptions, stdin io.Reader, stdout io.Writer) error {
	d := opts.Dialect
	call, err := readEvent(d, stdin, opts.Event)
	if err != nil {
		return opts.failure(call, err)
	}
	if call.Event == "" {
		opts.note("event %q is not one hookhost maps: no answer", call.AgentEvent)
		return nil
	}
	f, err := opts.Connect(ctx, call)
	if err != nil {
		return opts.failure(call, err)
	}
	defer f.Close()
	ans, err := Exchange(ctx, d, f, call)
	if err != nil {
		return opts.failure(call, err)
	}
	for _, n := range ans.Notes {
		opts.note("%s: %s", call.AgentEvent, n)
	}
	out, err := Encode(ans)
	if err == nil && out != nil {
		_, err = stdout.Write(out)
	}
	if err != nil {
		return opts.failure(call, fmt.Errorf("writing the answer: %w", err))
	}
	return nil
}

// readEvent reads the event from stdin and maps it (see Decode). When it
// cannot be read, call is what could still be learnt of it.
func readEvent(d CommandDialect, stdin io.Reader, event string) (Call, error) {
	data, err := io.ReadAll(io.LimitReader(stdin, MaxEvent+1))
	switch {
	case err != nil:
		return sniffOrNamed(d, data, event), fmt.Errorf("reading the event from stdin: %w", err)
	case len(data) > MaxEvent:
		return sniffOrNamed(d, data, event), fmt.Errorf("stdin is not a %s hook event: longer than %d bytes", d.Name(), MaxEvent)
	case len(bytes.TrimSpace(data)) == 0:
		return named(d, event), fmt.Errorf("stdin is empty: want a %s hook event", d.Name())
	}
	call, err := Decode(d, data, event)
	if err != nil {
		return call, fmt.Errorf("stdin is %w", err)
	}
	return call, nil
}

// sniffOrNamed is the call for the event the transport names, or else
// the one data names at its top level.
func sniffOrNamed(d CommandDialect, data []byte, event string) Call {
	if event != "" {
		return named(d, event)
	}
	return sniffEvent(d, data)
}

// sniffEvent maps the event an input that does not decode (too deep, too
// long, cut short) names at its top level, so that its failure blocks
// where the event is a guard and not where blocking means something else
// (Stop). An input that names none, or two, maps to nothing.
func sniffEvent(d CommandDialect, data []byte) Call {
	var name string
	if json.Unmarshal(topLevel(data, "hook_event_name")["hook_event_name"], &name) != nil || name == "" {
		return Call{}
	}
	return d.Request(map[string]any{"hook_event_name": name})
}

// failure is err as the agent must read it: blocking (exit 2) at a guard
// event, or at an event nobody could name, unless the operator chose to
// fail open.
func (o CommandOptions) failure(call Call, err error) *Failure {
	if call.AgentEvent != "" {
		err = fmt.Errorf("%s: %w", call.AgentEvent, err)
	}
	return &Failure{Err: err, Block: !o.FailOpen && (call.Guard || call.Event == "")}
}

func (o CommandOptions) note(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, "hookhost %s: %s\n", o.Dialect.Name(), fmt.Sprintf(format, args...))
	}
}
