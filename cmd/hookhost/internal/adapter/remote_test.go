package adapter

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/host"
)

func TestNewRemote(t *testing.T) {
	for _, tc := range []struct{ addr, network, address, host, err string }{
		{"http://127.0.0.1:7878", "tcp", "127.0.0.1:7878", "127.0.0.1:7878", ""},
		{"http://localhost", "tcp", "localhost:80", "localhost", ""},
		{"http://[::1]:9/", "tcp", "[::1]:9", "[::1]:9", ""},
		{"unix:/run/user/1/hookhost/s.sock", "unix", "/run/user/1/hookhost/s.sock", "localhost", ""},
		{"unix:", "", "", "", "want unix:/path"},
		{"https://x:1", "", "", "", "want http://HOST:PORT"},
		{"http://x:1/v1", "", "", "", "want http://HOST:PORT"},
		{"127.0.0.1:7878", "", "", "", "want http://HOST:PORT"},
	} {
		r, err := NewRemote(tc.addr, "")
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("NewRemote(%q): %v, want %q", tc.addr, err, tc.err)
			}
		case err != nil:
			t.Errorf("NewRemote(%q): %v", tc.addr, err)
		case r.network != tc.network || r.address != tc.address || r.host != tc.host:
			t.Errorf("NewRemote(%q) = %s %s %s", tc.addr, r.network, r.address, r.host)
		}
	}
}

