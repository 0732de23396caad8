package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/host"
)

// fakeBackend answers the event "allow.me" with allow and knows no other.
type fakeBackend struct {
	mu        sync.Mutex
	payloads  []map[string]any
	unhealthy []string
	released  map[string]bool
	// started, when set, is told when a fire begins; the fire then waits
	// for release.
	started chan struct{}
	release chan struct{}
}

func (f *fakeBackend) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	if event != "allow.me" {
		return host.Result{}, fmt.Errorf("%w %q", host.ErrUnknownEvent, event)
	}
	f.mu.Lock()
	f.payloads = append(f.payloads, payload)
	f.mu.Unlock()
	if f.started != nil {
		f.started <- struct{}{}
		<-f.release
	}
	return host.Result{Event: event, Decision: host.Decision{Action: host.Allow, Hook: "a.lua:x"}, Payload: payload}, nil
}

func (f *fakeBackend) Hooks() []host.HookInfo {
	return []host.HookInfo{{ID: "a.lua:x", Event: "allow.me", File: "a.lua", Line: 1, Enabled: true}}
}

// Release releases "q.lua:x" once.
func (f *fakeBackend) Release(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id != "q.lua:x" && id != "pack/q.lua:x" || f.released[id] {
		return false
	}
	if f.released == nil {
		f.released = map[string]bool{}
	}
	f.released[id] = true
	return true
}

// Status is strict, with the unhealthy files failing and never loaded.
func (f *fakeBackend) Status() host.Status {
	st := host.Status{Generation: 7, Strict: len(f.unhealthy) > 0}
	for _, bad := range f.unhealthy {
		st.Files = append(st.Files, host.FileStatus{Path: bad, Err: errors.New("boom")})
	}
	return st
}

// serve starts a server on a loopback port and returns its base URL; it
// stops when the test ends.
func serve(t testing.TB, opts Options) string {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return "http://" + startOn(t, opts, ln)
}

