package server

import (
	"context"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoopbackHost(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"localhost", true},
		{"localhost:7878", true},
		{"LocalHost.:7878", true},
		{"api.localhost:80", true},
		{"127.0.0.1", true},
		{"127.0.0.1:7878", true},
		{"127.9.9.9:1", true},
		{"[::1]:7878", true},
		{"[::1]", true},
		{"::1", true},
		{"[::ffff:127.0.0.1]:80", true},
		{"", false},
		{"evil.example", false},
		{"localhost.evil.example:7878", false},
		{"evillocalhost:80", false},
		{"10.0.0.1:7878", false},
		{"0.0.0.0:7878", false},
		{"[::]:7878", false},
	} {
		if got := loopbackHost(tc.host); got != tc.want {
			t.Errorf("loopbackHost(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

func TestLocal(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:7878", true},
		{"localhost:0", true},
		{"[::1]:7878", true},
		{"unix:/tmp/x.sock", true},
		{":7878", false},
		{"0.0.0.0:7878", false},
		{"[::]:7878", false},
		{"192.0.2.1:7878", false},
	} {
		got, err := Local(context.Background(), tc.addr)
		if err != nil || got != tc.want {
			t.Errorf("Local(%q) = %v, %v; want %v", tc.addr, got, err, tc.want)
		}
	}
	if _, err := Local(context.Background(), "no-port"); err == nil {
		t.Errorf("Local(no-port) = nil error")
	}
}

func unixClient(path string) *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", path)
	}}}
}

func TestUnixSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hh.sock")
	ln, err := Listen(UnixPrefix + path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != fs.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want a socket with 0600", fi.Mode())
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("the socket's directory holds %d entries, want just the socket", len(entries))
	}
	startOn(t, Options{Backend: &fakeBackend{}}, ln)
	// No Host check on a socket: no browser reaches it.
	resp, err := unixClient(path).Get("http://any.name.at.all/v1/hooks")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"id":"a.lua:x"`) {
		t.Errorf("GET /v1/hooks over the socket: %d %q", resp.StatusCode, body)
	}
	if _, err := Listen(UnixPrefix + path); err == nil || !strings.Contains(err.Error(), "another server is answering") {
		t.Errorf("a second Listen on a live socket: %v", err)
	}
}

func TestUnixSocketRemovedOnClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hh.sock")
	ln, err := Listen(UnixPrefix + path)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("the socket file is still there after Close: %v", err)
	}
}

func TestUnixStaleSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hh.sock")
	stale, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	stale.SetUnlinkOnClose(false)
	stale.Close() // the file stays; nothing answers on it
	ln, err := Listen(UnixPrefix + path)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	ln.Close()
}

func TestUnixRefusesAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(UnixPrefix + path); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Listen on a regular file: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "keep me" {
		t.Errorf("the file was changed: %q", data)
	}
	long := filepath.Join(t.TempDir(), strings.Repeat("x", 100)+".sock")
	if _, err := Listen(UnixPrefix + long); err == nil || !strings.Contains(err.Error(), "too long for a Unix socket") {
		t.Errorf("Listen on a %d-byte path: %v", len(long), err)
	}
	if _, err := Listen(UnixPrefix); err == nil {
		t.Errorf("Listen(unix:) = nil error")
	}
}
