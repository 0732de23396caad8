package testrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
	"github.com/hookhost/hookhost/stdlib"
)

// A testState is what one running test fires through: the host under
// test, made on the first fire, and the fires so far. hook.fire runs on
// a goroutine of its own (the test's deadline can abandon it), so the
// state is locked.
type testState struct {
	r        *runner
	hooksDir string // what the hooks are told they load from; "" is the directory tested

	mu     sync.Mutex
	h      *host.Host
	closed bool // the test ended: a fire it abandoned must not make a new host
	fires  []Fire
	misuse error // the last fire the test asked for wrongly
}

// errTestEnded is the error of a fire that starts after its test ended
// (one the test's deadline abandoned).
var errTestEnded = errors.New("the test has ended")

// allowHookErrors is the option of hook.fire (and the key of a table
// case) that lets a fire pass although a hook failed.
const allowHookErrors = "allow_hook_errors"

// fire fires through the host under test and returns the result as
// hook.fire gives it to the script.
func (ts *testState) fire(ctx context.Context, event string, payload, opts map[string]any) (map[string]any, error) {
	res, err := ts.fireResult(ctx, event, payload, opts)
	if err != nil {
		return nil, err
	}
	return resultValue(res)
}

// fireResult fires and checks the trace: a hook that failed or timed out
// is an error unless the options allow it.
func (ts *testState) fireResult(ctx context.Context, event string, payload, opts map[string]any) (host.Result, error) {
	allow, err := allowErrors(opts)
	if err != nil {
		return host.Result{}, ts.misused(err)
	}
	h, err := ts.host(ctx)
	if err != nil {
		return host.Result{}, err
	}
	res, err := h.Fire(ctx, event, payload)
	switch {
	case errors.Is(err, host.ErrUnknownEvent):
		return res, ts.misused(fmt.Errorf("%w (known events: %s)", err, eventNames(h)))
	case errors.Is(err, host.ErrBadPayload):
		return res, ts.misused(err)
	case err != nil:
		return res, err
	}
	ts.record(Fire{Event: event, Payload: payload, Result: res})
	if err := hookFailure(res); err != nil && !allow {
		return res, err
	}
	return res, nil
}

func allowErrors(opts map[string]any) (bool, error) {
	allow := false
	for _, k := range stdlib.SortedKeys(opts) {
		b, ok := opts[k].(bool)
		if k != allowHookErrors {
			return false, fmt.Errorf("unknown option %q (want %s)", k, allowHookErrors)
		}
		if !ok {
			return false, fmt.Errorf("option %s: want true or false, got %s", k, stdlib.TypeName(opts[k]))
		}
		allow = b
	}
	return allow, nil
}

// host returns the test's host, loading the directory on first use.
func (ts *testState) host(ctx context.Context) (*host.Host, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return nil, errTestEnded
	}
	if ts.h != nil {
		return ts.h, nil
	}
	h, err := ts.r.newHost(ctx, ts.hooksDir)
	if err != nil {
		return nil, fmt.Errorf("loading the hooks: %w", err)
	}
	ts.h = h
	return h, nil
}

func (ts *testState) record(f Fire) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.fires = append(ts.fires, f)
}

func (ts *testState) misused(err error) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.misuse = err
	return err
}

// finish returns the fires since the last finish and whether the test
// misused hook.fire, and forgets both.
func (ts *testState) finish() ([]Fire, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	fires, misuse := ts.fires, ts.misuse
	ts.fires, ts.misuse = nil, nil
	return fires, misuse
}

func (ts *testState) close() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.closed = true
	if ts.h != nil {
		ts.h.Close()
	}
}

// hookFailure reports the first hook of the trace that failed or timed
// out: a test passing over a broken hook would hide it.
func hookFailure(res host.Result) error {
	for _, t := range res.Trace {
		if t.Outcome == host.OutcomeError || t.Outcome == host.OutcomeTimeout {
			return fmt.Errorf("hook %s failed (%s): %s (to test a failing hook, fire with %s)",
				t.Hook, t.Outcome, firstLine(t.Error), allowHookErrors)
		}
	}
	return nil
}

// resultValue is the result as scripts see it: the fire --json object
// with the decision's fields (action, reason, hook, result, approval)
// at the top, next to payload, messages and trace.
func resultValue(res host.Result) (map[string]any, error) {
	data, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	v, err := wire.DecodePayload(data)
	if err != nil {
		return nil, fmt.Errorf("decoding the result: %w", err)
	}
	decision, _ := v["decision"].(map[string]any)
	delete(v, "decision")
	for k, x := range decision {
		v[k] = x
	}
	return v, nil
}

func eventNames(h *host.Host) string {
	var names []string
	for _, s := range h.Events() {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
