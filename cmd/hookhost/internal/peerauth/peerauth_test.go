package peerauth

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The known answer, computed independently (Python's hmac and hashlib),
// which docs/operations.md repeats for other clients to test against.
const (
	kaToken    = "s3cret-token"
	kaNonce    = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8" // bytes 0..31
	kaTime     = "1767225600"
	kaBody     = `{"tool_name":"bash","params":{"command":"rm -rf /"}}` + "\n"
	kaBodySum  = "7ac524ab5d9bd1e0ceacfebb3fbf5135ff08ecc8010f1f3c6e218abd64f1bd25"
	kaMAC      = "DvLmFT6d_jplWI4drKyqzquAOmpfxK6tW-YhcTiJTF4"
	kaAnswer   = `{"event":"tool.execute.pre","decision":{"action":"deny"}}` + "\n"
	kaAnswerMA = "ob23iN_52uwg7XALbqRvo6iOGp8rjvfdjXmsM3lfA9Q"
)

var kaRequest = Request{Nonce: kaNonce, Time: kaTime, Method: "POST", Target: "/v1/fire/tool.execute.pre", ContentSHA256: kaBodySum}

func TestKnownAnswer(t *testing.T) {
	k := NewKey(kaToken)
	h := http.Header{}
	k.Sign(h, kaRequest)
	if h.Get(HeaderMAC) != kaMAC || h.Get(HeaderContent) != kaBodySum || h.Get(HeaderNonce) != kaNonce || h.Get(HeaderTime) != kaTime {
		t.Errorf("request headers %v, want the MAC %s", h, kaMAC)
	}
	a := k.Answer(kaRequest)
	io.WriteString(a, kaAnswer)
	rh := http.Header{}
	a.Sign(rh, 200)
	if rh.Get(HeaderMAC) != kaAnswerMA {
		t.Errorf("answer MAC %s, want %s", rh.Get(HeaderMAC), kaAnswerMA)
	}
}

// signed is a fresh proof of a POST of body, made at now.
func signed(t *testing.T, k Key, body string, now time.Time) (Request, http.Header) {
	t.Helper()
	req, err := NewRequest("POST", "/v1/fire/tool.execute.pre", []byte(body), now)
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	k.Sign(h, req)
	return req, h
}

func TestVerifyRequest(t *testing.T) {
	k := NewKey(kaToken)
	now := time.Unix(1767225600, 0)
	for _, tc := range []struct {
		name   string
		server Key
		method string
		change func(h http.Header)
		at     time.Duration // the server's clock, after the request's
		want   error
	}{
		{name: "a good proof", server: k},
		{name: "within the skew", server: k, at: MaxSkew},
		{name: "the client's clock ahead", server: k, at: -MaxSkew},
		{name: "the wrong token", server: NewKey("guess"), want: ErrBadProof},
		{name: "another method", server: k, method: "GET", want: ErrBadProof},
		{name: "a tampered body digest", server: k, want: ErrBadProof,
			change: func(h http.Header) { h.Set(HeaderContent, strings.Repeat("0", 64)) }},
		{name: "a tampered nonce", server: k, want: ErrBadProof,
			change: func(h http.Header) { h.Set(HeaderNonce, kaNonce) }},
		{name: "a tampered time", server: k, want: ErrBadProof,
			change: func(h http.Header) { h.Set(HeaderTime, "1767225601") }},
		{name: "a tampered MAC", server: k, want: ErrBadProof,
			change: func(h http.Header) { h.Set(HeaderMAC, kaMAC) }},
		{name: "stale", server: k, at: MaxSkew + time.Second, want: ErrStale},
		{name: "from the future", server: k, at: -MaxSkew - time.Second, want: ErrStale},
		{name: "no MAC", server: k, want: ErrNoProof, change: func(h http.Header) { h.Del(HeaderMAC) }},
		{name: "no nonce", server: k, want: ErrMalformed, change: func(h http.Header) { h.Del(HeaderNonce) }},
		{name: "a short nonce", server: k, want: ErrMalformed, change: func(h http.Header) { h.Set(HeaderNonce, "AAECAwQFBgcICQoLDA0O") }},
		{name: "no time", server: k, want: ErrMalformed, change: func(h http.Header) { h.Del(HeaderTime) }},
		{name: "upper-case digest", server: k, want: ErrMalformed,
			change: func(h http.Header) { h.Set(HeaderContent, strings.ToUpper(h.Get(HeaderContent))) }},
		{name: "a short MAC", server: k, want: ErrMalformed, change: func(h http.Header) { h.Set(HeaderMAC, "AAEC") }},
	} {
		_, h := signed(t, k, kaBody, now)
		if tc.change != nil {
			tc.change(h)
		}
		method := "POST"
		if tc.method != "" {
			method = tc.method
		}
		_, err := tc.server.VerifyRequest(method, "/v1/fire/tool.execute.pre", h, now.Add(tc.at))
		if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestVerifyResponse(t *testing.T) {
	k := NewKey(kaToken)
	req, _ := signed(t, k, kaBody, time.Now())
	other, _ := signed(t, k, kaBody, time.Now())
	answer := func(key Key, r Request, status int, body string) http.Header {
		a := key.Answer(r)
		io.WriteString(a, body)
		h := http.Header{}
		a.Sign(h, status)
		return h
	}
	for _, tc := range []struct {
		name   string
		header http.Header
		status int
		body   string
		want   error
	}{
		{"a good proof", answer(k, req, 200, kaAnswer), 200, kaAnswer, nil},
		{"a good proof of an error", answer(k, req, 404, `{"error":"x"}`), 404, `{"error":"x"}`, nil},
		{"the wrong token", answer(NewKey("guess"), req, 200, kaAnswer), 200, kaAnswer, ErrBadProof},
		{"a tampered body", answer(k, req, 200, kaAnswer), 200, strings.Replace(kaAnswer, "deny", "allow", 1), ErrBadProof},
		{"a tampered status", answer(k, req, 404, kaAnswer), 200, kaAnswer, ErrBadProof},
		{"the answer to another request", answer(k, other, 200, kaAnswer), 200, kaAnswer, ErrBadProof},
		{"a request's MAC as the answer's", http.Header{HeaderMAC: {kaMAC}}, 200, kaAnswer, ErrBadProof},
		{"not base64url", http.Header{HeaderMAC: {"%%%"}}, 200, kaAnswer, ErrBadProof},
		{"no proof", http.Header{}, 200, kaAnswer, ErrNoProof},
	} {
		err := k.VerifyResponse(req, tc.status, tc.header, []byte(tc.body))
		if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestBody(t *testing.T) {
	req := Request{ContentSHA256: kaBodySum}
	for _, tc := range []struct {
		name   string
		body   string
		length int64
		want   error
	}{
		{"the proven body", kaBody, int64(len(kaBody)), nil},
		{"the proven body, length unknown", kaBody, -1, nil},
		{"a tampered body", strings.Replace(kaBody, "rm", "ls", 1), int64(len(kaBody)), ErrBody},
		{"a tampered body, length unknown", strings.Replace(kaBody, "rm", "ls", 1), -1, ErrBody},
		{"a truncated body", kaBody[:10], -1, ErrBody},
		{"an empty body", "", 0, ErrBody},
	} {
		// io.ReadFull stops at the length, as a reader that trusts
		// Content-Length does; it must still see the mismatch.
		b := Body(io.NopCloser(strings.NewReader(tc.body)), req, tc.length)
		var err error
		if tc.length > 0 {
			_, err = io.ReadFull(b, make([]byte, tc.length))
		} else {
			_, err = io.ReadAll(b)
		}
		if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestNonces(t *testing.T) {
	now := time.Unix(1767225600, 0)
	req := func(nonce string, d time.Duration) Request {
		return Request{Nonce: nonce, Time: strconv.FormatInt(now.Add(d).Unix(), 10)}
	}
	n := NewNonces(2)
	steps := []struct {
		name string
		req  Request
		at   time.Duration
		want error
	}{
		{"a first nonce", req("a", 0), 0, nil},
		{"the same again", req("a", 0), time.Second, ErrReplay},
		{"a second", req("b", 0), 0, nil},
		{"a third, with no room", req("c", 0), time.Second, ErrBusy},
		{"the first again, within its window", req("a", 0), MaxSkew, ErrReplay},
		{"a third, once the others' window passed", req("c", MaxSkew+2*time.Second), MaxSkew + 2*time.Second, nil},
		{"the third again", req("c", MaxSkew+2*time.Second), MaxSkew + 3*time.Second, ErrReplay},
	}
	for _, s := range steps {
		if err := n.Use(s.req, now.Add(s.at)); !errors.Is(err, s.want) || (s.want == nil && err != nil) {
			t.Errorf("%s: %v, want %v", s.name, err, s.want)
		}
	}
}
