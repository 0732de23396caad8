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

// ErrAuth is what every *AuthError is (errors.Is): the server could not
// be authenticated, or it refused this client's token. It is hookhost's
// own failure, never a reason to fall back to the hooks in this process:
// whoever answers may be impersonating the server, so a caller fails
// closed at a guard event.
var ErrAuth = errors.New("authentication with the hookhost server failed")

// ErrUnauthorized is the cause, in an *AuthError, of a 401: the server
// refused the token sent, or the lack of one.
var ErrUnauthorized = errors.New("the server refused this client's token (401)")

// ErrImpostor is the cause, in an *AuthError, of a peer that is not who
// the server must be: a Unix socket served by another user, or a TCP
// answer without a valid proof that its sender holds the token.
var ErrImpostor = errors.New("the peer is not the hookhost server it claims to be")

// An AuthError is a failed authentication with the server at Server. It
// is ErrAuth (errors.Is), and unwraps to its cause: ErrUnauthorized or
// ErrImpostor, wrapping the details.
type AuthError struct {
	// Server is the address asked (host:port, or a socket's path).
	Server string
	// Err says what failed.
	Err error
}

func (e *AuthError) Error() string {
	return fmt.Sprintf("%v: the server at %s: %v", ErrAuth, e.Server, e.Err)
}

func (e *AuthError) Unwrap() error { return e.Err }

// Is makes every AuthError ErrAuth.
func (e *AuthError) Is(target error) bool { return target == ErrAuth }

// ConnectTimeout bounds connecting to a server: one that does not accept
// within it counts as unavailable.
const ConnectTimeout = 200 * time.Millisecond

// RequestTimeout is the default bound of a whole request, connection
// included (--server-timeout): above the longest hook chain a server
// should take, well under the agents' own hook timeouts (60 s for
// Claude Code and Gemini CLI), so that hookhost, not the agent, decides
// what a hung server means.
const RequestTimeout = 10 * time.Second

// Remote fires through a running "hookhost serve": POST /v1/fire/{event}
// with the payload, answered with the fire --json object. Each fire is
// one connection, written and read on the calling goroutine: a command
// hook makes one request, and a connection pool's goroutines would only
// add to its start-up.
type Remote struct {
	network, address string
	host             string // the Host header
	token            string

	// Timeout bounds each whole request, from dialing to the last byte
	// of the answer; zero leaves it to the caller's context.
	Timeout time.Duration
}

var _ Firer = (*Remote)(nil)

// NewRemote is a client of the server at addr: http://HOST:PORT, or
// unix:/path/to.sock. token, when set, is sent as a bearer token.
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
	return &Remote{network: "tcp", address: hostport, host: u.Host, token: token}, nil
}

// Fire implements Firer. A server that cannot be reached is
// ErrUnavailable; its refusals (unknown event, bad payload) wrap the
// host's errors.
func (r *Remote) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	var body bytes.Buffer
	if err := wire.WriteJSONLine(&body, payload); err != nil {
		return host.Result{}, fmt.Errorf("%w: %w", host.ErrBadPayload, err)
	}
	start := time.Now()
	dialer := net.Dialer{Timeout: ConnectTimeout}
	conn, err := dialer.DialContext(ctx, r.network, r.address)
	if err != nil {
		return host.Result{}, fmt.Errorf("%w at %s: %w", ErrUnavailable, r.address, err)
	}
	defer conn.Close()
	if r.network == "unix" {
		if err := checkPeer(conn, r.address, os.Getuid()); err != nil {
			return host.Result{}, err
		}
	}
	if r.Timeout > 0 {
		conn.SetDeadline(start.Add(r.Timeout))
	}
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	status, data, err := r.roundTrip(conn, event, body.Bytes())
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		} else if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
			return host.Result{}, fmt.Errorf("%w at %s: %w within %v (--server-timeout)", ErrUnavailable, r.address, ErrNoAnswer, r.Timeout)
		}
		return host.Result{}, fmt.Errorf("asking the server at %s: %w", r.address, err)
	}
	if status == http.StatusUnauthorized {
		return host.Result{}, &AuthError{Server: r.address, Err: fmt.Errorf("%w: %s", ErrUnauthorized, errorText(data))}
	}
	if status != http.StatusOK {
		return host.Result{}, refusal(status, data)
	}
	var res host.Result
	if err := json.Unmarshal(data, &res); err != nil {
		return host.Result{}, fmt.Errorf("the server's answer is not a fire result: %w", err)
	}
	return res, nil
}

// roundTrip writes one request on conn and reads the answer.
func (r *Remote) roundTrip(conn net.Conn, event string, body []byte) (int, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, "http://"+r.host+"/v1/fire/"+url.PathEscape(event), bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Close = true
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	if err := req.Write(conn); err != nil {
		return 0, nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

// refusal is the error for a server's non-200 answer.
func refusal(status int, body []byte) error {
	msg := errorText(body)
	switch status {
	case http.StatusNotFound:
		return fmt.Errorf("%w: the server says: %s", host.ErrUnknownEvent, msg)
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		return fmt.Errorf("%w: the server says: %s", host.ErrBadPayload, msg)
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
