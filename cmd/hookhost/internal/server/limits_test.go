package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitLimit bounds how long a test waits for something the server must
// do; past it the test fails rather than hang.
const waitLimit = 30 * time.Second

// startServer serves opts on a loopback port and returns the server and
// its address.
func startServer(t *testing.T, opts Options) (*Server, string) {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return srv, ln.Addr().String()
}

// sendHead opens a connection and sends a fire's headers declaring a
// body of declared bytes, then the first bytes of the body.
func sendHead(t *testing.T, addr string, declared int, first string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST /v1/fire/allow.me HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		declared, first)
	return c
}

// waitFor polls cond until it holds, failing the test after waitLimit.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, waitLimit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A client that declares a large body and sends a little holds a buffer
// the size of what it sent, not of what it declared.
func TestBodyGrowsWithWhatArrives(t *testing.T) {
	srv, addr := startServer(t, Options{Backend: &fakeBackend{}})
	const conns = 20
	for range conns {
		sendHead(t, addr, 8<<20, `{"tool_name":"bash","params":{"command":"`+strings.Repeat("x", 60)+`"}`)
	}
	// Each connection holds the first chunk once its handler runs.
	waitFor(t, "every connection's first chunk", func() bool { return srv.memory.used.Load() == conns*bodyChunk })
	code, _, _ := request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, body: `{}`}.do(t, "http://"+addr)
	if code != 200 {
		t.Errorf("a fire beside the idle connections: %d", code)
	}
}

// A body that does not arrive within the request timeout is cut: the
// client gets 408 (or, when its answer could not be written, a closed
// connection), and its memory is given back.
func TestBodyDeadline(t *testing.T) {
	srv, addr := startServer(t, Options{Backend: &fakeBackend{}, RequestTimeout: 100 * time.Millisecond})
	c := sendHead(t, addr, 1000, `{"a":`)
	c.SetReadDeadline(time.Now().Add(waitLimit))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err == nil {
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), "did not arrive within the request timeout") {
			t.Errorf("answer %d %s, want 408", resp.StatusCode, body)
		}
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection was not cut within %v", waitLimit)
	}
	waitFor(t, "the body's memory given back", func() bool { return srv.memory.used.Load() == 0 })
}

// Headers that trickle in are cut at the request timeout too.
func TestHeaderDeadline(t *testing.T) {
	_, addr := startServer(t, Options{Backend: &fakeBackend{}, RequestTimeout: 100 * time.Millisecond})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /v1/fire/allow.me HTTP/1.1\r\nHost: 127")
	c.SetReadDeadline(time.Now().Add(waitLimit))
	if _, err := io.ReadAll(c); err != nil {
		t.Errorf("the connection was not closed: %v", err)
	}
}

// Over the fire slots and the queue, a fire is answered 503 with
// Retry-After; the fires admitted are answered once they run.
func TestFireCap(t *testing.T) {
	fb := &fakeBackend{started: make(chan struct{}), release: make(chan struct{})}
	srv, addr := startServer(t, Options{Backend: fb, MaxFires: 1, FireQueue: 1, RequestTimeout: time.Hour})
	base := "http://" + addr
	var wg sync.WaitGroup
	codes := make(chan int, 2)
	wg.Go(func() { codes <- postEmpty(t, base) })
	<-fb.started // the slot is taken
	wg.Go(func() { codes <- postEmpty(t, base) })
	waitFor(t, "the second fire queued", func() bool { return srv.fires.queued.Load() == 1 })
	code, hdr, body := request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, body: "{}"}.do(t, base)
	if code != http.StatusServiceUnavailable || hdr.Get("Retry-After") != "1" {
		t.Errorf("the third fire: %d (Retry-After %q) %s, want 503 with Retry-After: 1", code, hdr.Get("Retry-After"), body)
	}
	fb.release <- struct{}{}
	<-fb.started
	fb.release <- struct{}{}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != 200 {
			t.Errorf("an admitted fire answered %d", c)
		}
	}
}

// postEmpty fires allow.me with an empty payload and returns the status (-1
// when the request failed).
func postEmpty(t *testing.T, base string) int {
	resp, err := http.Post(base+"/v1/fire/allow.me", jsonCT, strings.NewReader("{}"))
	if err != nil {
		t.Error(err)
		return -1
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Without a queue, a fire over the slots is refused at once; a queued
// fire that waits past the request timeout is refused too.
func TestFireQueueBounds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		queue int
	}{{"no queue", -1}, {"a queue that does not move", 4}} {
		t.Run(tc.name, func(t *testing.T) {
			fb := &fakeBackend{started: make(chan struct{}), release: make(chan struct{})}
			// The request timeout bounds the queued fire's wait, and also
			// reading each request: long enough that a busy machine still
			// reads them, short enough that the wait is quick.
			_, addr := startServer(t, Options{Backend: fb, MaxFires: 1, FireQueue: tc.queue, RequestTimeout: 500 * time.Millisecond})
			base := "http://" + addr
			done := make(chan int, 1)
			go func() { done <- postEmpty(t, base) }()
			<-fb.started
			code, hdr, body := request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, body: "{}"}.do(t, base)
			if code != 503 || hdr.Get("Retry-After") == "" || !strings.Contains(body, "busy") {
				t.Errorf("fire over the cap: %d %q %s", code, hdr.Get("Retry-After"), body)
			}
			fb.release <- struct{}{}
			if code := <-done; code != 200 {
				t.Errorf("the admitted fire: %d", code)
			}
		})
	}
}

