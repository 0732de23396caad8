package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// handler is the whole chain for one listener: activity tracking, the
// door's checks, then the routes.
func (s *Server) handler(addr net.Addr, act *activity) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/v1/fire/{event}", allow(http.MethodPost, http.HandlerFunc(s.fire)))
	mux.Handle("/v1/hooks", allow(http.MethodGet, http.HandlerFunc(s.hooks)))
	mux.Handle("/v1/status", allow(http.MethodGet, http.HandlerFunc(s.status)))
	mux.Handle(healthPath, allow(http.MethodGet, http.HandlerFunc(s.health)))
	mux.Handle("/metrics", allow(http.MethodGet, s.metricsHandler()))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint %s (see GET /v1/hooks, POST /v1/fire/{event})", r.URL.Path)
	})
	return act.track(logRequests(s.logger, s.door(addr, mux)))
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

// fire answers POST /v1/fire/{event} with the fire --json object.
func (s *Server) fire(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !isJSON(ct) {
		writeError(w, http.StatusUnsupportedMediaType, "want Content-Type: application/json, got %q", ct)
		return
	}
	body, status, err := s.readBody(w, r)
	if err != nil {
		writeError(w, status, "%v", err)
		return
	}
	payload, err := wire.DecodePayload(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	event := r.PathValue("event")
	res, err := s.backend.Fire(r.Context(), event, payload)
	switch {
	case errors.Is(err, host.ErrUnknownEvent):
		writeError(w, http.StatusNotFound, "unknown event %q (see GET /v1/hooks)", event)
	case errors.Is(err, host.ErrBadPayload):
		writeError(w, http.StatusBadRequest, "%v", err)
	case errors.Is(err, host.ErrClosed):
		writeError(w, http.StatusServiceUnavailable, "the host is shutting down")
	case err != nil: // the client went away during the fire
		writeError(w, http.StatusServiceUnavailable, "fire interrupted: %v", err)
	default:
		writeJSON(w, http.StatusOK, res)
	}
}

// readBody reads the request body, at most s.maxBody bytes; on failure
// it returns the status to answer.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int, error) {
	if r.ContentLength > s.maxBody {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the body is %d bytes, over the limit of %d", r.ContentLength, s.maxBody)
	}
	body, err := readAll(http.MaxBytesReader(w, r.Body, s.maxBody), r.ContentLength)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the body is over the limit of %d bytes", s.maxBody)
	case err != nil:
		return nil, http.StatusBadRequest, fmt.Errorf("reading the body: %w", err)
	}
	return body, 0, nil
}

// readAll reads a body of length n (-1: unknown) in one allocation when
// n is known.
func readAll(r io.Reader, n int64) ([]byte, error) {
	if n <= 0 {
		return io.ReadAll(r)
	}
	body := make([]byte, n)
	_, err := io.ReadFull(r, body)
	return body, err
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
