package testrun

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// runTableFile runs a table test's cases in order on one host: cases are
// data and usually independent, and one host keeps a large table fast;
// a case can still rely on the ones before it (a rate limit's sixth
// call).
func (r *runner) runTableFile(ctx context.Context, file string, code []byte) {
	tbl, err := DecodeTable(file, code)
	if err != nil {
		r.loadError(err)
		return
	}
	ts := &testState{r: r, hooksDir: tbl.HooksDir}
	defer ts.close()
	for _, c := range tbl.Cases {
		if ctx.Err() != nil {
			return
		}
		if r.selected(c.Name) {
			r.add(r.runCase(ctx, file, c, ts))
		}
	}
}

func (r *runner) runCase(ctx context.Context, file string, c Case, ts *testState) Result {
	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	res := Result{File: file, Name: c.Name, Line: c.Line, Outcome: Pass}
	_, err := ts.fireResult(cctx, c.Event, c.Payload, map[string]any{allowHookErrors: c.AllowHookErrors})
	res.Duration = time.Since(start)
	fires, misuse := ts.finish()
	res.Fires = fires
	switch {
	case err != nil && cctx.Err() != nil:
		res.Outcome, res.Failure = Error, fmt.Sprintf("%s:%d: %s: %v", file, c.Line, c.Name, cctx.Err())
	case err != nil && misuse != nil:
		res.Outcome, res.Failure = Error, fmt.Sprintf("%s:%d: %s: %v", file, c.Line, c.Name, err)
	case err != nil:
		res.Outcome, res.Failure = Fail, fmt.Sprintf("%s:%d: %s: %v", file, c.Line, c.Name, err)
	default:
		if line, e := checkCase(c, fires); e != nil {
			res.Outcome, res.Failure = Fail, fmt.Sprintf("%s:%d: %s: %v", file, line, c.Name, e)
		}
	}
	return res
}

// checkCase checks a case's expectations against its fire, with the
// expect module's own assertions, so a table test and a script test
// report a failure the same way. It returns the first failure and the
// line of its expectation.
func checkCase(c Case, fires []Fire) (line int, err error) {
	if len(fires) == 0 {
		return c.Line, fmt.Errorf("no fire was recorded")
	}
	v, err := resultValue(fires[len(fires)-1].Result)
	if err != nil {
		return c.Line, err
	}
	for _, e := range c.Expect {
		if err := checkExpectation(v, e); err != nil {
			return e.Line, err
		}
	}
	return 0, nil
}

// expectFuncs are the expect module's assertions by name, built on
// first use: every hookhost process links this package, few run tests.
var expectFuncs = sync.OnceValue(func() map[string]*stdlib.Func {
	m := scripting.ExpectModule()
	out := map[string]*stdlib.Func{}
	for i := range m.Funcs {
		out[m.Funcs[i].Name] = &m.Funcs[i]
	}
	return out
})

// checkExpectation runs one expectation: a key named after an expect
// function calls it on the result; reason compares exactly; payload
// compares each listed field; ran checks each hook id; shadow checks
// the trace entry of each hook id (see checkShadow).
func checkExpectation(result map[string]any, e Expectation) error {
	switch e.Key {
	case "reason":
		return assert("eq", result["reason"], e.Want, "reason")
	case "payload":
		payload, _ := result["payload"].(map[string]any)
		want := e.Want.(map[string]any)
		for _, k := range stdlib.SortedKeys(want) {
			if err := assert("eq", payload[k], want[k], "payload."+k); err != nil {
				return err
			}
		}
		return nil
	case "ran":
		for _, id := range e.Want.([]any) {
			if err := assert("ran", result, id, nil); err != nil {
				return err
			}
		}
		return nil
	case "shadow":
		want := e.Want.(map[string]any)
		for _, id := range stdlib.SortedKeys(want) {
			if err := checkShadow(result, id, want[id].(string)); err != nil {
				return err
			}
		}
		return nil
	}
	return assert(e.Key, result, e.Want, nil)
}

// checkShadow checks that hook id ran in shadow mode (its trace entry
// has enforce dryrun or warn) and returned action ("continue" for
// nothing): what the hook would decide once enforced.
func checkShadow(result map[string]any, id, action string) error {
	trace, _ := result["trace"].([]any)
	for _, t := range trace {
		entry, _ := t.(map[string]any)
		if entry["hook"] != id {
			continue
		}
		enforce, _ := entry["enforce"].(string)
		if enforce == "" {
			return fmt.Errorf("shadow: %s enforces its decisions (set hooks.\"%s\".enforce to dryrun or warn)", id, id)
		}
		got, _ := entry["action"].(string)
		if got == "" {
			got = "continue"
		}
		if got != action {
			return fmt.Errorf("shadow: %s (%s) would %s, want %s", id, enforce, got, action)
		}
		return nil
	}
	return fmt.Errorf("shadow: %s did not run", id)
}

// assert calls expect.name(args...) and returns its failure as
// "expect.name: …".
func assert(name string, args ...any) error {
	f := expectFuncs()[name]
	_, err := f.Impl(&stdlib.Call{Context: context.Background(), Func: f, Args: args})
	if err != nil {
		return fmt.Errorf("expect.%s: %s", name, strings.TrimSpace(err.Error()))
	}
	return nil
}
