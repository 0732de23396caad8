package host

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync/atomic"
	"time"

	"github.com/hookhost/hookhost/host/isolate"
	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// Fire runs event's hooks on payload and folds their returns into one
// decision, per the event's mode. It is safe for concurrent
// use. The payload is read, never modified.
//
// Fire returns an error only when the fire could not run as asked: the
// event is unknown (ErrUnknownEvent), the payload is not made of neutral
// values (ErrBadPayload), the host is closed (ErrClosed), or ctx ended
// during the fire. In the last case the Result is still usable: it holds
// what ran, and a fail-closed event's decision is deny. Hook failures are
// not errors: they are in the trace, and the event's behaviour applies.
func (h *Host) Fire(ctx context.Context, event string, payload map[string]any) (Result, error) {
	var r Result
	err := h.FireInto(ctx, &r, event, payload)
	return r, err
}

// fireOn fires on one snapshot; ran is false when the fire could not run
// (unknown event, bad payload).
func (h *Host) fireOn(ctx context.Context, snap *snapshot, event string, payload map[string]any, reuse firingMemory) (r Result, err error, ran bool) {
	t := snap.events[event]
	if t == nil {
		return Result{Event: event, Decision: Decision{Action: Continue}, Payload: payload, Problems: snap.problemLines},
			fmt.Errorf("%w %q", ErrUnknownEvent, event), false
	}
	if payload == nil {
		payload = map[string]any{}
	}
	badPayload := func(err error) (Result, error, bool) {
		return Result{Event: event, Decision: Decision{Action: t.spec.Default}, Payload: payload, Problems: snap.problemLines},
			fmt.Errorf("%w: %w", ErrBadPayload, err), false
	}
	first := firstToRun(t.hooks, h.now)
	if err := checkPayload(payload, first); err != nil {
		return badPayload(err)
	}
	if snap.strictDeny != "" && t.spec.allows(Deny) {
		if err := checkBound(payload, first); err != nil {
			return badPayload(err)
		}
		return Result{Event: event, Decision: Decision{Action: Deny, Reason: snap.strictDeny}, Payload: payload,
			Problems: snap.problemLines}, nil, true
	}
	fr := firing{h: h, ctx: ctx, spec: &t.spec, payload: payload, first: first, trace: reuse.trace, messages: reuse.messages}
	r, err = fr.run(t.hooks)
	if fr.badPayload != nil {
		return badPayload(fr.badPayload)
	}
	r.Problems = snap.problemLines
	return r, err, true
}

// A firing is the state of one fire as it folds.
type firing struct {
	h       *Host
	ctx     context.Context
	spec    *EventSpec
	payload map[string]any
	copied  bool // payload is our own copy, safe to change

	// first is the hook whose binding checks the fields it binds (see
	// checkPayload); called records that it ran, and badPayload is the
	// payload's error when its binding found one (the fire then reports
	// a bad payload, not a result).
	first      *boundHook
	called     bool
	badPayload error

	// now is when the next hook starts (see clock.go): read once per
	// fire, then advanced by each call's duration, so a hook costs one
	// clock read.
	now time.Duration

	modifiedBy string // the last hook that changed the payload
	messages   []Message
	trace      []TraceEntry

	// The decisions the fold keeps, by value so that a fire allocates
	// none; an empty Action means not set.
	terminal, firstAsk, firstAllow, winner, failed Decision

	// ctxEnded records that the caller's context ended the fire, and
	// unrun are the hooks it left uncalled.
	ctxEnded bool
	unrun    []*boundHook
	// watch is set when the caller's context can end the fire; a separate
	// object so that a firing with a context.Background() stays off the
	// heap.
	watch *ctxWatch
}

// allocate makes room for the trace of a fire of n hooks, unless the
// trace it reuses has it.
func (fr *firing) allocate(n int) {
	if cap(fr.trace) < n {
		fr.trace = make([]TraceEntry, 0, n)
	}
}

// A ctxWatch interrupts the running hook when the caller's context ends.
type ctxWatch struct {
	cancelled atomic.Bool
	current   atomic.Pointer[scripting.Call]
}

func (w *ctxWatch) cancel() {
	w.cancelled.Store(true)
	if c := w.current.Load(); c != nil {
		c.Interrupt()
	}
}

