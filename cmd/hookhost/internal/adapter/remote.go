package adapter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/peerauth"
	"github.com/hookhost/hookhost/cmd/internal/autosock"
	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// ErrUnavailable is returned when no server answers at an address: the
// caller may fall back to loading the hooks itself.
var ErrUnavailable = errors.New("no hookhost server answers")

// ErrNoAnswer is returned, wrapped with ErrUnavailable, when a server
// accepted the connection but did not answer within the request's
// bound: it is not started again (it runs), but the caller may still
// fall back to loading the hooks itself.
var ErrNoAnswer = errors.New("the server did not answer in time")

// ErrBusy is returned, wrapped with ErrUnavailable, when a server
// answered 503: it runs but ran no hook (its fire slots or request
// memory were taken), so it is not started again, and the caller may
// fall back to loading the hooks itself.
var ErrBusy = errors.New("the server is busy")

// ConnectTimeout bounds connecting to a server: one that does not accept
// within it counts as unavailable.
const ConnectTimeout = time.Duration(autosock.ConnectTimeout)

// RequestTimeout is the default bound of a whole request, connection
// included (--server-timeout): above the longest hook chain a server
// should take, well under the agents' own hook timeouts (60 s for
// Claude Code and Gemini CLI), so that hookhost, not the agent, decides
// what a hung server means.
const RequestTimeout = time.Duration(autosock.RequestTimeout)

// MaxAnswer bounds the answer a client reads from a server: whoever
// answers cannot make it hold more.
const MaxAnswer = autosock.MaxAnswer

// Remote fires through a running "hookhost serve": POST /v1/fire/{event}
// with the payload, answered with the fire --json object. Each fire is
// one connection, written and read on the calling goroutine: a command
// hook makes one request, and a connection pool's goroutines would only
// add to its start-up.
//
// Whoever answers is authenticated before a byte is sent or trusted (see
// remote_auth.go): over a Unix socket, the listening process must be
// this user's or root's; over TCP with a token, the token is proven,
// never sent, and each answer must prove it too (package peerauth).
type Remote struct {
	network, address string
	host             string // the Host header
	token            string // sent as a bearer token: over a Unix socket only
	key              *peerauth.Key

	// Timeout bounds each whole request, from dialing to the last byte
	// of the answer; zero leaves it to the caller's context.
	Timeout time.Duration
	// Log receives notes: what an answer that cannot be authenticated
	// (TCP without a token) was not allowed to say. Nil discards them.
	Log io.Writer
}

var _ Firer = (*Remote)(nil)

// NewRemote is a client of the server at addr: http://HOST:PORT, or
// unix:/path/to.sock. token, when set, is sent as a bearer token over a
// Unix socket, and proven without being sent over TCP.
func NewRemote(addr, token string) (*Remote, error) {
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		if path == "" {
			return nil, fmt.Errorf("--server %q: want unix:/path/to.sock", addr)
		}
		return &Remote{network: "unix", address: path, host: "localhost", token: token}, nil
	}
	u, err := url.Parse(addr)
	if err != nil || u.Scheme != "http" || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("--server %q: want http://HOST:PORT, unix:/path/to.sock or auto", addr)
	}
	hostport := u.Host
	if u.Port() == "" {
		hostport = net.JoinHostPort(u.Hostname(), "80")
	}
	r := &Remote{network: "tcp", address: hostport, host: u.Host}
	if token != "" {
		key := peerauth.NewKey(token)
		r.key = &key
	}
	return r, nil
}