func startOn(t testing.TB, opts Options, ln net.Listener) string {
	t.Helper()
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

type request struct {
	method, path, host, contentType, body, auth string
}

func (r request) do(t *testing.T, base string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(r.method, base+r.path, strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	if r.host != "" {
		req.Host = r.host
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.auth != "" {
		req.Header.Set("Authorization", r.auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(body)
}

const jsonCT = "application/json"

func TestRequests(t *testing.T) {
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "m 1\n") })
	base := serve(t, Options{Backend: &fakeBackend{}, MaxBody: 64, Metrics: metrics})
	for _, tc := range []struct {
		name string
		req  request
		code int
		want string // in the body
	}{
		{"fire", request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, body: `{"a":1}`}, 200, `"action":"allow"`},
		{"fire with charset", request{method: "POST", path: "/v1/fire/allow.me", contentType: "application/json; charset=utf-8", body: `{}`}, 200, `"payload":{}`},
		{"fire with an empty body", request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT}, 200, `"event":"allow.me"`},
		{"bad JSON", request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, body: `{"a":`}, 400, `"error":"payload: invalid JSON`},
		{"not an object", request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, body: `[1]`}, 400, `want a JSON object, got an array`},
		{"unknown event", request{method: "POST", path: "/v1/fire/no.such", contentType: jsonCT, body: `{}`}, 404, `unknown event \"no.such\"`},
		{"no event", request{method: "POST", path: "/v1/fire/", contentType: jsonCT, body: `{}`}, 404, `no such endpoint /v1/fire/`},
		{"unknown path", request{method: "GET", path: "/v2/nothing"}, 404, `no such endpoint /v2/nothing`},
		{"GET a fire", request{method: "GET", path: "/v1/fire/allow.me"}, 405, `GET /v1/fire/allow.me: method not allowed (want POST)`},
		{"POST the hooks", request{method: "POST", path: "/v1/hooks", contentType: jsonCT}, 405, `want GET, HEAD`},
		{"OPTIONS preflight", request{method: "OPTIONS", path: "/v1/fire/allow.me"}, 405, `method not allowed`},
		{"over the body limit", request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, body: `{"a":"` + strings.Repeat("x", 64) + `"}`}, 413, `over the limit of 64`},
		{"text/plain", request{method: "POST", path: "/v1/fire/allow.me", contentType: "text/plain", body: `{}`}, 415, `want Content-Type: application/json, got \"text/plain\"`},
		{"form", request{method: "POST", path: "/v1/fire/allow.me", contentType: "application/x-www-form-urlencoded", body: `a=1`}, 415, `application/x-www-form-urlencoded`},
		{"no content type", request{method: "POST", path: "/v1/fire/allow.me", body: `{}`}, 415, `got \"\"`},
		{"rebinding", request{method: "GET", path: "/v1/hooks", host: "evil.example:7878"}, 421, `Host \"evil.example:7878\" is not a loopback name`},
		{"rebinding the health check", request{method: "GET", path: "/healthz", host: "evil.example"}, 421, `not a loopback`},
		{"localhost", request{method: "GET", path: "/v1/hooks", host: "localhost:7878"}, 200, `"id":"a.lua:x"`},
		{"IPv6 loopback", request{method: "GET", path: "/v1/hooks", host: "[::1]:7878"}, 200, `"params":[]`},
		{"status", request{method: "GET", path: "/v1/status"}, 200, `{"generation":7,`},
		{"release", request{method: "POST", path: "/v1/hooks/q.lua:x/release", contentType: jsonCT}, 200, `{"released":["q.lua:x"]}`},
		{"release again", request{method: "POST", path: "/v1/hooks/q.lua:x/release", contentType: jsonCT}, 404, `hook \"q.lua:x\" is not quarantined`},
		{"release a pack's hook", request{method: "POST", path: "/v1/hooks/pack%2Fq.lua:x/release", contentType: jsonCT}, 200, `{"released":["pack/q.lua:x"]}`},
		{"release an unknown hook", request{method: "POST", path: "/v1/hooks/nope.lua:x/release", contentType: jsonCT}, 404, `not quarantined`},
		{"release without an id", request{method: "POST", path: "/v1/hooks//release", contentType: jsonCT}, 404, `no such endpoint`},
		{"release, not JSON", request{method: "POST", path: "/v1/hooks/q.lua:x/release", contentType: "text/plain"}, 415, `want Content-Type: application/json`},
		{"GET a release", request{method: "GET", path: "/v1/hooks/q.lua:x/release"}, 405, `want POST`},
		{"under the hooks", request{method: "POST", path: "/v1/hooks/q.lua:x", contentType: jsonCT}, 404, `want POST /v1/hooks/{id}/release`},
		{"health", request{method: "GET", path: "/healthz"}, 200, "ok\n"},
		{"metrics", request{method: "GET", path: "/metrics"}, 200, "m 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, hdr, body := tc.req.do(t, base)
			if code != tc.code || !strings.Contains(body, tc.want) {
				t.Errorf("%s %s: %d %q, want %d with %q", tc.req.method, tc.req.path, code, body, tc.code, tc.want)
			}
			if code != 200 && hdr.Get("Content-Type") != jsonCT {
				t.Errorf("error answer's Content-Type is %q, want %s", hdr.Get("Content-Type"), jsonCT)
			}
			if code != 200 && !json.Valid([]byte(body)) {
				t.Errorf("error answer is not JSON: %q", body)
			}
			for k := range hdr {
				if strings.HasPrefix(strings.ToLower(k), "access-control-") {
					t.Errorf("CORS header %s in the answer", k)
				}
			}
			if code == 405 && hdr.Get("Allow") == "" {
				t.Errorf("405 without an Allow header")
			}
		})
	}
}

