package isolate

import (
	"errors"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// The worker protocol: the messages a host and its workers exchange, one
// struct each, every one a frame (codec.go) decoded strictly (wire.go).
//
// The worker starts it: its first message is hello, naming the protocol
// version it speaks and the build it is (build.go); the host refuses a
// worker whose version or build is not its own. A worker that cannot
// start (its limits could not be set) sends exit instead.
//
// The host then sends
//
//	compile  compile a file as program prog
//	call     call hook number hook of program prog
//	cancel   interrupt call id
//	drop     forget program prog
//
// and the worker answers each compile with hooks, each call with value,
// either with error when it failed. Any time it sends log (a log record
// of its scripts, logs.go), and exit just before it ends on its own
// (exitReason says why). Durations are nanoseconds. A call carries the
// time it has left rather than a deadline, because the two processes'
// clocks are not comparable.

// protocolVersion is the version of the protocol this build speaks; it
// changes with any message. Version 1 was the untyped maps before it;
// version 3 added the call's hooks_dir.
const protocolVersion = 3

// compileMsg asks the worker to compile a file as program Prog.
type compileMsg struct {
	ID       int64
	Prog     int64
	Name     string
	Code     string
	Limits   wireLimits
	LogLevel int64 // the host's lowest enabled log level
}

func (*compileMsg) op() string       { return "compile" }
func (m *compileMsg) setID(id int64) { m.ID = id }
func (m *compileMsg) wire(f *fields) {
	integer(f, "id", &m.ID)
	integer(f, "prog", &m.Prog)
	f.str("name", &m.Name)
	f.str("code", &m.Code)
	object(f, "limits", &m.Limits)
	integer(f, "log_level", &m.LogLevel)
}

// callMsg asks the worker to call a hook: the payload fields it reads,
// and the time the call has left.
type callMsg struct {
	ID        int64
	Prog      int64
	Hook      int64 // the hook's index in the program's hooks
	Payload   map[string]any
	Event     string
	HookID    string
	Config    map[string]any
	HooksDir  string
	Timeout   time.Duration
	Remaining time.Duration
}

func (*callMsg) op() string       { return "call" }
func (m *callMsg) setID(id int64) { m.ID = id }
func (m *callMsg) wire(f *fields) {
	integer(f, "id", &m.ID)
	integer(f, "prog", &m.Prog)
	integer(f, "hook", &m.Hook)
	f.dict("payload", &m.Payload)
	f.str("event", &m.Event)
	f.str("hook_id", &m.HookID)
	f.dict("config", &m.Config)
	f.str("hooks_dir", &m.HooksDir)
	f.duration("timeout", &m.Timeout)
	f.duration("remaining", &m.Remaining)
}

// cancelMsg interrupts call ID.
type cancelMsg struct{ ID int64 }

func (*cancelMsg) op() string       { return "cancel" }
func (m *cancelMsg) wire(f *fields) { integer(f, "id", &m.ID) }

// dropMsg forgets program Prog.
type dropMsg struct{ Prog int64 }

func (*dropMsg) op() string       { return "drop" }
func (m *dropMsg) wire(f *fields) { integer(f, "prog", &m.Prog) }

// helloMsg is the worker's first message.
type helloMsg struct {
	Protocol int64
	Build    string // the build's identity (build.go)
	Program  string // what the build is, for people: module, version, commit
}

func (*helloMsg) op() string { return "hello" }
func (m *helloMsg) wire(f *fields) {
	integer(f, "protocol", &m.Protocol)
	f.str("build", &m.Build)
	f.str("program", &m.Program)
}

// hooksMsg answers a compile: the program's hooks.
type hooksMsg struct {
	ID    int64
	Hooks []wireHook
}

func (*hooksMsg) op() string { return "hooks" }
func (m *hooksMsg) wire(f *fields) {
	integer(f, "id", &m.ID)
	objects(f, "hooks", &m.Hooks)
}

// valueMsg answers a call: what the hook returned, a neutral value.
type valueMsg struct {
	ID    int64
	Value any
}

func (*valueMsg) op() string { return "value" }
func (m *valueMsg) wire(f *fields) {
	integer(f, "id", &m.ID)
	f.value("value", &m.Value)
}

// errorMsg answers a compile or a call that failed. Abandoned says a
// builtin of the call still runs in the worker.
type errorMsg struct {
	ID        int64
	Error     wireError
	Abandoned bool
}

func (*errorMsg) op() string { return "error" }
func (m *errorMsg) wire(f *fields) {
	integer(f, "id", &m.ID)
	object(f, "error", &m.Error)
	f.boolean("abandoned", &m.Abandoned)
}

// logMsg is a log record of the worker's scripts (logs.go).
type logMsg struct {
	Level int64
	Msg   string
	Attrs []logAttr
}

func (*logMsg) op() string { return "log" }
func (m *logMsg) wire(f *fields) {
	integer(f, "level", &m.Level)
	f.str("msg", &m.Msg)
	objects(f, "attrs", &m.Attrs)
}

// exitMsg is the worker's last message when it ends on its own.
type exitMsg struct {
	Reason string // an exitReason
	Msg    string
}

func (*exitMsg) op() string { return "exit" }
func (m *exitMsg) wire(f *fields) {
	f.str("reason", &m.Reason)
	f.str("msg", &m.Msg)
}

// Reasons a worker gives for ending.
const (
	exitInit     = "init"     // it could not start: its limits, its build
	exitProtocol = "protocol" // the host sent what it cannot read
	exitPanic    = "panic"    // a bug in the worker: a Go panic it caught
)

// hostMessages are the messages a worker accepts; workerMessages those a
// host accepts.
var (
	hostMessages = oneOf(func() message { return &compileMsg{} }, func() message { return &callMsg{} },
		func() message { return &cancelMsg{} }, func() message { return &dropMsg{} })
	workerMessages = oneOf(func() message { return &helloMsg{} }, func() message { return &hooksMsg{} },
		func() message { return &valueMsg{} }, func() message { return &errorMsg{} },
		func() message { return &logMsg{} }, func() message { return &exitMsg{} })
)

// wireLimits carries scripting.Limits.
type wireLimits scripting.Limits

func (l *wireLimits) wire(f *fields) {
	f.unsigned("steps", &l.MaxSteps)
	integer(f, "string", &l.MaxStringSize)
	integer(f, "depth", &l.MaxCallDepth)
	integer(f, "idle", &l.MaxIdle)
	integer(f, "memory", &l.MaxCallMemory)
	f.duration("init", &l.InitTimeout)
}

// wireHook carries a hook's registration; Func and Binds stay behind.
type wireHook struct {
	Event, Name                    string
	Line                           int
	Priority                       int64
	Timeout                        time.Duration
	Enabled                        bool
	ErrorBehavior, TimeoutBehavior string
	Params                         []string
}

func hookOf(h scripting.Hook) wireHook {
	return wireHook{Event: h.Event, Name: h.Name, Line: h.Line, Priority: h.Priority, Timeout: h.Timeout,
		Enabled: h.Enabled, ErrorBehavior: h.ErrorBehavior, TimeoutBehavior: h.TimeoutBehavior, Params: h.Params}
}

func (h wireHook) hook() scripting.Hook {
	return scripting.Hook{Event: h.Event, Name: h.Name, Line: h.Line, Priority: h.Priority, Timeout: h.Timeout,
		Enabled: h.Enabled, ErrorBehavior: h.ErrorBehavior, TimeoutBehavior: h.TimeoutBehavior, Params: h.Params}
}

func (h *wireHook) wire(f *fields) {
	f.str("event", &h.Event)
	f.str("name", &h.Name)
	integer(f, "line", &h.Line)
	integer(f, "priority", &h.Priority)
	f.duration("timeout", &h.Timeout)
	f.boolean("enabled", &h.Enabled)
	f.str("error_behavior", &h.ErrorBehavior)
	f.str("timeout_behavior", &h.TimeoutBehavior)
	f.strs("params", &h.Params)
}

// wireError carries a script error; Cause names its sentinel, if any.
type wireError struct {
	File, Hook, Msg, Backtrace string
	Line                       int
	Cause                      string
}

func (e *wireError) wire(f *fields) {
	f.str("file", &e.File)
	integer(f, "line", &e.Line)
	f.str("hook", &e.Hook)
	f.str("msg", &e.Msg)
	f.str("backtrace", &e.Backtrace)
	f.str("cause", &e.Cause)
}

// Cause names of an error's cause on the wire.
const (
	causeInterrupted = "interrupted"
	causeAbandoned   = "abandoned"
	causeMemory      = "memory"
)

// causes maps the cause names to their sentinels.
var causes = map[string]error{causeInterrupted: scripting.ErrInterrupted, causeAbandoned: scripting.ErrAbandoned,
	causeMemory: scripting.ErrMemoryLimit}

// errorOf encodes an error for the wire.
func errorOf(err error) wireError {
	e := wireError{Msg: err.Error()}
	var se *scripting.Error
	if errors.As(err, &se) {
		e = wireError{File: se.File, Line: se.Line, Hook: se.Hook, Msg: se.Msg, Backtrace: se.Backtrace}
	}
	for _, name := range []string{causeInterrupted, causeAbandoned, causeMemory} {
		if errors.Is(err, causes[name]) {
			e.Cause = name
			break
		}
	}
	return e
}

// scriptError turns the wire's error back into a *scripting.Error whose
// cause is the sentinel it named; a cause this side does not know is
// kept in the message, not dropped.
func (e wireError) scriptError() *scripting.Error {
	se := &scripting.Error{File: e.File, Line: e.Line, Hook: e.Hook, Msg: e.Msg, Backtrace: e.Backtrace}
	if e.Cause != "" {
		if se.Err = causes[e.Cause]; se.Err == nil {
			se.Msg += " (cause " + e.Cause + ")"
		}
	}
	return se
}
