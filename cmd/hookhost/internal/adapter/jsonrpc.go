package adapter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// An RPCDialect is an agent that runs hookhost as a long-lived JSON-RPC
// 2.0 process, one object per line on stdin and stdout.
type RPCDialect interface {
	// Hello answers the handshake method; handled is false for any other
	// method. A non-empty problem is an invalid-params error.
	Hello(method string, params map[string]any) (result any, handled bool, problem string)
	// Request maps a method to a fire; Call.Event is empty for a method
	// the dialect does not know.
	Request(method string, params map[string]any) Call
	// Answer maps the fire's result to the method's result.
	Answer(call Call, res host.Result) Answer
	// Shrink replaces an answer too long for the agent to read.
	Shrink(call Call, answer any) any
	// Deadline is how long hookhost may take for a call: less than the
	// agent waits, so that hookhost, not the agent, decides a slow hook.
	Deadline(call Call) time.Duration
}

// JSON-RPC error codes.
const (
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// MaxAnswerLine is the length an answer line must stay below: PicoClaw
// reads at most 1 MiB a line and stops reading for good after a longer
// one.
const MaxAnswerLine = 1 << 20

// DrainTime is how long in-flight requests may finish after stdin ends
// (PicoClaw kills its hook process 2 s after closing its stdin).
const DrainTime = 1500 * time.Millisecond

// RPCOptions configure Serve.
type RPCOptions struct {
	Dialect RPCDialect
	// Connect returns the hooks to fire a call through, closed after it;
	// it may block until they are loaded. An error answers the call as
	// Failed does.
	Connect Connector
	// FailOpen answers hookhost's own failures at the guard methods as
	// their events fail (see Failed) rather than with a denial.
	FailOpen bool
	// Log receives malformed lines, notes and failures (stderr: every
	// line there is a warning in the agent's log).
	Log *slog.Logger
	// Drain bounds the wait for in-flight requests at the end of stdin;
	// zero means DrainTime.
	Drain time.Duration
}

// rpcServer is one Serve.
type rpcServer struct {
	opts  RPCOptions
	out   io.Writer
	mu    sync.Mutex // serialises writes to out
	calls sync.WaitGroup
	base  context.Context
}

type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// Serve answers requests from stdin until it ends (or ctx does), then
// lets in-flight requests finish for at most opts.Drain and returns nil.
// Requests run concurrently and are answered by id in any order;
// notifications are never answered; a malformed line is logged and
// skipped; lines of any length are read. It fails only when stdout
// cannot be written.
func Serve(ctx context.Context, opts RPCOptions, stdin io.Reader, stdout io.Writer) error {
	if opts.Drain == 0 {
		opts.Drain = DrainTime
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	base, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &rpcServer{opts: opts, out: stdout, base: base}
	errc := make(chan error, 1)
	go func() { errc <- s.read(stdin) }()
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
	}
	s.drain(cancel)
	return err
}

// read handles each line of r until it ends.
func (s *rpcServer) read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if werr := s.handle(n, line); werr != nil {
				return werr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			s.opts.Log.Warn("reading stdin", "error", err)
			return nil
		}
	}
}

// drain waits for in-flight calls, then cancels what still runs.
func (s *rpcServer) drain(cancel context.CancelFunc) {
	done := make(chan struct{})
	go func() { s.calls.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(s.opts.Drain):
		s.opts.Log.Warn("stdin ended: requests still running were abandoned", "after", s.opts.Drain)
	}
	cancel()
}

// handle parses one line and answers it (hello at once, others on their
// own goroutine).
func (s *rpcServer) handle(n int, line []byte) error {
	var msg rpcMessage
	if err := json.Unmarshal(line, &msg); err != nil {
		return s.malformed(n, line, err)
	}
	notification := msg.ID == nil
	if msg.Method == "" {
		if notification {
			s.opts.Log.Warn("skipping a line that is not a request", "line", n)
			return nil
		}
		return s.writeError(msg.ID, codeInvalidRequest, "invalid request: no method")
	}
	params, err := decodeParams(msg.Params)
	if err != nil {
		if notification {
			s.opts.Log.Warn("skipping a notification with bad params", "line", n, "method", msg.Method, "error", err)
			return nil
		}
		if call := s.opts.Dialect.Request(msg.Method, nil); call.Guard && !s.opts.FailOpen {
			return s.answerFailed(msg.ID, call, fmt.Errorf("invalid params: %w", err))
		}
		return s.writeError(msg.ID, codeInvalidParams, err.Error())
	}
	if result, ok, problem := s.opts.Dialect.Hello(msg.Method, params); ok {
		switch {
		case notification:
			return nil
		case problem != "":
			return s.writeError(msg.ID, codeInvalidParams, problem)
		}
		return s.writeResult(msg.ID, result)
	}
	call := s.opts.Dialect.Request(msg.Method, params)
	if call.Event == "" {
		if notification {
			s.opts.Log.Warn("skipping an unknown notification", "method", msg.Method)
			return nil
		}
		return s.writeError(msg.ID, codeMethodNotFound, "method not found: "+msg.Method)
	}
	s.calls.Add(1)
	go s.serveCall(msg.ID, notification, call)
	return nil
}