// The request memory bounds bodies and decoded payloads: a payload that
// would never fit is 413, one that does not fit while others hold the
// memory is 503.
func TestRequestMemory(t *testing.T) {
	fb := &fakeBackend{started: make(chan struct{}), release: make(chan struct{})}
	// A 12 KiB body takes some 48 KiB: its buffers as they grew (4, 8,
	// 12 KiB) and twice its size for decoding; two fit, not three.
	srv, addr := startServer(t, Options{Backend: fb, MaxBody: 16 << 10, RequestMemory: 128 << 10})
	base := "http://" + addr
	tiny := `{"a":[` + strings.Repeat(`{},`, 4<<10) + `{}]}`
	code, _, body := request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, body: tiny}.do(t, base)
	if code != 413 || !strings.Contains(body, "once decoded") {
		t.Errorf("a body of many tiny values: %d %s, want 413", code, body)
	}
	big := `{"a":"` + strings.Repeat("x", 12<<10) + `"}`
	done := make(chan int, 2)
	for range 2 {
		go func() {
			resp, err := http.Post(base+"/v1/fire/allow.me", jsonCT, strings.NewReader(big))
			if err != nil {
				done <- -1
				return
			}
			resp.Body.Close()
			done <- resp.StatusCode
		}()
		select {
		case <-fb.started:
		case code := <-done:
			t.Fatalf("a fire that fits the memory answered %d before it ran", code)
		}
	}
	code, hdr, body := request{method: "POST", path: "/v1/fire/allow.me", contentType: jsonCT, body: big}.do(t, base)
	if code != 503 || hdr.Get("Retry-After") == "" || !strings.Contains(body, "request memory") {
		t.Errorf("a fire while the memory is held: %d %s, want 503", code, body)
	}
	close(fb.release)
	for range 2 {
		if code := <-done; code != 200 {
			t.Errorf("a fire holding the memory: %d", code)
		}
	}
	waitFor(t, "the memory given back", func() bool { return srv.memory.used.Load() == 0 })
}

// Past MaxConns, a connection waits until one closes; it is then served.
func TestConnectionCap(t *testing.T) {
	_, addr := startServer(t, Options{Backend: &fakeBackend{}, MaxConns: 2})
	first := sendHead(t, addr, 100, "")
	sendHead(t, addr, 100, "")
	answered := make(chan error, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	first.Close()
	select {
	case err := <-answered:
		if err != nil {
			t.Errorf("the waiting connection: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatalf("the waiting connection was not served within %v of a slot freeing", waitLimit)
	}
}

func TestLimitListener(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newLimitListener(inner, 1)
	for range 2 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	a, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	a.Close()
	a.Close() // twice: one slot given back, not two
	b := <-accepted
	if b == nil || len(ln.slots) != 1 {
		t.Fatalf("after closing the first: accepted %v, %d slots taken", b, len(ln.slots))
	}
	b.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.Close()
		}
		accepted <- nil
	}()
	ln.Close()
	<-accepted // Close ends an Accept (waiting or not)
}

func TestStructuralTokens(t *testing.T) {
	for _, tc := range []struct {
		body string
		want int64
	}{
		{``, 1},
		{`{}`, 2},
		{`{"a":1}`, 3},
		{`{"a":[1,2,3]}`, 6},
		{`{"a":"{[:,]}"}`, 3},
		{`{"a":"x\"{,"}`, 3},
		{`{"a":"x\\","b":{}}`, 6},
		{`[{},{},{}]`, 7},
	} {
		if got := structuralTokens([]byte(tc.body)); got != tc.want {
			t.Errorf("structuralTokens(%s) = %d, want %d", tc.body, got, tc.want)
		}
	}
}

func TestNewRefusesABodyOverTheMemory(t *testing.T) {
	if _, err := New(Options{Backend: &fakeBackend{}, MaxBody: 2 << 20, RequestMemory: 1 << 20}); err == nil ||
		!strings.Contains(err.Error(), "could never be read") {
		t.Errorf("New with MaxBody over RequestMemory: %v", err)
	}
}