// cancelled reports whether the caller's context ended the fire, by
// cancellation or by its deadline (which the watchdog may have reached
// first).
func (fr *firing) cancelled() bool {
	return fr.ctxEnded || fr.watch != nil && fr.watch.cancelled.Load()
}

func (fr *firing) run(hooks []*boundHook) (Result, error) {
	if len(hooks) == 0 {
		return fr.result()
	}
	fr.allocate(len(hooks))
	fr.now = monoNow()
	if fr.ctx.Done() != nil {
		fr.watch = &ctxWatch{}
		stop := context.AfterFunc(fr.ctx, fr.watch.cancel)
		defer stop()
	}
	for i, b := range hooks {
		if fr.cancelled() {
			fr.unrun = hooks[i:]
			break
		}
		if b != fr.first && b.strikes.quarantined.Load() {
			if held, ends := fr.quarantined(b); held {
				if ends {
					break
				}
				continue
			}
		}
		if fr.step(b) {
			break
		}
	}
	if !fr.called && fr.badPayload == nil {
		fr.badPayload = checkBound(fr.payload, fr.first)
	}
	return fr.result()
}

// quarantined handles a hook whose quarantine flag is set: while the
// quarantine is in force the hook is not called and fails (held), with
// its error behaviour, and the trace says since when, until when and
// why; a quarantine whose cool-down is over ends here, and the hook runs.
func (fr *firing) quarantined(b *boundHook) (held, ends bool) {
	now := fr.h.now()
	qi, ok := b.strikes.info(now)
	if !ok {
		if b.strikes.expire(now) {
			fr.h.quarantineExpired(b.strikes)
		}
		return false, false
	}
	err := quarantineError(b, qi)
	fr.trace = append(fr.trace, TraceEntry{Hook: b.id, Priority: b.priority, Outcome: OutcomeError, Error: err.Error(),
		Enforce: b.shadowMode()})
	if b.enforce.shadow() {
		return true, false
	}
	return true, fr.fail(b, OutcomeError, err)
}

// step calls one hook and folds its reply; it reports whether the chain
// ends here.
func (fr *firing) step(b *boundHook) bool {
	rep, entry, failure := fr.call(b)
	if fr.badPayload != nil {
		return true
	}
	if failure != nil && !fr.ctxEnded { // a fire its caller ended is not the hook's failure
		fr.h.noteFailure(b, entry)
	}
	if b.enforce.shadow() {
		entry.Enforce = b.enforce
		fr.trace = append(fr.trace, entry)
		if failure == nil {
			fr.shadow(b, rep)
		}
		return false
	}
	fr.trace = append(fr.trace, entry)
	if failure != nil {
		return fr.fail(b, entry.Outcome, failure)
	}
	switch fr.spec.Mode {
	case Chain:
		return fr.foldChain(b, rep)
	case First:
		return fr.foldFirst(b, rep)
	case Collect:
		fr.messages = append(fr.messages, rep.messages...)
		return rep.stop
	default: // Observe
		if rep.action != Continue || len(rep.messages) > 0 || rep.stop {
			fr.h.logger.Warn("observe hook returned a decision; it is ignored", "hook", b.id, "event", fr.spec.Name)
		}
		return false
	}
}

// shadow handles the reply of a hook in shadow mode: it is in the trace
// (the caller put it there) and folds into nothing; a warn hook that
// decided something says what it would have done in a system message.
// Its own messages are not applied either: they are part of what it
// returned.
func (fr *firing) shadow(b *boundHook, rep reply) {
	if b.enforce != Warn || fr.spec.Mode == Observe {
		return
	}
	what := rep.action
	switch {
	case what == Continue && rep.stop:
		what = "stop"
	case what == Continue:
		return
	}
	text := fmt.Sprintf("%s would %s", b.id, what)
	if rep.reason != "" {
		text += ": " + rep.reason
	}
	fr.messages = append(fr.messages, Message{Role: "system", Content: text})
}

// shadowMode is the hook's enforcement as its trace entries carry it:
// empty when its decisions count.
func (b *boundHook) shadowMode() Enforcement {
	if b.enforce.shadow() {
		return b.enforce
	}
	return ""
}

