package peerauth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers of the scheme (see the package documentation).
const (
	HeaderNonce   = "Hookhost-Nonce"
	HeaderTime    = "Hookhost-Time"
	HeaderContent = "Hookhost-Content-Sha256"
	HeaderMAC     = "Hookhost-Mac"
)

// MaxSkew is how far a request's time may be from the server's clock.
const MaxSkew = time.Minute

// Nonce sizes, in bytes before encoding.
const (
	nonceBytes    = 32
	minNonceBytes = 16
	maxNonceBytes = 64
)

// The first lines of the strings MACs are computed over.
const (
	requestLabel  = "hookhost-auth-v1 request"
	responseLabel = "hookhost-auth-v1 response"
)

// Errors of the checks. Each is wrapped with the details.
var (
	// ErrNoProof: the request or answer carries no proof at all.
	ErrNoProof = errors.New("no proof of the token (no " + HeaderMAC + " header)")
	// ErrMalformed: a proof header is missing or not in its format.
	ErrMalformed = errors.New("malformed proof")
	// ErrBadProof: the MAC does not match: the other side does not hold
	// the token, or something changed the message on the way.
	ErrBadProof = errors.New("the proof does not match: the sender does not hold the token, or the message was altered")
	// ErrStale: the request's time is more than MaxSkew from the
	// server's clock.
	ErrStale = errors.New("the request's time is too far from the server's clock")
	// ErrReplay: the nonce was accepted before.
	ErrReplay = errors.New("the nonce was used before (a replayed request)")
	// ErrBody: the body is not the one the proof declared.
	ErrBody = errors.New("the body does not match the SHA-256 its proof declares")
)

var b64 = base64.RawURLEncoding

// A Key is the MAC key of one token.
type Key struct{ k [sha256.Size]byte }

// NewKey is the key of token (already trimmed of white space).
func NewKey(token string) Key { return Key{sha256.Sum256([]byte(token))} }

// KeyFromDigest is the key of the token whose SHA-256 digest is sum, for
// a server that keeps only the digest.
func KeyFromDigest(sum [sha256.Size]byte) Key { return Key{sum} }

// A Request is what a request's proof covers.
type Request struct {
	// Nonce is the base64url text of the nonce, as sent.
	Nonce string
	// Time is the decimal Unix seconds, as sent.
	Time string
	// Method and Target are the request line's method and target.
	Method, Target string
	// ContentSHA256 is the hex SHA-256 of the body.
	ContentSHA256 string
}

// NewRequest is the proof's content for a request made now: a fresh
// random nonce, the time, and the body's digest.
func NewRequest(method, target string, body []byte, now time.Time) (Request, error) {
	var nonce [nonceBytes]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return Request{}, fmt.Errorf("peerauth: a nonce: %w", err)
	}
	sum := sha256.Sum256(body)
	return Request{Nonce: b64.EncodeToString(nonce[:]), Time: strconv.FormatInt(now.Unix(), 10),
		Method: method, Target: target, ContentSHA256: hex.EncodeToString(sum[:])}, nil
}

// Sign sets the proof headers of req on h.
func (k Key) Sign(h http.Header, req Request) {
	h.Set(HeaderNonce, req.Nonce)
	h.Set(HeaderTime, req.Time)
	h.Set(HeaderContent, req.ContentSHA256)
	h.Set(HeaderMAC, b64.EncodeToString(k.requestMAC(req)))
}

func (k Key) requestMAC(req Request) []byte {
	return k.mac(requestLabel, req.Nonce, req.Time, req.Method, req.Target, req.ContentSHA256)
}

func (k Key) responseMAC(nonce string, status int, bodySum []byte) []byte {
	return k.mac(responseLabel, nonce, fmt.Sprintf("%03d", status), hex.EncodeToString(bodySum))
}

// mac is HMAC(K, the lines joined by "\n").
func (k Key) mac(lines ...string) []byte {
	m := hmac.New(sha256.New, k.k[:])
	m.Write([]byte(strings.Join(lines, "\n")))
	return m.Sum(nil)
}

