package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/peerauth"
)

// UnixPrefix introduces a Unix socket path in a listen address.
const UnixPrefix = "unix:"

// Listen listens on addr: "host:port" for TCP, or "unix:/path" for a
// Unix socket, created with mode 0600. An existing socket file at the
// path is removed first when nothing answers on it (a server that did
// not clean up); a live one, or a file that is not a socket, is an
// error. Closing the listener removes the socket file.
func Listen(addr string) (net.Listener, error) {
	if path, ok := strings.CutPrefix(addr, UnixPrefix); ok {
		if path == "" {
			return nil, errors.New("unix: wants a socket path, as in unix:/run/user/1000/hookhost.sock")
		}
		return listenUnix(path)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	return ln, nil
}

// Local reports whether only this machine can reach a listener on addr
// (a Listen address): a Unix socket, or a TCP host that is localhost or
// resolves to loopback addresses only. An empty host or 0.0.0.0 means
// every interface: not local. It is asked before listening, so a refused
// address is never bound.
func Local(ctx context.Context, addr string) (bool, error) {
	if strings.HasPrefix(addr, UnixPrefix) {
		return true, nil
	}
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("listen address %q: %w", addr, err)
	}
	if strings.EqualFold(h, "localhost") {
		return true, nil
	}
	if ip, err := netip.ParseAddr(h); err == nil || h == "" {
		return err == nil && ip.Unmap().IsLoopback(), nil
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", h)
	if err != nil {
		return false, fmt.Errorf("listen address %q: %w", addr, err)
	}
	for _, ip := range ips {
		if !ip.Unmap().IsLoopback() {
			return false, nil
		}
	}
	return len(ips) > 0, nil
}

// door applies the local door's checks before next: on a loopback TCP
// listener the Host header must name a loopback host (421), and with a
// token every path but /healthz needs it (401): as a bearer token, or
// proven without being sent (package peerauth), in which case the
// answer is signed. A Unix socket needs no Host check (no browser
// reaches one), nor does a non-loopback listener (the token guards it,
// and its clients name it by its real host name).
func (s *Server) door(addr net.Addr, next http.Handler) http.Handler {
	tcp, _ := addr.(*net.TCPAddr)
	checkHost := tcp != nil && tcp.IP.IsLoopback()
	nonces := peerauth.NewNonces(0)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if checkHost && !loopbackHost(r.Host) {
			writeError(w, http.StatusMisdirectedRequest,
				"Host %q is not a loopback name or address: this server answers only requests addressed to localhost", r.Host)
			return
		}
		if peerauth.Present(r.Header) {
			s.proven(w, r, nonces, next)
			return
		}
		if s.tokenHash != nil && r.URL.Path != healthPath && !s.authorized(r) {
			unauthorized(w, "missing or wrong bearer token (want Authorization: Bearer <token>)")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// unauthorized answers 401.
func unauthorized(w http.ResponseWriter, format string, args ...any) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="hookhost"`)
	writeError(w, http.StatusUnauthorized, format, args...)
}

// proven serves a request that proves it holds the token rather than
// sending it (package peerauth): the proof is checked, and the nonce
// recorded, before anything else; the body is checked as the handler
// reads it; the answer is signed. A server without a token cannot sign,
// so it refuses: the client would refuse its answer anyway.
func (s *Server) proven(w http.ResponseWriter, r *http.Request, nonces *peerauth.Nonces, next http.Handler) {
	if s.tokenHash == nil {
		unauthorized(w, "this server has no token, so it cannot prove itself to a client that has one: "+
			"give serve the client's token (--token-file or $HOOKHOST_TOKEN), or the client none")
		return
	}
	key := peerauth.KeyFromDigest(*s.tokenHash)
	now := time.Now()
	req, err := key.VerifyRequest(r.Method, r.RequestURI, r.Header, now)
	if err == nil {
		err = nonces.Use(req, now)
	}
	signed := &signedWriter{ResponseWriter: w, answer: key.Answer(req), head: r.Method == http.MethodHead}
	defer signed.finish()
	switch {
	case errors.Is(err, peerauth.ErrBusy):
		signed.Header().Set("Retry-After", "1")
		writeError(signed, http.StatusServiceUnavailable, "%v", err)
	case err != nil:
		signed.unsigned = true
		unauthorized(w, "proof of the token: %v", err)
	default:
		r.Body = peerauth.Body(r.Body, req, r.ContentLength)
		next.ServeHTTP(signed, r)
	}
}

// A signedWriter holds an answer until it is complete, then signs it
// (the status and the body) and sends it. Unwrap gives
// http.ResponseController the connection's writer (for deadlines); a
// handler must not flush through it, which would send the answer before
// its proof.
type signedWriter struct {
	http.ResponseWriter
	answer   *peerauth.Answer
	status   int
	body     bytes.Buffer
	head     bool // HEAD: the client receives no body
	unsigned bool // answered already, unsigned (a failed proof)
}

// WriteHeader records the first status; nothing is sent until finish.
func (w *signedWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

// Write holds p for the signed body (an implicit 200, as net/http's).
func (w *signedWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// Unwrap gives http.ResponseController the connection's writer.
func (w *signedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish signs and sends the answer.
func (w *signedWriter) finish() {
	if w.unsigned {
		return
	}
	w.WriteHeader(http.StatusOK)
	if !w.head {
		w.answer.Write(w.body.Bytes())
	}
	h := w.Header()
	w.answer.Sign(h, w.status)
	h.Set("Content-Length", strconv.Itoa(w.body.Len()))
	w.ResponseWriter.WriteHeader(w.status)
	w.ResponseWriter.Write(w.body.Bytes()) // a write error means the client is gone
}

// authorized compares the request's bearer token with the server's in
// constant time (hashes of equal length, so not even the token's length
// leaks).
func (s *Server) authorized(r *http.Request) bool {
	auth := r.Header.Get("Authorization")
	const scheme = "bearer "
	if len(auth) < len(scheme) || !strings.EqualFold(auth[:len(scheme)], scheme) {
		return false
	}
	sum := sha256.Sum256([]byte(auth[len(scheme):]))
	return subtle.ConstantTimeCompare(sum[:], s.tokenHash[:]) == 1
}

// loopbackHost reports whether a Host header names this machine's
// loopback: localhost (or a name under .localhost, which browsers never
// resolve through DNS), or a loopback IP address, with or without a port.
func loopbackHost(hostport string) bool {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	return err == nil && ip.Unmap().IsLoopback()
}

// maxSocketPath is the longest path a Unix socket can be bound to
// (sockaddr_un's 108 bytes, less the terminating NUL).
const maxSocketPath = 107

// listenUnix creates the socket in a private directory next to path,
// makes it 0600 and only then links it at path, so it is never
// reachable with a wider mode.
func listenUnix(path string) (net.Listener, error) {
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("listening on %s: the path is %d bytes, too long for a Unix socket (at most %d)",
			path, len(path), maxSocketPath)
	}
	if err := removeStale(path); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(filepath.Dir(path), ".hh")
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", path, err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	if len(tmp) > maxSocketPath {
		return nil, fmt.Errorf("listening on %s: the directory's path is too long for a Unix socket created in it", path)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(false)
	if err := publishSocket(tmp, path); err != nil {
		ln.Close()
		return nil, err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("listening on %s: %w", path, err)
	}
	return &unixListener{UnixListener: ln, path: path, file: fi}, nil
}

// publishSocket makes the socket at tmp 0600 and links it at path,
// failing if something appeared at path meanwhile.
func publishSocket(tmp, path string) error {
	if err := os.Chmod(tmp, 0o600); err != nil {
		return fmt.Errorf("listening on %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil {
		return fmt.Errorf("listening on %s: %w", path, err)
	}
	return nil
}

// removeStale removes a socket file nobody answers on.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listening on %s: %w", path, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("listening on %s: the file exists and is not a socket; not replacing it", path)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("listening on %s: another server is answering on it", path)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("listening on %s: removing the stale socket: %w", path, err)
	}
	return nil
}

// A unixListener removes its socket file when closed, unless another
// file has replaced it.
type unixListener struct {
	*net.UnixListener
	path string
	file fs.FileInfo
}

// Addr is the socket's published path, not the temporary name it was
// bound at before being moved into place.
func (l *unixListener) Addr() net.Addr { return &net.UnixAddr{Name: l.path, Net: "unix"} }

// Close stops listening and removes the socket file if it is still ours.
func (l *unixListener) Close() error {
	err := l.UnixListener.Close()
	if fi, statErr := os.Lstat(l.path); statErr == nil && os.SameFile(fi, l.file) {
		os.Remove(l.path)
	}
	return err
}