// call runs one hook under its deadline and classifies the outcome: once
// its worker is ready, its turn as a suspect has come (heapblame.go) and
// it has a run slot (runslots.go), so that none of those waits is the
// hook's time.
func (fr *firing) call(b *boundHook) (reply, TraceEntry, error) {
	if b.worker != nil && !b.worker.Ready() {
		if entry, err := fr.awaitWorker(b); err != nil {
			return reply{}, entry, err
		}
	}
	if fr.h.wd.isSuspect(b.id, fr.now) {
		release, entry, err := fr.awaitTurn(b)
		if err != nil {
			return reply{}, entry, err
		}
		defer release()
	}
	sem, ok := fr.h.slots.tryAcquire()
	if !ok {
		var entry TraceEntry
		var err error
		if sem, entry, err = fr.awaitSlot(b); err != nil {
			return reply{}, entry, err
		}
	}
	rep, entry, err := fr.callTimed(b)
	releaseSlot(sem)
	return rep, entry, err
}

// callTimed is call once the hook may start: it runs the hook under its
// deadline. It is apart from call so that each has one defer the
// compiler can open-code: with both in one function, the defers went
// through the runtime's defer records, whose pointer writes cost a
// Starlark fire about 2 % of its CPU while the collector marks.
func (fr *firing) callTimed(b *boundHook) (reply, TraceEntry, error) {
	start := fr.now
	deadline, ctxBound := fr.deadline(b)
	wc := fr.h.wd.newCall()
	c := &wc.Call
	v, free, err := fr.invoke(b, wc, deadline)
	defer func() {
		if free && !c.Interrupted() && !c.Abandoned() {
			fr.h.wd.reuseCall(wc)
		}
	}()
	if fr.firstCallFailed(b, err) {
		return reply{}, TraceEntry{}, fr.badPayload
	}
	fr.now = monoNow()
	entry := TraceEntry{Hook: b.id, Priority: b.priority, Duration: fr.now - start}
	if hit := wc.heapHit.Load(); hit != heapNotHit && c.Interrupted() {
		err := fr.h.heapFailure(b, hit)
		entry.Outcome, entry.Error = OutcomeError, err.Error()
		return reply{}, entry, err
	}
	if c.Interrupted() || fr.now > deadline {
		return fr.timedOut(b, c, entry, deadline, ctxBound)
	}
	if err != nil {
		return fr.callFailed(b, entry, err)
	}
	return fr.replied(b, v, entry)
}

// deadline is when the hook's call must end, on the monotonic clock of
// fr.now: its own timeout from when it starts, or the caller's deadline
// if that comes first (ctxBound).
func (fr *firing) deadline(b *boundHook) (deadline time.Duration, ctxBound bool) {
	deadline = fr.now + b.timeout
	if d, ok := fr.ctx.Deadline(); ok {
		if cd := d.Sub(epoch); cd < deadline {
			return cd, true
		}
	}
	return deadline, false
}

// invoke calls the hook's function with wc under the watchdog, where the
// caller's context can interrupt it too. free reports whether wc may go
// back to the pool once the caller has read it: not when the watchdog
// still holds it, a context watch may still reach it, or a worker may
// still answer into it.
func (fr *firing) invoke(b *boundHook, wc *watchedCall, deadline time.Duration) (v any, free bool, err error) {
	c := &wc.Call
	c.Payload, c.Event, c.Hook, c.Config, c.HooksDir = fr.payload, fr.spec.Name, b.id, b.config, fr.h.hooksDir
	c.Timeout, c.Deadline = b.timeout, monoTime(deadline)
	wc.isolated = b.worker != nil
	slot := fr.h.wd.watch(wc)
	if w := fr.watch; w != nil {
		w.current.Store(c)
		if w.cancelled.Load() {
			c.Interrupt()
		}
	}
	v, err = b.fn.Call(c)
	if w := fr.watch; w != nil {
		w.current.Store(nil)
	}
	free = fr.h.wd.unwatch(slot, wc) && fr.watch == nil && b.worker == nil
	return v, free, err
}

// firstCallFailed records that the first hook has been called and
// reports whether its failure was the payload's. The first hook's
// binding checks the fields it converts, but a call that failed for any
// reason — a field that is not neutral, the memory limit reached while
// binding an earlier field, an interrupt before the script started — may
// have stopped before it checked them all; so any failure of the first
// call checks the whole payload (on the error path only). A payload it
// accepts was neutral all along, and the hook's own error stands.
func (fr *firing) firstCallFailed(b *boundHook, err error) bool {
	if b != fr.first || fr.called {
		return false
	}
	fr.called = true
	if err == nil {
		return false
	}
	fr.badPayload = stdlib.Check(fr.payload)
	return fr.badPayload != nil
}

