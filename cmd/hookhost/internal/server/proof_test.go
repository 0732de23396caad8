package server

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/peerauth"
)

// proofRequest is one request that proves the token (package peerauth),
// sent on its own connection exactly as given, so that a test can alter
// it on the way.
type proofRequest struct {
	method, path, body string
	key                peerauth.Key
	// alter changes the request after it was signed.
	alter func(r *http.Request)
}

// do sends the request and returns the answer and the proof it covered.
func (p proofRequest) do(t *testing.T, addr string) (*http.Response, peerauth.Request) {
	t.Helper()
	req, err := http.NewRequest(p.method, "http://"+addr+p.path, strings.NewReader(p.body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", jsonCT)
	proof, err := peerauth.NewRequest(req.Method, req.URL.RequestURI(), []byte(p.body), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	p.key.Sign(req.Header, proof)
	if p.alter != nil {
		p.alter(req)
	}
	return send(t, addr, req), proof
}

// send writes req on a new connection and reads the answer whole.
func send(t *testing.T, addr string, req *http.Request) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	req.Close = true
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestProof: a client that proves the token, rather than sending it, is
// served and gets a signed answer; a proof that fails is 401 and fires
// nothing; bearer tokens still work.
func TestProof(t *testing.T) {
	backend := &fakeBackend{}
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := startOn(t, Options{Backend: backend, Token: "s3cret"}, ln)
	key := peerauth.NewKey("s3cret")
	fire := `{"n":1}` + "\n"
	for _, tc := range []struct {
		name   string
		req    proofRequest
		status int
		signed bool
		fired  bool
	}{
		{"a fire", proofRequest{method: "POST", path: "/v1/fire/allow.me", body: fire, key: key}, 200, true, true},
		{"a refusal is signed too", proofRequest{method: "POST", path: "/v1/fire/nope", body: fire, key: key}, 404, true, false},
		{"a GET", proofRequest{method: "GET", path: "/v1/hooks", key: key}, 200, true, false},
		{"the wrong token", proofRequest{method: "POST", path: "/v1/fire/allow.me", body: fire, key: peerauth.NewKey("guess")}, 401, false, false},
		{"another event than proven", proofRequest{method: "POST", path: "/v1/fire/allow.me", body: fire, key: key,
			alter: func(r *http.Request) { r.URL.Path = "/v1/fire/nope" }}, 401, false, false},
		{"a tampered body", proofRequest{method: "POST", path: "/v1/fire/allow.me", body: fire, key: key,
			alter: func(r *http.Request) { r.Body = io.NopCloser(strings.NewReader(`{"n":2}` + "\n")) }}, 400, true, false},
		{"a stale proof", proofRequest{method: "POST", path: "/v1/fire/allow.me", body: fire, key: key,
			alter: func(r *http.Request) { staleProof(r, key, fire) }}, 401, false, false},
	} {
		before := backend.fires()
		resp, proof := tc.req.do(t, addr)
		body, _ := io.ReadAll(resp.Body)
		err := key.VerifyResponse(proof, resp.StatusCode, resp.Header, body)
		if resp.StatusCode != tc.status || (err == nil) != tc.signed || (backend.fires() > before) != tc.fired {
			t.Errorf("%s: %d %q, signature %v, fired %v; want %d, signed %v, fired %v",
				tc.name, resp.StatusCode, body, err, backend.fires() > before, tc.status, tc.signed, tc.fired)
		}
		if strings.Contains(string(body), "s3cret") {
			t.Errorf("%s: the answer quotes the token: %q", tc.name, body)
		}
	}
}

// staleProof re-signs r as made two skews ago.
func staleProof(r *http.Request, key peerauth.Key, body string) {
	proof, _ := peerauth.NewRequest(r.Method, r.URL.RequestURI(), []byte(body), time.Now().Add(-2*peerauth.MaxSkew))
	key.Sign(r.Header, proof)
}

// TestProofReplay: a request captured on the way and sent again is
// refused, and fires nothing the second time.
func TestProofReplay(t *testing.T) {
	backend := &fakeBackend{}
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := startOn(t, Options{Backend: backend, Token: "s3cret"}, ln)
	key := peerauth.NewKey("s3cret")
	body := `{"n":1}` + "\n"
	newRequest := func() *http.Request {
		r, _ := http.NewRequest("POST", "http://"+addr+"/v1/fire/allow.me", strings.NewReader(body))
		r.Header.Set("Content-Type", jsonCT)
		return r
	}
	first := newRequest()
	proof, _ := peerauth.NewRequest("POST", first.URL.RequestURI(), []byte(body), time.Now())
	key.Sign(first.Header, proof)
	if resp := send(t, addr, first); resp.StatusCode != 200 {
		t.Fatalf("the first time: %d", resp.StatusCode)
	}
	again := newRequest()
	again.Header = first.Header.Clone()
	resp := send(t, addr, again)
	msg, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 401 || !strings.Contains(string(msg), "used before") || backend.fires() != 1 {
		t.Errorf("the replay: %d %q, %d fires; want 401 and one fire", resp.StatusCode, msg, backend.fires())
	}
}

// TestProofWithoutToken: a server with no token cannot sign, and says so
// rather than answer unsigned; bearer clients are unaffected.
func TestProofWithoutToken(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := startOn(t, Options{Backend: &fakeBackend{}}, ln)
	resp, proof := proofRequest{method: "POST", path: "/v1/fire/allow.me", body: "{}", key: peerauth.NewKey("x")}.do(t, addr)
	body, _ := io.ReadAll(resp.Body)
	if err := peerauth.NewKey("x").VerifyResponse(proof, resp.StatusCode, resp.Header, body); resp.StatusCode != 401 ||
		!errors.Is(err, peerauth.ErrNoProof) || !strings.Contains(string(body), "this server has no token") {
		t.Errorf("a proof to a server without a token: %d %q, %v", resp.StatusCode, body, err)
	}
}

// fires counts the fires the backend answered.
func (f *fakeBackend) fires() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.payloads)
}