// TestRemoteFire runs the client against a server on a Unix socket that
// answers as serve does.
func TestRemoteFire(t *testing.T) {
	sock := filepath.Join(shortTempDir(t), "s.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.Header.Get("Content-Type") != "application/json" || r.Host != "localhost":
			w.WriteHeader(http.StatusUnsupportedMediaType)
		case r.Header.Get("Authorization") != "Bearer sesame":
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":"unauthorized"}`)
		case r.URL.Path == "/v1/fire/nope":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"unknown event \"nope\""}`)
		case r.URL.Path == "/v1/fire/busy.event":
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"error":"busy: every fire slot is taken"}`)
		case r.URL.Path == "/v1/fire/tool.execute.pre" && string(body) == `{"n":1}`+"\n":
			io.WriteString(w, `{"event":"tool.execute.pre","decision":{"action":"deny","reason":"no","hook":"a.lua:g"},`+
				`"payload":{"n":1},"messages":[],"trace":[],"problems":["b.lua:1: bad"]}`)
		default:
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"payload: want an object"}`)
		}
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	r, _ := NewRemote("unix:"+sock, "sesame")
	res, err := r.Fire(context.Background(), "tool.execute.pre", map[string]any{"n": int64(1)})
	if err != nil || res.Decision.Action != host.Deny || res.Payload["n"] != int64(1) || len(res.Problems) != 1 {
		t.Errorf("Fire = %+v, %v", res, err)
	}
	if _, err := r.Fire(context.Background(), "busy.event", nil); !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrBusy) {
		t.Errorf("a busy server: %v, want ErrUnavailable (the hooks here decide instead)", err)
	}
	started := false
	starting := Starting{Firer: r, Start: func(context.Context) error { started = true; return nil }}
	if _, err := starting.Fire(context.Background(), "busy.event", nil); !errors.Is(err, ErrBusy) || started {
		t.Errorf("Starting, a busy server: %v, started %v; want ErrBusy and no start (it runs)", err, started)
	}
	if _, err := r.Fire(context.Background(), "nope", nil); !errors.Is(err, host.ErrUnknownEvent) {
		t.Errorf("unknown event: %v", err)
	}
	if _, err := r.Fire(context.Background(), "tool.execute.pre", map[string]any{"x": "y"}); !errors.Is(err, host.ErrBadPayload) {
		t.Errorf("bad payload: %v", err)
	}
	noToken, _ := NewRemote("unix:"+sock, "")
	_, err = noToken.Fire(context.Background(), "tool.execute.pre", nil)
	if ae, ok := errors.AsType[*AuthError](err); !ok || ae.Server != sock || !errors.Is(err, ErrAuth) ||
		!errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrUnavailable) || !strings.HasSuffix(err.Error(), "(401): unauthorized") {
		t.Errorf("without the token: %v, want an *AuthError for the 401", err)
	}
	_, err = OwnServer{noToken}.Fire(context.Background(), "tool.execute.pre", nil)
	if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrAuth) {
		t.Errorf("the auto server refusing: %v, want ErrUnavailable (the caller falls back)", err)
	}
	down, _ := NewRemote("unix:"+filepath.Join(shortTempDir(t), "none.sock"), "")
	if _, err := down.Fire(context.Background(), "tool.execute.pre", nil); !errors.Is(err, ErrUnavailable) {
		t.Errorf("no server: %v, want ErrUnavailable", err)
	}
}

func TestPrivateDir(t *testing.T) {
	base := shortTempDir(t)
	ok := filepath.Join(base, "ok")
	if err := privateDir(ok); err != nil {
		t.Fatalf("a new directory: %v", err)
	}
	if st, _ := os.Stat(ok); st.Mode().Perm() != 0o700 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	if err := privateDir(ok); err != nil {
		t.Errorf("the same directory again: %v", err)
	}
	open := filepath.Join(base, "open")
	os.Mkdir(open, 0o755)
	os.Chmod(open, 0o755)
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o600)
	link := filepath.Join(base, "link")
	os.Symlink(ok, link)
	for _, dir := range []string{open, file, link} {
		if err := privateDir(dir); err == nil {
			t.Errorf("privateDir(%s) accepted it", filepath.Base(dir))
		}
	}
}

func TestAutoSocket(t *testing.T) {
	rt := shortTempDir(t)
	t.Setenv("XDG_RUNTIME_DIR", rt)
	a, err := AutoSocket("/p/hooks.d", "")
	if err != nil || filepath.Dir(a) != filepath.Join(rt, "hookhost") {
		t.Fatalf("AutoSocket = %s, %v", a, err)
	}
	b, _ := AutoSocket("/p/hooks.d", "/p/hookhost.yaml")
	c, _ := AutoSocket("/q/hooks.d", "")
	if a == b || a == c {
		t.Errorf("one socket for different directories or configs: %s %s %s", a, b, c)
	}
	if again, _ := AutoSocket("/p/hooks.d", ""); again != a {
		t.Errorf("not stable: %s, %s", a, again)
	}
}

// shortTempDir is a temporary directory with a short path: a socket's
// path has at most 108 bytes.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o700)
	return dir
}

// TestRemoteHangingServer: a server that accepts and never answers is
// ErrUnavailable and ErrNoAnswer once the request's Timeout passes; a
// Starting around it does not start another server, and a Fallback
// around that loads the hooks itself.
func TestRemoteHangingServer(t *testing.T) {
	sock := filepath.Join(shortTempDir(t), "hang.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				go io.Copy(io.Discard, conn)
				<-done
			}()
		}
	}()
	r, _ := NewRemote("unix:"+sock, "")
	r.Timeout = 50 * time.Millisecond
	_, err = r.Fire(context.Background(), "tool.execute.pre", map[string]any{"n": int64(1)})
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrNoAnswer) || !strings.Contains(err.Error(), "within 50ms") {
		t.Fatalf("hanging server: %v, want ErrUnavailable and ErrNoAnswer", err)
	}

	started := false
	starting := Starting{Firer: r, Start: func(context.Context) error { started = true; return nil }}
	if _, err := starting.Fire(context.Background(), "tool.execute.pre", nil); !errors.Is(err, ErrNoAnswer) || started {
		t.Errorf("Starting: %v, started %v; want ErrNoAnswer and no start", err, started)
	}
	var note strings.Builder
	fb := &Fallback{Primary: starting, Log: &note, Local: func(context.Context) (Firer, error) {
		return fixedFirer{host.Result{Decision: host.Decision{Action: host.Deny}}}, nil
	}}
	res, err := fb.Fire(context.Background(), "tool.execute.pre", nil)
	if err != nil || res.Decision.Action != host.Deny || !strings.Contains(note.String(), "loading the hooks in this process") {
		t.Errorf("Fallback: %+v, %v, note %q; want the local answer and a note", res, err, note.String())
	}
}

// fixedFirer answers every fire with its result.
type fixedFirer struct{ res host.Result }

func (f fixedFirer) Fire(context.Context, string, map[string]any) (host.Result, error) {
	return f.res, nil
}
func (f fixedFirer) Close() error { return nil }