// malformed handles a line that does not decode. A request to a guard
// method whose id and method can still be read (its params nest deeper
// than any decoder allows) is answered as a failure to fire, a denial:
// left unanswered, the agent would wait for its timeout and proceed.
// Anything else is logged and skipped.
func (s *rpcServer) malformed(n int, line []byte, err error) error {
	fields := topLevel(line, "id", "method")
	var method string
	if id := fields["id"]; scalarID(id) && json.Unmarshal(fields["method"], &method) == nil {
		if call := s.opts.Dialect.Request(method, nil); call.Guard && !s.opts.FailOpen {
			return s.answerFailed(id, call, fmt.Errorf("the request does not decode: %w", err))
		}
	}
	s.opts.Log.Warn("skipping a malformed line", "line", n, "error", err)
	return nil
}

// scalarID reports whether id is a request's id: a string or a number.
func scalarID(id json.RawMessage) bool {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// answerFailed answers a guard call that cannot fire.
func (s *rpcServer) answerFailed(id json.RawMessage, call Call, err error) error {
	s.opts.Log.Warn("cannot fire", "method", call.AgentEvent, "error", err)
	ans := s.opts.Dialect.Answer(call, Failed(call, err, s.opts.FailOpen))
	return s.writeAnswer(id, call, ans.Output)
}

// decodeParams decodes a request's params; absent or null means {}.
func decodeParams(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	return wire.DecodePayload(raw)
}

// serveCall fires one call and answers it unless it is a notification.
func (s *rpcServer) serveCall(id json.RawMessage, notification bool, call Call) {
	defer s.calls.Done()
	ctx, cancel := context.WithTimeout(s.base, s.opts.Dialect.Deadline(call))
	defer cancel()
	res := s.fire(ctx, call)
	ans := s.opts.Dialect.Answer(call, res)
	for _, note := range ans.Notes {
		s.opts.Log.Warn(note, "method", call.AgentEvent)
	}
	if notification {
		return
	}
	if err := s.writeAnswer(id, call, ans.Output); err != nil {
		s.opts.Log.Error("writing an answer", "error", err)
	}
}

// fire fires the call; a failure to fire answers as the event fails.
func (s *rpcServer) fire(ctx context.Context, call Call) host.Result {
	f, err := s.opts.Connect(ctx, call)
	if err == nil {
		defer f.Close()
		var res host.Result
		res, err = f.Fire(ctx, call.Event, call.Payload)
		switch {
		case err == nil:
			return res
		case ctx.Err() != nil && res.Event != "" && (!call.Guard || s.opts.FailOpen):
			// The deadline ended the chain: what ran stands, but at a guard
			// the hooks that did not run may have been the ones to deny.
			s.opts.Log.Warn("deadline reached: answering with what the hooks decided so far",
				"method", call.AgentEvent, "decision", res.Decision.Action)
			return res
		}
	}
	s.opts.Log.Warn("cannot fire", "method", call.AgentEvent, "error", err)
	return Failed(call, err, s.opts.FailOpen)
}

// Failed is the result of a call that could not fire: deny at a guard
// method unless failOpen; otherwise deny where the event fails closed
// (tool.approve), continue elsewhere.
func Failed(call Call, err error, failOpen bool) host.Result {
	res := host.Result{Event: call.Event, Decision: host.Decision{Action: host.Continue}, Payload: call.Payload}
	deny := call.Guard && !failOpen
	for _, spec := range host.AgentEvents() {
		if spec.Name == call.Event && (spec.OnError == host.FailClosed || spec.OnTimeout == host.FailClosed) {
			deny = true
		}
	}
	if deny {
		res.Decision = host.Decision{Action: host.Deny, Reason: "hookhost: " + err.Error()}
	}
	return res
}

// writeAnswer writes a result, shrunk when its line would be too long.
func (s *rpcServer) writeAnswer(id json.RawMessage, call Call, result any) error {
	line, err := encodeLine(id, "result", result)
	if err == nil && len(line) >= MaxAnswerLine {
		s.opts.Log.Warn("answer too long for the agent: sent a short one instead",
			"method", call.AgentEvent, "bytes", len(line))
		line, err = encodeLine(id, "result", s.opts.Dialect.Shrink(call, result))
	}
	if err != nil {
		return fmt.Errorf("encoding the answer to %s: %w", call.AgentEvent, err)
	}
	return s.write(line)
}

func (s *rpcServer) writeResult(id json.RawMessage, result any) error {
	line, err := encodeLine(id, "result", result)
	if err != nil {
		return err
	}
	return s.write(line)
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (s *rpcServer) writeError(id json.RawMessage, code int, msg string) error {
	line, err := encodeLine(id, "error", rpcError{Code: code, Message: msg})
	if err != nil {
		return err
	}
	return s.write(line)
}

// encodeLine is one response line: the id exactly as the request spelled
// it (PicoClaw drops an answer whose id reads 1.0 or "1").
func encodeLine(id json.RawMessage, key string, v any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(bytes.TrimSpace(id))
	b.WriteString(`,"` + key + `":`)
	if err := wire.WriteJSONLine(&b, v); err != nil {
		return nil, err
	}
	line := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	return append(line, '}', '\n'), nil
}

func (s *rpcServer) write(line []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.out.Write(line)
	return err
}
