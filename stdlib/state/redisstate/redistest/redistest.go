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
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
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
	// TLSAddr is its TLS address, host:port, when StartTLS started it.
	TLSAddr string
	// CAFile is the PEM file of the certificate TLSAddr presents (its own
	// CA), for clients to trust; empty without TLS.
	CAFile string

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
func Start(t testing.TB) *Server { return start(t, false) }

// StartTLS is Start with a TLS port too (TLSAddr), presenting a
// certificate for 127.0.0.1 made for the test (CAFile).
func StartTLS(t testing.TB) *Server { return start(t, true) }

func start(t testing.TB, withTLS bool) *Server {
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
	if withTLS {
		tlsPort, err := freePort()
		if err != nil {
			unavailable(t, fmt.Sprintf("no free loopback port: %v", err))
		}
		s.TLSAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(tlsPort))
		if err := writeCertificate(dir); err != nil {
			t.Fatal(err)
		}
		s.CAFile = filepath.Join(dir, "cert.pem")
	}
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
	args := []string{"--port", port, "--bind", "127.0.0.1", "--unixsocket", s.Socket,
		"--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--dir", s.dir,
		"--protected-mode", "no", "--loglevel", "warning"}
	if s.TLSAddr != "" {
		_, tlsPort, _ := net.SplitHostPort(s.TLSAddr)
		args = append(args, "--tls-port", tlsPort, "--tls-cert-file", s.CAFile,
			"--tls-key-file", filepath.Join(s.dir, "key.pem"), "--tls-ca-cert-file", s.CAFile, "--tls-auth-clients", "no")
	}
	cmd := exec.Command(s.bin, args...)
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

// writeCertificate writes a self-signed certificate for 127.0.0.1 and its
// key into dir, as cert.pem and key.pem.
func writeCertificate(dir string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "redistest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
}
