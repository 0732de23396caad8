package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// handler is the whole chain for one listener: activity tracking, the
// door's checks, then the routes.
func (s *Server) handler(addr net.Addr, act *activity) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/v1/fire/{event}", allow(http.MethodPost, jsonBody(http.HandlerFunc(s.fire))))
	mux.Handle(agentPath, allow(http.MethodPost, jsonBody(http.HandlerFunc(s.agent))))
	mux.Handle(agentEventPath, allow(http.MethodPost, jsonBody(http.HandlerFunc(s.agent))))
	mux.Handle("/v1/hooks", allow(http.MethodGet, http.HandlerFunc(s.hooks)))
	// A hook id may hold slashes (a pack's files), so the id is what lies
	// between /v1/hooks/ and /release.
	mux.Handle("/v1/hooks/", allow(http.MethodPost, jsonBody(http.HandlerFunc(s.release))))
	mux.Handle("/v1/status", allow(http.MethodGet, http.HandlerFunc(s.status)))
	mux.Handle(healthPath, allow(http.MethodGet, http.HandlerFunc(s.health)))
	mux.Handle("/metrics", allow(http.MethodGet, s.metricsHandler()))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint %s (see GET /v1/hooks, POST /v1/fire/{event})", r.URL.Path)
	})
	return act.track(logRequests(s.logger, s.deadlines(s.door(addr, mux))))
}

// deadlines gives every request RequestTimeout to send its body (its
// headers had as long, through http.Server.ReadHeaderTimeout) and to
// take its answer: a client that trickles a byte a second, or never
// reads, is cut there. The fire handler lifts the read deadline once it
// has the body and renews the write deadline when its answer is ready,
// since a fire may rightly run longer. Whatever body a handler leaves
// unread, net/http discards under the same deadline.
func (s *Server) deadlines(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		deadline := time.Now().Add(s.requestTimeout)
		rc.SetReadDeadline(deadline) // an error: the connection is gone or not a deadline kind, and Read says so
		rc.SetWriteDeadline(deadline)
		next.ServeHTTP(w, r)
	})
}

// healthPath is the one endpoint that needs no token.
const healthPath = "/healthz"