func TestToken(t *testing.T) {
	base := serve(t, Options{Backend: &fakeBackend{}, Token: "s3cret"})
	for _, tc := range []struct {
		name, path, auth string
		code             int
	}{
		{"no token", "/v1/hooks", "", 401},
		{"wrong token", "/v1/hooks", "Bearer s3cre", 401},
		{"longer token", "/v1/hooks", "Bearer s3cret!", 401},
		{"wrong scheme", "/v1/hooks", "Basic s3cret", 401},
		{"right token", "/v1/hooks", "Bearer s3cret", 200},
		{"scheme in any case", "/v1/status", "bearer s3cret", 200},
		{"metrics need it", "/metrics", "", 401},
		{"health needs none", "/healthz", "", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, hdr, body := request{method: "GET", path: tc.path, auth: tc.auth}.do(t, base)
			if code != tc.code {
				t.Errorf("GET %s with %q: %d %q, want %d", tc.path, tc.auth, code, body, tc.code)
			}
			if code == 401 && (hdr.Get("WWW-Authenticate") == "" || strings.Contains(body, "s3cret")) {
				t.Errorf("401 answer: header %q, body %q", hdr.Get("WWW-Authenticate"), body)
			}
		})
	}
	code, _, _ := request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, auth: "Bearer s3cret", body: "{}"}.do(t, base)
	if code != 200 {
		t.Errorf("fire with the token: %d", code)
	}
	release := request{method: "POST", path: "/v1/hooks/q.lua:x/release", contentType: jsonCT}
	if code, _, body := release.do(t, base); code != 401 {
		t.Errorf("release without the token: %d %s, want 401", code, body)
	}
	release.auth = "Bearer s3cret"
	if code, _, body := release.do(t, base); code != 200 {
		t.Errorf("release with the token: %d %s, want 200", code, body)
	}
}

func TestUnhealthy(t *testing.T) {
	base := serve(t, Options{Backend: &fakeBackend{unhealthy: []string{"a.lua", "b.star"}}})
	code, _, body := request{method: "GET", path: "/healthz"}.do(t, base)
	var got errorBody
	if err := json.Unmarshal([]byte(body), &got); err != nil || code != 503 {
		t.Fatalf("GET /healthz: %d %q (%v), want 503 JSON", code, body, err)
	}
	if got.Error != "unhealthy: a.lua failed to load: boom; b.star failed to load: boom" || len(got.Unhealthy) != 2 {
		t.Errorf("GET /healthz = %+v", got)
	}
}