// timedOut classifies a call that was interrupted or ran past its
// deadline: the caller's context ending, Close cutting it off, or the
// hook's own timeout (a strike).
func (fr *firing) timedOut(b *boundHook, c *scripting.Call, entry TraceEntry, deadline time.Duration, ctxBound bool) (reply, TraceEntry, error) {
	entry.Outcome = OutcomeTimeout
	if fr.now <= deadline && fr.ctx.Err() == nil && fr.h.wd.closing.Load() {
		// Close cut the call off, not its deadline: no strike, and
		// the trace says so.
		entry.Error = "interrupted: the host was closed"
		return reply{}, entry, errors.New(entry.Error)
	}
	// The watchdog may beat the context's own timer: a call cut at
	// the caller's deadline ends the fire even if ctx.Err is still nil.
	fr.ctxEnded = ctxBound || fr.ctx.Err() != nil
	fr.h.noteOverrun(b, c)
	entry.Error = fr.timeoutText(b, ctxBound)
	return reply{}, entry, errors.New(entry.Error)
}

// callFailed records a hook's error in its trace entry and the log; a
// worker that died is a strike against the hook.
func (fr *firing) callFailed(b *boundHook, entry TraceEntry, err error) (reply, TraceEntry, error) {
	entry.Outcome, entry.Error = OutcomeError, err.Error()
	fr.h.logFailure(b, err)
	if errors.Is(err, isolate.ErrWorkerDied) {
		fr.h.strike(b, "its worker process died")
	}
	return reply{}, entry, err
}

// replied reads what a hook that ran to the end returned: a value that
// is not a reply the event allows is the hook's error, at its line.
func (fr *firing) replied(b *boundHook, v any, entry TraceEntry) (reply, TraceEntry, error) {
	rep, err := parseReply(v, fr.spec)
	if err != nil {
		return fr.callFailed(b, entry, &scripting.Error{File: b.file, Line: b.line, Hook: b.id, Msg: "bad return value: " + err.Error()})
	}
	entry.Outcome, entry.Action = outcomeOf(rep)
	return rep, entry, nil
}

// awaitWorker waits for the worker of an isolated hook while it starts
// (after a death), before the hook's clock starts: a restart is not the
// hook's time, and the wait is bounded by the worker's start-up limit and
// the caller's context. A worker that cannot start is the hook's failure.
func (fr *firing) awaitWorker(b *boundHook) (TraceEntry, error) {
	begin := time.Now()
	err := b.worker.AwaitReady(fr.ctx, b.id)
	fr.now = monoNow()
	waited := time.Since(begin)
	if err == nil {
		fr.h.logger.Info("waited for an isolated hook's worker to start", "hook", b.id, "waited", waited)
		return TraceEntry{}, nil
	}
	entry := TraceEntry{Hook: b.id, Priority: b.priority, Duration: waited}
	if fr.ctx.Err() != nil {
		fr.ctxEnded = true
		entry.Outcome, entry.Error = OutcomeTimeout, fr.timeoutText(b, false)
		return entry, errors.New(entry.Error)
	}
	entry.Outcome, entry.Error = OutcomeError, err.Error()
	fr.h.logFailure(b, err)
	return entry, err
}

// awaitTurn waits, before the hook's clock starts, until no other
// suspect of growing the heap runs (heapblame.go); the wait is bounded by
// the caller's context.
func (fr *firing) awaitTurn(b *boundHook) (release func(), entry TraceEntry, err error) {
	begin := time.Now()
	release, err = fr.h.wd.awaitTurn(fr.ctx)
	fr.now = monoNow()
	if err == nil {
		return release, TraceEntry{}, nil
	}
	fr.ctxEnded = true
	entry = TraceEntry{Hook: b.id, Priority: b.priority, Duration: time.Since(begin), Outcome: OutcomeTimeout,
		Error: fr.timeoutText(b, false)}
	return nil, entry, errors.New(entry.Error)
}

func outcomeOf(rep reply) (Outcome, Action) {
	var a Action
	if rep.action != Continue {
		a = rep.action
	}
	switch {
	case rep.stop:
		return OutcomeStop, a
	case a != "" || len(rep.messages) > 0:
		return OutcomeDecision, a
	}
	return OutcomeNone, a
}