// allow answers 405 to any method but method (and HEAD, for GET).
func allow(method string, h http.Handler) http.Handler {
	allowed := method
	if method == http.MethodGet {
		allowed = "GET, HEAD"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && (method != http.MethodGet || r.Method != http.MethodHead) {
			w.Header().Set("Allow", allowed)
			writeError(w, http.StatusMethodNotAllowed, "%s %s: method not allowed (want %s)", r.Method, r.URL.Path, allowed)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// jsonBody answers 415 to a request whose Content-Type is not
// application/json: a browser sends such a POST cross-origin only after
// a CORS preflight, which the server never grants.
func jsonBody(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct := r.Header.Get("Content-Type"); !isJSON(ct) {
			writeError(w, http.StatusUnsupportedMediaType, "want Content-Type: application/json, got %q", ct)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// fire answers POST /v1/fire/{event} with the fire --json object. The
// body is read first, as it arrives, into memory taken from the
// request budget; then the fire waits for a slot, decodes and runs. Over
// either bound it answers 503 with Retry-After.
func (s *Server) fire(w http.ResponseWriter, r *http.Request) {
	h := &hold{budget: s.memory}
	defer h.release()
	body, status, err := s.readBody(w, r, h)
	if err != nil {
		s.refuse(w, status, err)
		return
	}
	// The body is in: a fire may run past the request deadline.
	http.NewResponseController(w).SetReadDeadline(time.Time{})
	cost := decodedCost(body)
	switch {
	case cost > s.memory.limit:
		s.refuse(w, http.StatusRequestEntityTooLarge, fmt.Errorf(
			"the payload would take about %d bytes once decoded (it has many small values), over the request memory of %d bytes",
			cost, s.memory.limit))
		return
	case !h.grow(cost):
		s.refuse(w, http.StatusServiceUnavailable, errors.New("busy: the request memory is taken by other requests"))
		return
	}
	if !s.fires.enter(r.Context(), s.requestTimeout) {
		s.refuse(w, http.StatusServiceUnavailable, errors.New("busy: every fire slot is taken and the queue is full or did not move"))
		return
	}
	res, err := s.decodeAndFire(r, body)
	s.fires.leave()
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.requestTimeout))
	event := r.PathValue("event")
	switch {
	case errors.As(err, new(payloadError)), errors.Is(err, host.ErrBadPayload):
		writeError(w, http.StatusBadRequest, "%v", err)
	case errors.Is(err, host.ErrUnknownEvent):
		writeError(w, http.StatusNotFound, "unknown event %q (see GET /v1/hooks)", event)
	case errors.Is(err, host.ErrClosed):
		writeError(w, http.StatusServiceUnavailable, "the host is shutting down")
	case err != nil && errors.Is(context.Cause(r.Context()), ErrStopping):
		// Serve cancelled the fire as it stopped: what ran is the answer
		// (a fail-closed event's is deny), not a 503 that would send the
		// client to decide elsewhere.
		writeJSON(w, http.StatusOK, res)
	case err != nil: // the client went away during the fire
		writeError(w, http.StatusServiceUnavailable, "fire interrupted: %v", err)
	default:
		writeJSON(w, http.StatusOK, res)
	}
}

// A payloadError is a body that does not decode to a payload.
type payloadError struct{ error }

// decodeAndFire decodes the body and fires, in a fire slot.
func (s *Server) decodeAndFire(r *http.Request, body []byte) (host.Result, error) {
	payload, err := wire.DecodePayload(body)
	if err != nil {
		return host.Result{}, payloadError{err}
	}
	return s.backend.Fire(r.Context(), r.PathValue("event"), payload)
}

// refuse answers an error, with a fresh write deadline (the body's may
// just have passed); a 503 for lack of capacity says when to retry and
// is logged (at most once in busyWarnPeriod).
//
// The agent endpoints come here only for events that are not guards: at
// a guard event they answer a refusal in the agent's own format instead
// (agentExchange.fail), since an agent reads most errors as "proceed".
func (s *Server) refuse(w http.ResponseWriter, status int, err error) {
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.requestTimeout))
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(int(RetryAfter/time.Second)))
		if s.busy.due() {
			s.logger.Warn("refusing requests for lack of capacity (503, Retry-After); see serve's --max-fires, --fire-queue and --max-request-memory",
				"error", err)
		}
	}
	writeError(w, status, "%v", err)
}

// bodyChunk is the first buffer a body gets; it doubles as the body
// arrives, so a client that declares a large body and sends little holds
// little.
const bodyChunk = 4 << 10

// readBody reads the request body as it arrives, at most s.maxBody
// bytes, into a buffer that grows with what was received (never with
// what Content-Length declares) and is charged to h. On failure it
// returns the status to answer, and what it read of the body.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, h *hold) ([]byte, int, error) {
	if r.ContentLength > s.maxBody {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the body is %d bytes, over the limit of %d", r.ContentLength, s.maxBody)
	}
	src := http.MaxBytesReader(w, r.Body, s.maxBody)
	limit := s.maxBody + 1 // room to see EOF, or a byte too many
	if r.ContentLength >= 0 {
		limit = r.ContentLength + 1
	}
	var buf []byte
	for {
		if len(buf) == cap(buf) {
			next := min(max(2*int64(cap(buf)), bodyChunk), limit)
			if !h.grow(next) {
				return buf, http.StatusServiceUnavailable, errors.New("busy: the request memory is taken by other requests")
			}
			// The old buffer stays charged: it is garbage the collector
			// has yet to free, and the budget bounds the heap.
			grown := make([]byte, len(buf), next)
			copy(grown, buf)
			buf = grown
		}
		n, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, 0, nil
		}
		if err != nil {
			return buf, bodyErrorStatus(err), bodyError(err, s.maxBody)
		}
	}
}

