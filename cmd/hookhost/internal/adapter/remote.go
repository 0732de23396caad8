package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// ErrUnavailable is returned when no server answers at an address: the
// caller may fall back to loading the hooks itself.
var ErrUnavailable = errors.New("no hookhost server answers")

// ConnectTimeout bounds connecting to a server: one that does not accept
// within it counts as unavailable.
const ConnectTimeout = 200 * time.Millisecond

// Remote fires through a running "hookhost serve": POST /v1/fire/{event}
// with the payload, answered with the fire --json object.
type Remote struct {
	base   string
	token  string
	client *http.Client
}

var _ Firer = (*Remote)(nil)

// NewRemote is a client of the server at addr: http://HOST:PORT, or
// unix:/path/to.sock. token, when set, is sent as a bearer token.
func NewRemote(addr, token string) (*Remote, error) {
	dialer := &net.Dialer{Timeout: ConnectTimeout}
	tr := &http.Transport{DialContext: dialer.DialContext, DisableCompression: true, MaxIdleConns: 1}
	r := &Remote{token: token, client: &http.Client{Transport: tr}}
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		if path == "" {
			return nil, fmt.Errorf("--server %q: want unix:/path/to.sock", addr)
		}
		tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, "unix", path)
		}
		r.base = "http://localhost"
		return r, nil
	}
	u, err := url.Parse(addr)
	if err != nil || u.Scheme != "http" || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("--server %q: want http://HOST:PORT, unix:/path/to.sock or auto", addr)
	}
	r.base = "http://" + u.Host
	return r, nil
}

// Fire implements Firer. A server that cannot be reached is
// ErrUnavailable; its refusals (unknown event, bad payload) wrap the
// host's errors.
func (r *Remote) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	var body bytes.Buffer
	if err := wire.WriteJSONLine(&body, payload); err != nil {
		return host.Result{}, fmt.Errorf("%w: %w", host.ErrBadPayload, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.base+"/v1/fire/"+url.PathEscape(event), &body)
	if err != nil {
		return host.Result{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return host.Result{}, fmt.Errorf("%w at %s: %w", ErrUnavailable, r.base, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return host.Result{}, fmt.Errorf("reading the server's answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return host.Result{}, refusal(resp.StatusCode, data)
	}
	var res host.Result
	if err := json.Unmarshal(data, &res); err != nil {
		return host.Result{}, fmt.Errorf("the server's answer is not a fire result: %w", err)
	}
	return res, nil
}

// refusal is the error for a server's non-200 answer.
func refusal(status int, body []byte) error {
	var e struct {
		Error string `json:"error"`
	}
	msg := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		msg = e.Error
	}
	switch status {
	case http.StatusNotFound:
		return fmt.Errorf("%w: the server says: %s", host.ErrUnknownEvent, msg)
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		return fmt.Errorf("%w: the server says: %s", host.ErrBadPayload, msg)
	}
	return fmt.Errorf("the server answered %d: %s", status, msg)
}

// Close implements Firer.
func (r *Remote) Close() error {
	r.client.CloseIdleConnections()
	return nil
}
