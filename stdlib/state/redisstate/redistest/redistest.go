// Package redistest starts a real redis-server for tests: on a free
// loopback port and a unix socket in the test's temporary directory,
// without persistence, killed when the test ends. A test can stop it and
// start it again on the same port and socket, to see what a client does
// while Redis is down and after it comes back.
//
// When redis-server cannot be started the test is skipped, except in CI
// (CI=true), where it fails: a green CI must have run against Redis.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A Server is one redis-server a test started.
type Server struct {
	// Addr is its loopback address, host:port.
	Addr string
	// Socket is the path of its unix socket.
	Socket string

	t   testing.TB
	bin string
	dir string
	cmd *exec.Cmd
}

// URL is the server's redis:// URL with database db.
func (s *Server) URL(db int) string { return fmt.Sprintf("redis://%s/%d", s.Addr, db) }

// SocketURL is the server's unix:// URL.
func (s *Server) SocketURL() string { return "unix://" + s.Socket }

// Start starts a redis-server for t, stopped when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		unavailable(t, "redis-server is not installed (Debian: apt-get install redis-server)")
	}
	dir, err := os.MkdirTemp("", "redistest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	port, err := freePort()
	if err != nil {
		unavailable(t, fmt.Sprintf("no free loopback port: %v", err))
	}
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), Socket: filepath.Join(dir, "redis.sock"),
		t: t, bin: bin, dir: dir}
	if err := s.start(); err != nil {
		unavailable(t, err.Error())
	}
	t.Cleanup(s.Stop)
	return s
}

func unavailable(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("redis-server is needed in CI: %s", why)
	}
	t.Skipf("skipped: %s (in CI this fails)", why)
}

func (s *Server) start() error {
	_, port, _ := net.SplitHostPort(s.Addr)
	cmd := exec.Command(s.bin, "--port", port, "--bind", "127.0.0.1", "--unixsocket", s.Socket,
		"--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--dir", s.dir,
		"--protected-mode", "no", "--loglevel", "warning")
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting redis-server: %v", err)
	}
	s.cmd = cmd
	deadline := time.Now().Add(20 * time.Second)
	for {
		if err := ping(s.Addr); err == nil {
			return nil
		} else if time.Now().After(deadline) {
			s.Stop()
			return fmt.Errorf("redis-server on %s did not answer PING in 20s: %v", s.Addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the server at once, as a crash would.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
	os.Remove(s.Socket)
}

// Restart starts the server again on the same port and socket, empty.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	if err := s.start(); err != nil {
		s.t.Fatal(err)
	}
}

func ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "+PONG") {
		return fmt.Errorf("PING answered %q", strings.TrimSpace(line))
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