// bodyErrorStatus is the answer to a body that failed to arrive.
func bodyErrorStatus(err error) int {
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, os.ErrDeadlineExceeded):
		return http.StatusRequestTimeout
	}
	return http.StatusBadRequest
}

func bodyError(err error, maxBody int64) error {
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return fmt.Errorf("the body is over the limit of %d bytes", maxBody)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return errors.New("the body did not arrive within the request timeout")
	}
	return fmt.Errorf("reading the body: %w", err)
}

// isJSON reports whether a Content-Type is application/json, with any
// parameters (such as charset=utf-8).
func isJSON(contentType string) bool {
	if contentType == jsonType {
		return true // the common case, without parsing
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

func (s *Server) hooks(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, wire.HookEntries(s.backend.Hooks()))
}

// released is the answer of POST /v1/hooks/{id}/release.
type released struct {
	Released []string `json:"released"`
}

// release answers POST /v1/hooks/{id}/release: it lifts the hook's
// quarantine, or answers 404 when the id names no quarantined hook.
func (s *Server) release(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/v1/hooks/"), "/release")
	if !ok || id == "" {
		writeError(w, http.StatusNotFound, "no such endpoint %s (want POST /v1/hooks/{id}/release)", r.URL.Path)
		return
	}
	if !s.backend.Release(id) {
		writeError(w, http.StatusNotFound, "hook %q is not quarantined (see GET /v1/status)", id)
		return
	}
	s.logger.Info("released from quarantine at a client's request", "hook", id)
	writeJSON(w, http.StatusOK, released{Released: []string{id}})
}

func (s *Server) status(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.backend.Status())
}

// health answers 200 "ok", or 503 with the problems that make the host
// unhealthy.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	if bad := s.backend.Status().Unhealthy(); len(bad) > 0 {
		writeJSON(w, http.StatusServiceUnavailable, errorBody{
			Error:     "unhealthy: " + strings.Join(bad, "; "),
			Unhealthy: bad,
		})
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, "ok\n")
}

func (s *Server) metricsHandler() http.Handler {
	if s.metrics != nil {
		return s.metrics
	}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusNotFound, "metrics are not enabled")
	})
}

// errorBody is every error answer.
type errorBody struct {
	Error     string   `json:"error"`
	Unhealthy []string `json:"unhealthy,omitempty"`
}

// WriteError answers an error as every error of the API is answered:
// {"error": "..."} with the status. The metrics handler answers a failed
// gather with it.
func WriteError(w http.ResponseWriter, status int, err error) {
	writeError(w, status, "%v", err)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, errorBody{Error: fmt.Sprintf(format, args...)})
}

// writeJSON answers v as one line of JSON. It encodes first, so a value
// that cannot be encoded is a 500, not half an answer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf, err := encodeLine(v)
	if err != nil {
		status = http.StatusInternalServerError
		buf, _ = encodeLine(errorBody{Error: fmt.Sprintf("encoding the answer: %v", err)})
	}
	h := w.Header()
	h["Content-Type"] = jsonHeader
	h["X-Content-Type-Options"] = nosniffHeader
	h["Cache-Control"] = noStoreHeader
	w.WriteHeader(status)
	w.Write(buf) // a write error means the client is gone
}

const jsonType = "application/json"

// Header values every answer shares; net/http only reads them.
var (
	jsonHeader    = []string{jsonType}
	nosniffHeader = []string{"nosniff"}
	noStoreHeader = []string{"no-store"}
)

// encodeLine is v as one line of JSON (wire.WriteJSONLine). A value that
// marshals itself (host.Result, host.Status) writes compact JSON without
// HTML escaping already, so its bytes are used as they are rather than
// re-validated by an encoder: the fire answer is the hot path.
func encodeLine(v any) ([]byte, error) {
	if m, ok := v.(json.Marshaler); ok {
		b, err := m.MarshalJSON()
		return append(b, '\n'), err
	}
	var buf bytes.Buffer
	err := wire.WriteJSONLine(&buf, v)
	return buf.Bytes(), err
}