func (fr *firing) timeoutText(b *boundHook, ctxBound bool) string {
	if fr.ctx.Err() != nil {
		return fmt.Sprintf("the fire was cancelled: %v", context.Cause(fr.ctx))
	}
	if ctxBound {
		return fmt.Sprintf("the fire was cancelled: %v", context.DeadlineExceeded)
	}
	return fmt.Sprintf("timed out after %v", b.timeout)
}

// fail applies the hook's own behaviour for its failure (behavior.go)
// and reports whether the fire ends.
func (fr *firing) fail(b *boundHook, o Outcome, err error) bool {
	behavior, what := b.onError, "failed: "+err.Error()
	if o == OutcomeTimeout {
		behavior, what = b.onTimeout, err.Error()
	}
	if behavior != FailClosed {
		return false
	}
	fr.failed = Decision{Action: Deny, Reason: fmt.Sprintf("hook %s %s", b.id, what), Hook: b.id}
	return true
}

func (fr *firing) foldChain(b *boundHook, rep reply) bool {
	fr.messages = append(fr.messages, rep.messages...)
	switch a := rep.action; {
	case a == Modify:
		fr.apply(b, rep.fields)
	case a == Allow && fr.firstAllow.Action == "":
		fr.firstAllow = decisionOf(b, rep)
	case a == Ask && fr.firstAsk.Action == "":
		fr.firstAsk = decisionOf(b, rep)
	case a.terminal():
		fr.terminal = decisionOf(b, rep)
		return true
	}
	return rep.stop
}

func (fr *firing) foldFirst(b *boundHook, rep reply) bool {
	fr.messages = append(fr.messages, rep.messages...)
	if rep.action == Continue {
		return rep.stop
	}
	if rep.action == Modify {
		fr.apply(b, rep.fields)
	}
	fr.winner = decisionOf(b, rep)
	return true
}

func decisionOf(b *boundHook, rep reply) Decision {
	return Decision{Action: rep.action, Reason: rep.reason, Hook: b.id, Result: rep.result, Approval: rep.approval}
}

// apply replaces top-level payload fields, copying the caller's map
// first: a fire never changes what it was given.
func (fr *firing) apply(b *boundHook, fields map[string]any) {
	for k, v := range fields {
		if old, ok := fr.payload[k]; ok && stdlib.Equal(old, v) {
			continue
		}
		if !fr.copied {
			fr.payload, fr.copied = maps.Clone(fr.payload), true
		}
		fr.payload[k] = v
		fr.modifiedBy = b.id
	}
}

// result assembles the Result: the failure if the event failed closed,
// else the mode's fold, else the event's default.
func (fr *firing) result() (Result, error) {
	r := Result{Event: fr.spec.Name, Payload: fr.payload, Messages: fr.messages, Trace: fr.trace}
	r.Decision = fr.decision()
	if fr.cancelled() {
		err := fr.ctx.Err()
		if err == nil { // the caller's deadline passed; its timer has not fired yet
			err = context.DeadlineExceeded
		}
		if fr.failed.Action == "" && fr.cancelDenies() {
			// The reason gives the context's cause when its canceller set
			// one ("serve is stopping"), which says more than "context
			// canceled"; the error returned stays ctx.Err's.
			why := err
			if fr.ctx.Err() != nil {
				why = context.Cause(fr.ctx)
			}
			r.Decision = Decision{Action: Deny, Reason: fmt.Sprintf("the fire was cancelled: %v", why)}
		}
		return r, fmt.Errorf("fire %s: %w", fr.spec.Name, err)
	}
	return r, nil
}

// cancelDenies reports whether a fire the caller's context ended must
// deny: its event fails closed on a timeout, or a hook it left uncalled
// does (a cancelled guard is a guard that did not answer).
func (fr *firing) cancelDenies() bool {
	if fr.spec.OnTimeout == FailClosed {
		return true
	}
	for _, b := range fr.unrun {
		if b.onTimeout == FailClosed && !b.enforce.shadow() {
			return true
		}
	}
	return false
}

