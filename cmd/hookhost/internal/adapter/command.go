package adapter

import (
	"context"
	"fmt"
	"io"

	"github.com/hookhost/hookhost/host/wire"
)

// A Failure is hookhost failing to answer an agent: stdin that is not an
// event, hooks that cannot be loaded, a server that is down with no
// fallback. Block says whether the agent should block (exit 2) rather
// than proceed (exit 1).
type Failure struct {
	Err   error
	Block bool
}

func (f *Failure) Error() string { return f.Err.Error() }

func (f *Failure) Unwrap() error { return f.Err }

// A Connector gives the Firer that fires event: a server's client, or a
// host loaded in this process (which may load only the files event
// needs). The caller closes it.
type Connector func(ctx context.Context, event string) (Firer, error)

// CommandOptions configure RunCommand.
type CommandOptions struct {
	Dialect CommandDialect
	Connect Connector
	// FailClosed makes hookhost's own failures block the agent at the
	// events where it can (Dialect.Blocks), and when stdin is not an
	// event at all.
	FailClosed bool
	// Log receives notes: unmapped events, decisions the agent cannot
	// express. Nil discards them.
	Log io.Writer
}

// RunCommand answers one command-hook event: it reads the event from
// stdin, fires it and writes the answer — at most one JSON object, or
// nothing when the hooks had no opinion — to stdout. Its error is a
// *Failure, or a failure to write stdout.
func RunCommand(ctx context.Context, opts CommandOptions, stdin io.Reader, stdout io.Writer) error {
	d := opts.Dialect
	data, err := io.ReadAll(stdin)
	if err != nil {
		return &Failure{Err: fmt.Errorf("reading the event from stdin: %w", err), Block: opts.FailClosed}
	}
	input, err := wire.DecodePayload(data)
	if err != nil {
		return &Failure{Err: fmt.Errorf("stdin is not a %s hook event: %w", d.Name(), err), Block: opts.FailClosed}
	}
	call := d.Request(input)
	if call.Event == "" {
		opts.note("event %q is not one hookhost maps: no answer", call.AgentEvent)
		return nil
	}
	fail := func(err error) error {
		return &Failure{Err: fmt.Errorf("%s: %w", call.AgentEvent, err), Block: opts.FailClosed && d.Blocks(call.AgentEvent)}
	}
	f, err := opts.Connect(ctx, call.Event)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	res, err := f.Fire(ctx, call.Event, call.Payload)
	if err != nil {
		return fail(err)
	}
	ans := d.Answer(call, res)
	for _, n := range ans.Notes {
		opts.note("%s: %s", call.AgentEvent, n)
	}
	if ans.Output == nil {
		return nil
	}
	if err := wire.WriteJSONLine(stdout, ans.Output); err != nil {
		return fail(fmt.Errorf("writing the answer: %w", err))
	}
	return nil
}

func (o CommandOptions) note(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, "hookhost %s: %s\n", o.Dialect.Name(), fmt.Sprintf(format, args...))
	}
}
