package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A served is a hookhost serve process that the test started: the test
// binary itself, which runs main when called as hookhost (TestMain).
type served struct {
	t      *testing.T
	cmd    *exec.Cmd
	base   string // http://host:port, or http://hookhost for a socket
	client *http.Client
	log    *logLines
	exited chan struct{}
	err    error // the process's exit, once exited is closed
}

// startupLimit bounds how long a test waits for something the server
// must do (start, reload, exit); past it the test fails rather than hang.
const startupLimit = 30 * time.Second

var listeningLine = regexp.MustCompile(`listening on ((?:http://|unix:)[^"\s]+)`)

// startServe starts hookhost serve with args (after "serve") and waits
// until it says where it listens. Unless args name --http, it listens on
// a free loopback port. It is killed when the test ends, if still running.
func startServe(t *testing.T, env []string, args ...string) *served {
	t.Helper()
	return startServeWith(t, []string{"hookhost"}, nil, env, args...)
}

// startServeWith is startServe running argv (a hookhost binary, or a
// command that runs one, such as prlimit) with "serve" and args, and
// with attr.
func startServeWith(t *testing.T, argv []string, attr *syscall.SysProcAttr, env []string, args ...string) *served {
	t.Helper()
	if !containsFlag(args, "--http") {
		args = append(args, "--http", "127.0.0.1:0")
	}
	cmd := exec.Command(argv[0], append(append(argv[1:len(argv):len(argv)], "serve"), args...)...)
	cmd.SysProcAttr = attr
	cmd.Env = append(os.Environ(), "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	cmd.Env = append(cmd.Env, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{t: t, cmd: cmd, log: &logLines{}, exited: make(chan struct{})}
	where := make(chan string, 1)
	go s.readLog(stderr, where)
	t.Cleanup(s.kill)
	select {
	case w := <-where:
		s.connect(w)
	case <-s.exited:
		t.Fatalf("hookhost serve exited (%v) before listening:\n%s", s.err, s.log)
	case <-time.After(startupLimit):
		t.Fatalf("hookhost serve did not start listening:\n%s", s.log)
	}
	return s
}

// readLog keeps stderr and reports the listening address.
func (s *served) readLog(r io.Reader, where chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	found := false
	for sc.Scan() {
		line := sc.Text()
		s.log.add(line)
		if m := listeningLine.FindStringSubmatch(line); m != nil && !found {
			found = true
			where <- m[1]
		}
	}
	s.err = s.cmd.Wait()
	close(s.exited)
}

func (s *served) connect(where string) {
	if path, ok := strings.CutPrefix(where, "unix:"); ok {
		s.base = "http://hookhost"
		s.client = &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", path)
		}}}
		return
	}
	s.base = where
	s.client = &http.Client{}
}

func (s *served) kill() {
	select {
	case <-s.exited:
	default:
		s.cmd.Process.Kill()
		<-s.exited
	}
}

// signal sends sig to the server.
func (s *served) signal(sig os.Signal) {
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatal(err)
	}
}

// wait waits for the server to exit and returns its exit code.
func (s *served) wait() int {
	s.t.Helper()
	select {
	case <-s.exited:
	case <-time.After(startupLimit):
		s.t.Fatalf("hookhost serve did not exit:\n%s", s.log)
	}
	var ee *exec.ExitError
	if errors.As(s.err, &ee) {
		return ee.ExitCode()
	}
	if s.err != nil {
		s.t.Fatal(s.err)
	}
	return 0
}

// stop sends SIGTERM and checks a clean exit.
func (s *served) stop() {
	s.t.Helper()
	s.signal(syscall.SIGTERM)
	if code := s.wait(); code != 0 {
		s.t.Errorf("hookhost serve exited %d after SIGTERM:\n%s", code, s.log)
	}
}

// waitLog waits until the log has a line containing text.
func (s *served) waitLog(text string) {
	s.t.Helper()
	deadline := time.Now().Add(startupLimit)
	for !strings.Contains(s.log.String(), text) {
		if time.Now().After(deadline) {
			s.t.Fatalf("no %q in the log:\n%s", text, s.log)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// call sends a request and returns the status and body.
func (s *served) call(method, path, contentType, body string, header ...string) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := s.client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp.StatusCode, string(data)
}

func (s *served) fire(event, payload string) (int, string) {
	s.t.Helper()
	return s.call("POST", "/v1/fire/"+event, "application/json", payload)
}

// fireInBackground sends a fire from its own goroutine and ignores how it
// ends: for a fire that keeps a hook busy while the test signals or kills
// serve (t.Fatal may not be called from that goroutine).
func (s *served) fireInBackground(event, payload string) {
	go func() {
		req, _ := http.NewRequest("POST", s.base+"/v1/fire/"+event, strings.NewReader(payload))
		req.Header.Set("Content-Type", "application/json")
		if resp, err := s.client.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
}

func (s *served) get(path string) (int, string) {
	s.t.Helper()
	return s.call("GET", path, "", "")
}

func containsFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}

// logLines collects log lines from one goroutine for others to read.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (b *logLines) add(line string) {
	b.mu.Lock()
	b.lines = append(b.lines, line)
	b.mu.Unlock()
}

func (b *logLines) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.lines, "\n")
}

func (b *logLines) Lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.lines...)
}

// writeFiles writes name → content into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
