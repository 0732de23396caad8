package testrun

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sync"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib/std"
)

// A scriptFile is a Lua or Starlark test file being run: its test_*
// functions run one at a time, each on a host of its own, so that no
// test sees what another left in the state module and -run cannot change
// an outcome.
type scriptFile struct {
	r    *runner
	file string

	mu  sync.Mutex
	cur *testState // the running test; nil while the file's top level runs
}

// errTopLevelFire is hook.fire's error outside a test function.
var errTopLevelFire = errors.New("call hook.fire inside a test_ function: no test is running at the top level of the file")

func (r *runner) runScriptFile(ctx context.Context, file string, code []byte) {
	sf := &scriptFile{r: r, file: file}
	env := &scripting.Env{
		Modules: std.Modules(std.Options{Logger: r.opts.Logger}),
		Logger:  r.opts.Logger,
		Testing: true,
		Fire:    sf.fire,
	}
	prog, err := engineFor(path.Ext(file)).Compile(ctx, scripting.Source{Name: file, Code: code}, env)
	if err != nil {
		r.loadError(err)
		return
	}
	defer prog.Close()
	tp, ok := prog.(scripting.TestProgram)
	if !ok {
		r.loadError(scripting.Errorf(file, 0, "the %s engine cannot list test functions", path.Ext(file)))
		return
	}
	for _, t := range tp.Tests() {
		if ctx.Err() != nil {
			return
		}
		if r.selected(t.Name) {
			r.add(sf.run(ctx, t))
		}
	}
}

// fire is the file's Env.Fire: it fires through the running test's host.
func (sf *scriptFile) fire(ctx context.Context, event string, payload, opts map[string]any) (map[string]any, error) {
	sf.mu.Lock()
	ts := sf.cur
	sf.mu.Unlock()
	if ts == nil {
		return nil, errTopLevelFire
	}
	return ts.fire(ctx, event, payload, opts)
}

func (sf *scriptFile) setCurrent(ts *testState) {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	sf.cur = ts
}

// run calls one test function under the test deadline. A test that
// overruns it is interrupted (and a hook.fire it was waiting on
// abandoned).
func (sf *scriptFile) run(ctx context.Context, t scripting.Test) Result {
	ts := &testState{r: sf.r}
	sf.setCurrent(ts)
	defer sf.setCurrent(nil)
	defer ts.close()
	timeout := sf.r.opts.Timeout
	start := time.Now()
	c := &scripting.Call{Payload: map[string]any{}, Config: map[string]any{}, Hook: sf.file + ":" + t.Name,
		Timeout: timeout, Deadline: start.Add(timeout)}
	timer := time.AfterFunc(timeout, c.Interrupt)
	defer timer.Stop()
	stop := context.AfterFunc(ctx, c.Interrupt)
	defer stop()
	_, err := t.Func.Call(c)
	res := Result{File: sf.file, Name: t.Name, Line: t.Line, Duration: time.Since(start), Outcome: Pass}
	fires, misuse := ts.finish()
	res.Fires = fires
	switch {
	case err == nil:
	case c.Interrupted() && ctx.Err() != nil:
		res.Outcome, res.Failure = Error, fmt.Sprintf("%s:%d: %s was interrupted: %v", sf.file, t.Line, t.Name, ctx.Err())
	case c.Interrupted():
		res.Outcome, res.Failure = Error, fmt.Sprintf("%s:%d: %s timed out after %v", sf.file, t.Line, t.Name, timeout)
	case misuse != nil:
		res.Outcome, res.Failure = Error, failureText(err)
	default:
		res.Outcome, res.Failure = Fail, failureText(err)
	}
	return res
}