// Fire implements Firer. A server that cannot be reached is
// ErrUnavailable; one that cannot be authenticated, or refuses this
// client, an *AuthError; its other refusals (unknown event, bad payload)
// wrap the host's errors.
func (r *Remote) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	var body bytes.Buffer
	if err := wire.WriteJSONLine(&body, payload); err != nil {
		return host.Result{}, fmt.Errorf("%w: %w", host.ErrBadPayload, err)
	}
	req, proof, err := r.request(event, body.Bytes())
	if err != nil {
		return host.Result{}, err
	}
	ans, err := r.exchange(ctx, req)
	if err != nil {
		return host.Result{}, err
	}
	if err := r.authentic(proof, ans); err != nil {
		return host.Result{}, err
	}
	if ans.status != http.StatusOK {
		return host.Result{}, refusal(ans.status, ans.body)
	}
	var res host.Result
	if err := json.Unmarshal(ans.body, &res); err != nil {
		return host.Result{}, fmt.Errorf("the server's answer is not a fire result: %w", err)
	}
	if r.network == "tcp" && r.key == nil {
		res = r.distrust(payload, res)
	}
	return res, nil
}

// request is the fire request, with its credentials: the proof (whose
// nonce the answer must sign) over TCP with a token, the bearer token
// over a Unix socket.
func (r *Remote) request(event string, body []byte) (*http.Request, *peerauth.Request, error) {
	req, err := http.NewRequest(http.MethodPost, "http://"+r.host+"/v1/fire/"+url.PathEscape(event), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Close = true
	switch {
	case r.key != nil:
		proof, err := peerauth.NewRequest(req.Method, req.URL.RequestURI(), body, time.Now())
		if err != nil {
			return nil, nil, err
		}
		r.key.Sign(req.Header, proof)
		return req, &proof, nil
	case r.token != "" && r.network == "unix":
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	return req, nil, nil
}

// An answer is a server's response, read whole.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// exchange connects, checks who serves a Unix socket, sends req and
// reads the answer, within the Timeout.
func (r *Remote) exchange(ctx context.Context, req *http.Request) (answer, error) {
	start := time.Now()
	dialer := net.Dialer{Timeout: ConnectTimeout}
	conn, err := dialer.DialContext(ctx, r.network, r.address)
	if err != nil {
		return answer{}, fmt.Errorf("%w at %s: %w", ErrUnavailable, r.address, err)
	}
	defer conn.Close()
	if r.network == "unix" {
		if err := checkPeer(conn, r.address, os.Getuid()); err != nil {
			return answer{}, err
		}
	}
	if r.Timeout > 0 {
		conn.SetDeadline(start.Add(r.Timeout))
	}
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	ans, err := roundTrip(conn, req)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		} else if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
			return answer{}, fmt.Errorf("%w at %s: %w within %v (--server-timeout)", ErrUnavailable, r.address, ErrNoAnswer, r.Timeout)
		}
		return answer{}, fmt.Errorf("asking the server at %s: %w", r.address, err)
	}
	return ans, nil
}

// roundTrip writes req on conn and reads the answer, at most MaxAnswer
// bytes of body.
func roundTrip(conn net.Conn, req *http.Request) (answer, error) {
	if err := req.Write(conn); err != nil {
		return answer{}, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswer+1))
	if err == nil && len(data) > MaxAnswer {
		err = fmt.Errorf("the answer is over %d bytes", MaxAnswer)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: data}, err
}

// refusal is the error for a server's non-200 answer.
func refusal(status int, body []byte) error {
	msg := errorText(body)
	switch status {
	case http.StatusNotFound:
		return fmt.Errorf("%w: the server says: %s", host.ErrUnknownEvent, msg)
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		return fmt.Errorf("%w: the server says: %s", host.ErrBadPayload, msg)
	case http.StatusServiceUnavailable:
		// The server ran no hook (its fire slots or request memory are
		// taken): the hooks loaded here decide instead, still failing
		// closed on their own, rather than blocking every call of a burst.
		return fmt.Errorf("%w: %w (503): %s", ErrUnavailable, ErrBusy, msg)
	}
	return fmt.Errorf("the server answered %d: %s", status, msg)
}

// errorText is the message of an error answer: its "error" field, or
// the body itself.
func errorText(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return e.Error
	}
	return strings.TrimSpace(string(body))
}

// Close implements Firer: each fire closes its own connection.
func (r *Remote) Close() error { return nil }