// A fire in flight when Serve's context ends still gets its answer, and
// Serve returns only after it.
func TestDrain(t *testing.T) {
	fb := &fakeBackend{started: make(chan struct{}), release: make(chan struct{})}
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := New(Options{Backend: fb})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Post("http://"+ln.Addr().String()+"/v1/fire/allow.me", jsonCT, bytes.NewReader([]byte("{}")))
		if err != nil {
			answered <- -1
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	<-fb.started
	cancel()
	select {
	case err := <-served:
		t.Fatalf("Serve returned (%v) while a fire was in flight", err)
	case code := <-answered:
		t.Fatalf("the fire was answered (%d) before it finished", code)
	default:
	}
	close(fb.release)
	if code := <-answered; code != 200 {
		t.Errorf("in-flight fire answered %d, want 200", code)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Errorf("still accepting after Serve returned")
	}
}

func TestIdleExit(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := New(Options{Backend: &fakeBackend{}, IdleExit: 1})
	if err := srv.Serve(context.Background(), ln); err != nil { // returns by itself
		t.Fatalf("Serve: %v", err)
	}
}

func TestNewRefuses(t *testing.T) {
	for _, opts := range []Options{{}, {Backend: &fakeBackend{}, MaxBody: -1}, {Backend: &fakeBackend{}, IdleExit: -1}} {
		if _, err := New(opts); err == nil {
			t.Errorf("New(%+v) = nil error", opts)
		}
	}
}

// A fire that ignores its cancellation does not hold Serve past the
// shutdown timeout and the answer grace: it returns, and says so in the
// log.
func TestShutdownTimeoutStopsAnyway(t *testing.T) {
	fb := &fakeBackend{started: make(chan struct{}), release: make(chan struct{})}
	defer close(fb.release)
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	srv, _ := New(Options{Backend: fb, ShutdownTimeout: time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	srv.answerGrace = 10 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	go http.Post("http://"+ln.Addr().String()+"/v1/fire/allow.me", jsonCT, strings.NewReader("{}"))
	<-fb.started
	cancel()
	if err := <-served; err != nil { // returns though the fire never finishes
		t.Errorf("Serve: %v", err)
	}
	for _, want := range []string{"cancelling the fires still running", "stopping anyway: requests still unanswered"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no %q in the log:\n%s", want, logs.String())
		}
	}
}

// A cancellingBackend's fire runs until its context ends (or release is
// closed, when it allows), then answers as the host does: a deny whose
// reason gives the context's cause, with the context's error.
type cancellingBackend struct {
	fakeBackend
	started chan struct{}
	release chan struct{}
}

func (b *cancellingBackend) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	b.started <- struct{}{}
	select {
	case <-b.release:
		return host.Result{Event: event, Decision: host.Decision{Action: host.Allow, Reason: "finished"}, Payload: payload}, nil
	case <-ctx.Done():
		return host.Result{Event: event, Payload: payload,
			Decision: host.Decision{Action: host.Deny, Reason: fmt.Sprintf("the fire was cancelled: %v", context.Cause(ctx))}}, ctx.Err()
	}
}

// Serve drains: a fire in flight when ctx ends gets its real answer if
// it finishes within the shutdown timeout; one still running after it,
// or when Abort is called, is cancelled and answered 200 with what the
// backend made of the cancellation, the reason naming ErrStopping.
func TestShutdownDrains(t *testing.T) {
	for _, c := range []struct {
		name    string
		timeout time.Duration
		finish  bool // the fire finishes after the drain began
		abort   bool // Abort is called during the drain
		want    string
	}{
		{"finishes within the timeout", time.Hour, true, false, `"decision":{"action":"allow","reason":"finished"`},
		{"cancelled at the timeout", 20 * time.Millisecond, false, false,
			`"reason":"the fire was cancelled: hookhost serve is stopping: the fire ran past the shutdown timeout (20ms)"`},
		{"cancelled by Abort", time.Hour, false, true, `"reason":"the fire was cancelled: hookhost serve is stopping: told to stop at once"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := &cancellingBackend{started: make(chan struct{}), release: make(chan struct{})}
			ln, err := Listen("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			var logs syncBuffer
			srv, _ := New(Options{Backend: b, ShutdownTimeout: c.timeout, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			ctx, cancel := context.WithCancel(context.Background())
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ctx, ln) }()
			type answer struct {
				code int
				body string
				err  error
			}
			answered := make(chan answer, 1)
			go func() {
				resp, err := http.Post("http://"+ln.Addr().String()+"/v1/fire/allow.me", jsonCT, strings.NewReader("{}"))
				if err != nil {
					answered <- answer{err: err}
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				answered <- answer{code: resp.StatusCode, body: string(body)}
			}()
			<-b.started
			cancel()
			waitFor(t, "the drain", func() bool { return strings.Contains(logs.String(), "stopping: finishing the requests in flight") })
			switch {
			case c.finish:
				close(b.release)
			case c.abort:
				srv.Abort()
			}
			a := <-answered
			if a.err != nil || a.code != http.StatusOK || !strings.Contains(a.body, c.want) {
				t.Errorf("answer %d %s (%v), want 200 with %s", a.code, a.body, a.err, c.want)
			}
			if err := <-served; err != nil {
				t.Errorf("Serve: %v", err)
			}
			if strings.Contains(logs.String(), "stopping anyway") {
				t.Errorf("the answer was not written in time:\n%s", logs.String())
			}
		})
	}
}

// A logged request names its method, path and status, never its token.
func TestRequestLog(t *testing.T) {
	var logs syncBuffer
	base := serve(t, Options{Backend: &fakeBackend{}, Token: "tok-en",
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	request{method: "GET", path: "/v1/hooks", auth: "Bearer tok-en"}.do(t, base)
	request{method: "GET", path: "/v1/status", auth: "Bearer wrong"}.do(t, base)
	got := logs.String()
	for _, want := range []string{`method=GET path=/v1/hooks status=200`, `method=GET path=/v1/status status=401`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in the log:\n%s", want, got)
		}
	}
	if strings.Contains(got, "tok-en") || strings.Contains(got, "wrong") {
		t.Errorf("a token is in the log:\n%s", got)
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// WriteError is the API's error answer: the status and {"error": …}.
func TestWriteError(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteError(rec, http.StatusInternalServerError, errors.New("gathering metrics: broke"))
	var body struct{ Error string }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != 500 ||
		rec.Header().Get("Content-Type") != "application/json" || body.Error != "gathering metrics: broke" {
		t.Errorf("%d %q %q (%v)", rec.Code, rec.Header().Get("Content-Type"), rec.Body, err)
	}
}