func (fr *firing) decision() Decision {
	for _, d := range []*Decision{&fr.failed, &fr.terminal, &fr.winner, &fr.firstAsk, &fr.firstAllow} {
		if d.Action != "" {
			return *d
		}
	}
	if fr.modifiedBy != "" {
		return Decision{Action: Modify, Hook: fr.modifiedBy}
	}
	return Decision{Action: fr.spec.Default}
}

// noteOverrun counts a strike against a hook whose call had to be
// abandoned at its deadline, and quarantines repeat offenders. A strike
// is earned only for a deadline the hook's own code would not honour:
//
//   - A call that returned after its interrupt honoured it, however late:
//     late is what a machine short of CPU makes of any call (the
//     interrupted goroutine waits for a core like the rest), and nothing
//     was left behind. Its timeout is its failure, no strike.
//   - A call abandoned in a builtin that did not return (scripting.Guard)
//     leaves a goroutine behind: a strike, unless the process was short
//     of CPU when it was judged (starved, watchdog.go). Then the builtin
//     may simply not have had a core to finish on, and striking it would
//     let load switch guards off.
func (h *Host) noteOverrun(b *boundHook, c *scripting.Call) {
	h.logger.Warn("hook timed out", "hook", b.id, "file", b.file, "line", b.line, "timeout", b.timeout)
	if !c.Abandoned() {
		return
	}
	if why := h.starved(); why != "" {
		h.logger.Warn("hook abandoned at its deadline while the host was short of CPU; not counted against it",
			"hook", b.id, "file", b.file, "line", b.line, "starved", why)
		return
	}
	h.strike(b, "it could not be stopped at its deadline")
}

// ErrHeapLimit is the cause of a hook's failure when the watchdog
// interrupted it because the host's heap passed limits.memory.
var ErrHeapLimit = errors.New("memory limit")

// heapFailure is the failure of a hook the watchdog interrupted because
// the heap passed its limit (hit is the call's heapHit). A hook whose own
// call's meter explains the heap earns one strike for each time the heap
// passed the limit, however many of its calls ran then; any other is
// interrupted without a strike (heapblame.go).
func (h *Host) heapFailure(b *boundHook, hit uint64) error {
	limit := scripting.FormatBytes(h.wd.limit.Load())
	blamed := hit&heapStrike != 0
	if !blamed {
		h.logger.Warn("hook interrupted: the host's heap passed its limit while it ran, but its own call's "+
			"allocations do not explain it; not counted against it", "hook", b.id, "file", b.file, "line", b.line,
			"limit", limit)
		return &scripting.Error{File: b.file, Line: b.line, Hook: b.id, Err: ErrHeapLimit,
			Msg: fmt.Sprintf("memory limit: the host's heap passed %s while this hook ran (its own allocations do not explain it: not counted against it)", limit)}
	}
	h.logger.Warn("hook interrupted: the host's heap passed its limit", "hook", b.id, "file", b.file, "line", b.line,
		"limit", limit)
	if b.strikes.heapEvent.Swap(hit) != hit {
		h.strike(b, "the host's heap passed its limit while it ran")
	}
	return &scripting.Error{File: b.file, Line: b.line, Hook: b.id, Err: ErrHeapLimit,
		Msg: fmt.Sprintf("memory limit: the host's heap passed %s while this hook ran", limit)}
}

// strike counts a strike against a hook for a failure that costs the
// host more than one call (why says which), and quarantines a repeat
// offender.
func (h *Host) strike(b *boundHook, why string) {
	if b.strikes.strike(h.now(), "3 strikes within 10 minutes, the last: "+why) {
		qi, _ := b.strikes.info(h.now())
		h.logger.Error("hook quarantined: 3 strikes within 10 minutes (its call allocated past its memory budget, "+
			"it could not be stopped at its deadline, or its worker process died); while quarantined it is not "+
			"called and its error behaviour applies", "hook", b.id, "file", b.file, "line", b.line, "last", why,
			"until", qi.Until, "offences", qi.Offences)
		h.quarantineChanged(b.id, true)
	}
}

func (h *Host) logFailure(b *boundHook, err error) {
	attrs := []any{"hook", b.id, "file", b.file, "error", err.Error()}
	var se *scripting.Error
	if errors.As(err, &se) && se.Backtrace != "" {
		attrs = append(attrs, "traceback", scripting.Clip(se.Backtrace, scripting.MaxErrorText))
	}
	h.logger.Warn("hook failed", attrs...)
}