// VerifyResponse checks the answer to req: its status, headers and the
// whole body as received. It fails with ErrNoProof or ErrBadProof.
func (k Key) VerifyResponse(req Request, status int, h http.Header, body []byte) error {
	got := h.Get(HeaderMAC)
	if got == "" {
		return ErrNoProof
	}
	mac, err := b64.DecodeString(got)
	if err != nil {
		return fmt.Errorf("%w: %s is not base64url", ErrBadProof, HeaderMAC)
	}
	sum := sha256.Sum256(body)
	if !hmac.Equal(mac, k.responseMAC(req.Nonce, status, sum[:])) {
		return ErrBadProof
	}
	return nil
}

// Present reports whether a request tries the scheme: it carries any of
// its headers. Such a request is judged by the scheme alone, never by a
// bearer token.
func Present(h http.Header) bool {
	for _, name := range []string{HeaderMAC, HeaderNonce, HeaderTime, HeaderContent} {
		if _, ok := h[name]; ok {
			return true
		}
	}
	return false
}

// VerifyRequest checks a request's proof against the server's clock now:
// the headers' form, the MAC (in constant time), then the time. It
// returns what the proof covers; the caller then records the nonce
// (Nonces.Use) and checks the body as it reads it (Body).
func (k Key) VerifyRequest(method, target string, h http.Header, now time.Time) (Request, error) {
	req, mac, err := readRequest(method, target, h)
	if err != nil {
		return Request{}, err
	}
	if !hmac.Equal(mac, k.requestMAC(req)) {
		return Request{}, ErrBadProof
	}
	sec, _ := strconv.ParseInt(req.Time, 10, 64) // readRequest checked it
	if d := now.Sub(time.Unix(sec, 0)).Abs(); d > MaxSkew {
		return Request{}, fmt.Errorf("%w: %v apart, at most %v", ErrStale, d.Truncate(time.Second), MaxSkew)
	}
	return req, nil
}

// readRequest reads the proof headers and checks their form.
func readRequest(method, target string, h http.Header) (Request, []byte, error) {
	if h.Get(HeaderMAC) == "" {
		return Request{}, nil, ErrNoProof
	}
	req := Request{Nonce: h.Get(HeaderNonce), Time: h.Get(HeaderTime), Method: method, Target: target,
		ContentSHA256: h.Get(HeaderContent)}
	mac, err := b64.DecodeString(h.Get(HeaderMAC))
	if err != nil || len(mac) != sha256.Size {
		return Request{}, nil, fmt.Errorf("%w: %s: want the base64url of 32 bytes", ErrMalformed, HeaderMAC)
	}
	if n, err := b64.DecodeString(req.Nonce); err != nil || len(n) < minNonceBytes || len(n) > maxNonceBytes {
		return Request{}, nil, fmt.Errorf("%w: %s: want the base64url of %d to %d random bytes", ErrMalformed, HeaderNonce, minNonceBytes, maxNonceBytes)
	}
	if _, err := strconv.ParseInt(req.Time, 10, 64); err != nil {
		return Request{}, nil, fmt.Errorf("%w: %s: want decimal Unix seconds", ErrMalformed, HeaderTime)
	}
	if sum, err := hex.DecodeString(req.ContentSHA256); err != nil || len(sum) != sha256.Size ||
		req.ContentSHA256 != strings.ToLower(req.ContentSHA256) {
		return Request{}, nil, fmt.Errorf("%w: %s: want 64 lower-case hex digits", ErrMalformed, HeaderContent)
	}
	return req, mac, nil
}

// An Answer signs one response: the server writes the body through it,
// then Sign sets the header from what was written.
type Answer struct {
	key   Key
	nonce string
	sum   hash.Hash
}

// Answer starts the answer to req.
func (k Key) Answer(req Request) *Answer {
	return &Answer{key: k, nonce: req.Nonce, sum: sha256.New()}
}

// Write adds body bytes as sent.
func (a *Answer) Write(p []byte) (int, error) { return a.sum.Write(p) }

// Sign sets the answer's proof on h, for the status and the body
// written.
func (a *Answer) Sign(h http.Header, status int) {
	h.Set(HeaderMAC, b64.EncodeToString(a.key.responseMAC(a.nonce, status, a.sum.Sum(nil))))
}
