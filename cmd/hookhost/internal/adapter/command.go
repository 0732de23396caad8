package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/hookhost/hookhost/cmd/internal/autosock"
)

// MaxEvent bounds the event a command hook reads from stdin, in bytes (as
// serve's default body limit): an event past it is a failure, not a
// process that grows with whatever the agent sends.
const MaxEvent = autosock.MaxEvent

// A Failure is hookhost failing to answer an agent: stdin that is not an
// event, hooks that cannot be loaded, a server that is down with no
// fallback, a fire that failed. Block says whether the agent should block
// rather than proceed; Status is the exit status that tells the agent so:
// 2 (block) or 1 (proceed), unless the dialect is a FailingDialect.
type Failure struct {
	Err    error
	Block  bool
	Status int
}

// A FailingDialect is a command dialect whose agent does not read exit
// status 2 as "block" and 1 as "proceed" (Copilot CLI: 2 is a warning
// whose stdout is still the answer, 1 denies a tool call): it says itself
// how a failure reaches the agent.
type FailingDialect interface {
	CommandDialect
	// Fail is what hookhost's own failure err at call tells the agent,
	// given whether it must block: the answer to print (none when Output
	// is nil) and the exit status.
	Fail(call Call, err error, block bool) (Answer, int)
}

// Error is the failure's cause; Block and Status are how it reaches the agent.
func (f *Failure) Error() string { return f.Err.Error() }

// Unwrap gives the cause.
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
	// Event names the agent's event when its input does not (Copilot
	// CLI's command line names it; see Decode); empty for agents that
	// name it in hook_event_name.
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
		return opts.failure(stdout, call, err)
	}
	if call.Event == "" {
		opts.note("event %q is not one hookhost maps: no answer", call.AgentEvent)
		return nil
	}
	f, err := opts.Connect(ctx, call)
	if err != nil {
		return opts.failure(stdout, call, err)
	}
	defer f.Close()
	ans, err := Exchange(ctx, d, f, call)
	if err != nil {
		return opts.failure(stdout, call, err)
	}
	for _, n := range ans.Notes {
		opts.note("%s: %s", call.AgentEvent, n)
	}
	out, err := Encode(ans)
	if err == nil && out != nil {
		_, err = stdout.Write(out)
	}
	if err != nil {
		return opts.failure(nil, call, fmt.Errorf("writing the answer: %w", err))
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
// fail open. A FailingDialect says how instead, and what its answer to
// print on stdout (nil when the answer itself could not be written) is.
func (o CommandOptions) failure(stdout io.Writer, call Call, err error) *Failure {
	if call.AgentEvent != "" {
		err = fmt.Errorf("%s: %w", call.AgentEvent, err)
	}
	f := &Failure{Err: err, Block: !o.FailOpen && (call.Guard || call.Event == "")}
	f.Status = 1
	if f.Block {
		f.Status = 2
	}
	fd, ok := o.Dialect.(FailingDialect)
	if !ok {
		return f
	}
	var ans Answer
	ans, f.Status = fd.Fail(call, err, f.Block)
	if out, werr := Encode(ans); werr == nil && out != nil && stdout != nil {
		_, werr = stdout.Write(out)
		if werr != nil {
			o.note("writing the answer to a failure: %v", werr)
		}
	} else if werr != nil {
		o.note("writing the answer to a failure: %v", werr)
	}
	return f
}

func (o CommandOptions) note(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, "hookhost %s: %s\n", o.Dialect.Name(), fmt.Sprintf(format, args...))
	}
}
