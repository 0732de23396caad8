package adapter

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJudgePeer(t *testing.T) {
	for _, tc := range []struct {
		name string
		peer peerCred
		self int
		want string // "" accepts; else a part of the error
	}{
		{"the same user", peerCred{UID: 1000, PID: 7}, 1000, ""},
		{"root serving a user", peerCred{UID: 0, PID: 1}, 1000, ""},
		{"root serving root", peerCred{UID: 0}, 0, ""},
		{"another user", peerCred{UID: 1001, PID: 4242}, 1000, "served by uid 1001"},
		{"another user, pid named", peerCred{UID: 1001, PID: 4242}, 1000, ", pid 4242, not by this user (uid 1000"},
		{"a user serving root", peerCred{UID: 65534}, 0, "not by this user (uid 0) or root; nothing was sent"},
	} {
		err := judgePeer("/run/s.sock", tc.peer, tc.self)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tc.name, err)
		case tc.want == "":
		case err == nil || !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		case !errors.Is(err, ErrAuth) || !errors.Is(err, ErrImpostor) || errors.Is(err, ErrUnavailable):
			t.Errorf("%s: %v is not an impostor's *AuthError", tc.name, err)
		}
	}
}

// TestUnixPeer asks who serves a socket this process listens on: this
// process's user, which checkPeer accepts, and another uid's, which it
// refuses.
func TestUnixPeer(t *testing.T) {
	sock := filepath.Join(shortTempDir(t), "s.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	conn, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	p, err := unixPeer(conn, sock)
	if err != nil || p.UID != uint32(os.Getuid()) {
		t.Fatalf("unixPeer = %+v, %v; want uid %d", p, err, os.Getuid())
	}
	if err := checkPeer(conn, sock, os.Getuid()); err != nil {
		t.Errorf("checkPeer, this user: %v", err)
	}
	other := os.Getuid() + 1
	if err := checkPeer(conn, sock, other); (err == nil) != (p.UID == 0) {
		t.Errorf("checkPeer as uid %d of a socket uid %d serves: %v", other, p.UID, err)
	}
}
