package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
)

// The agent endpoints answer an agent's http hook (Claude Code's
// "type": "http") as its command hook would: the body is the event the
// agent gives a command hook on stdin, the answer 200 with what the
// command prints (nothing when the hooks had no opinion), through the
// same dialect functions (adapter.Decode, Exchange, Encode). An agent
// reads a non-2xx answer as "proceed" unless told otherwise (Claude
// Code's onFailure), so where hookhost cannot decide a guard event —
// over a cap, busy, a body that does not arrive or decode, a fire that
// fails — the answer is a 200 that blocks, in the agent's own terms
// (adapter.Refusal), with the reason. Elsewhere such failures answer the
// usual error status.

// agentPaths are the agent endpoints: the event named in the body, or
// in the path for agents whose input does not name it (Copilot CLI).
const (
	agentPath      = "/v1/agents/{agent}"
	agentEventPath = "/v1/agents/{agent}/{event}"
)

// sniffBytes is how much of a body the server reads to learn which event
// it is when it cannot take the whole (over MaxBody, or no request
// memory free): enough for the fields that precede hook_event_name in
// the agents' events. It is not charged to the request memory; MaxConns
// bounds what all requests hold of it.
const sniffBytes = 4 << 10

// agent answers POST /v1/agents/{agent}[/{event}].
func (s *Server) agent(w http.ResponseWriter, r *http.Request) {
	d, ok := s.agents[r.PathValue("agent")]
	if !ok {
		writeError(w, http.StatusNotFound, "unknown agent %q (want one of %s)", r.PathValue("agent"), s.agentNames)
		return
	}
	x := &agentExchange{s: s, d: d, w: w, r: r, event: r.PathValue("event")}
	h := &hold{budget: s.memory}
	defer h.release()
	body, status, err := s.readBody(w, r, h)
	if err != nil {
		x.fail(x.sniff(body), status, err)
		return
	}
	http.NewResponseController(w).SetReadDeadline(time.Time{})
	call, err := adapter.Decode(d, body, x.event)
	if err != nil {
		x.fail(call, http.StatusBadRequest, err)
		return
	}
	if call.Event == "" {
		s.logger.Debug("agent event not mapped: no answer", "agent", d.Name(), "event", call.AgentEvent)
		x.answer(call, adapter.Answer{})
		return
	}
	if status, err := s.admit(r, h, body); err != nil {
		x.fail(call, status, err)
		return
	}
	ans, err := adapter.Exchange(r.Context(), d, s.backend, call)
	s.fires.leave()
	if err != nil {
		x.fail(call, fireErrorStatus(err), fmt.Errorf("the fire failed: %w", err))
		return
	}
	x.answer(call, ans)
}

// admit charges the decoded payload to the request memory and waits for
// a fire slot, as POST /v1/fire does. A nil error must be followed by
// s.fires.leave().
func (s *Server) admit(r *http.Request, h *hold, body []byte) (int, error) {
	cost := decodedCost(body)
	switch {
	case cost > s.memory.limit:
		return http.StatusRequestEntityTooLarge, fmt.Errorf(
			"the event would take about %d bytes once decoded, over the request memory of %d bytes", cost, s.memory.limit)
	case !h.grow(cost):
		return http.StatusServiceUnavailable, errors.New("busy: the request memory is taken by other requests")
	case !s.fires.enter(r.Context(), s.requestTimeout):
		return http.StatusServiceUnavailable, errors.New("busy: every fire slot is taken and the queue is full or did not move")
	}
	return 0, nil
}

// fireErrorStatus is the status of a fire that failed: a payload the
// host refuses is the client's fault; the rest (a host shutting down, a
// client gone) are not.
func fireErrorStatus(err error) int {
	if errors.Is(err, host.ErrBadPayload) {
		return http.StatusBadRequest
	}
	return http.StatusServiceUnavailable
}

// An agentExchange is one agent request being answered.
type agentExchange struct {
	s     *Server
	d     adapter.CommandDialect
	w     http.ResponseWriter
	r     *http.Request
	event string // from the path; empty when the body names it
}

// sniff is the call the start of a body names, for a body that could not
// be taken whole: read (uncharged, at most sniffBytes) when none of it
// was.
func (x *agentExchange) sniff(read []byte) adapter.Call {
	if x.event == "" && len(read) == 0 {
		read, _ = io.ReadAll(io.LimitReader(x.r.Body, sniffBytes))
	}
	call, _ := adapter.Decode(x.d, read, x.event)
	return call
}

// fail answers a failure: at a guard event a 200 that blocks, with the
// reason; elsewhere the error status.
func (x *agentExchange) fail(call adapter.Call, status int, err error) {
	if call.AgentEvent != "" {
		err = fmt.Errorf("%s: %w", call.AgentEvent, err)
	}
	if !call.Guard {
		x.s.refuse(x.w, status, err)
		return
	}
	if status == http.StatusServiceUnavailable {
		if x.s.busy.due() {
			x.s.logger.Warn("denying guard events for lack of capacity; see serve's --max-fires, --fire-queue and --max-request-memory",
				"agent", x.d.Name(), "error", err)
		}
	} else {
		x.s.logger.Warn("denied an agent's guard event that hookhost could not decide", "agent", x.d.Name(), "error", err)
	}
	// Marked, so that hookhost-hook (the small command hook, which takes
	// this server's answers as its own) hands the call to the full
	// command, which decides it as --server auto always has: the hooks
	// in its own process when the server is busy, a failure that blocks
	// otherwise. Agents ignore the header.
	x.w.Header()[RefusalHeader] = []string{strconv.Itoa(status)}
	x.answer(call, adapter.Refusal(x.d, call, err))
}

// RefusalHeader marks an agent endpoint's 200 that blocks a guard event
// hookhost could not decide, with the status the failure would have had.
const RefusalHeader = "Hookhost-Refusal"

// answer writes the agent's answer: its JSON line, or an empty 200.
func (x *agentExchange) answer(call adapter.Call, ans adapter.Answer) {
	for _, n := range ans.Notes {
		x.s.logger.Info("agent answer: "+n, "agent", x.d.Name(), "event", call.AgentEvent)
	}
	http.NewResponseController(x.w).SetWriteDeadline(time.Now().Add(x.s.requestTimeout))
	out, err := adapter.Encode(ans)
	if err != nil && call.Guard { // the refusal's reason is text: it encodes
		x.s.logger.Warn("denied an agent's guard event whose answer does not encode", "agent", x.d.Name(), "error", err)
		out, err = adapter.Encode(adapter.Refusal(x.d, call, err))
	}
	if err != nil {
		writeError(x.w, http.StatusInternalServerError, "%v", err)
		return
	}
	h := x.w.Header()
	h["X-Content-Type-Options"] = nosniffHeader
	h["Cache-Control"] = noStoreHeader
	h.Set("Content-Length", strconv.Itoa(len(out)))
	if len(out) > 0 {
		h["Content-Type"] = jsonHeader
	}
	x.w.WriteHeader(http.StatusOK)
	x.w.Write(out) // a write error means the client is gone
}
