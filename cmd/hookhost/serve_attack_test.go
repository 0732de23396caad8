package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The attacks on serve's door, each against the built binary with the
// shipped hooks.d under an address space of attackAS (prlimit), over
// loopback: a client holds connections that declare large bodies and
// send little, trickles bodies a byte a second, or floods fires past the
// cap. During and after each, serve must stay alive, "rm -rf /" must be
// denied and no hook quarantined; the test logs serve's peak memory.

// attackAS is serve's address space. Serve itself reserves some 1.3 GiB
// of it at rest (the runtime's and the interpreters' reservations, which
// cost no memory); what the attacks asked for before serve bounded its
// clients (160 connections × 8 MiB bodies) did not fit beside that.
const attackAS = 2 << 30

// attackLimit bounds each attack's wait for what serve must do.
const attackLimit = 90 * time.Second

// rmRootFire is the fire every attack checks: the shipped destructive guard
// denies it.
const rmRootFire = `{"tool_name":"Bash","params":{"command":"rm -rf /"}}`

// startAttacked starts the built hookhost serve with the shipped hooks.d
// and args, under attackAS.
func startAttacked(t *testing.T, bin string, args ...string) *served {
	t.Helper()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("the attack tests cap serve with prlimit, which is missing: %v", err)
	}
	argv := []string{prlimit, "--as=" + strconv.Itoa(attackAS), bin}
	return startServeWith(t, argv, nil, nil, append([]string{"--dir", filepath.Join("..", "..", "hooks.d")}, args...)...)
}

// checkGuarded fails the test unless serve is alive, denies rm -rf /,
// and has no hook quarantined.
func (s *served) checkGuarded(when string) {
	s.t.Helper()
	select {
	case <-s.exited:
		s.t.Fatalf("%s: serve exited (%v):\n%s", when, s.err, tailOf([]byte(s.log.String())))
	default:
	}
	if code, got := s.fire("tool.execute.pre", rmRootFire); code != 200 || !strings.Contains(got, `"action":"deny"`) {
		s.t.Errorf("%s: rm -rf / answered %d %s, want a deny", when, code, got)
	}
	if q := s.quarantined(); len(q) != 0 {
		s.t.Errorf("%s: quarantined %v", when, q)
	}
	if code, got := s.get("/healthz"); code != 200 {
		s.t.Errorf("%s: GET /healthz: %d %s", when, code, got)
	}
}

// peakRSS is serve's peak resident memory so far (VmHWM), in bytes.
func (s *served) peakRSS() int64 {
	s.t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		s.t.Fatalf("reading serve's memory: %v", err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				s.t.Fatalf("VmHWM %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	s.t.Fatalf("no VmHWM in /proc/%d/status", s.cmd.Process.Pid)
	return 0
}

// gauge reads a gauge of serve's /metrics.
func (s *served) gauge(name string) int64 {
	s.t.Helper()
	code, text := s.get("/metrics")
	if code != 200 {
		s.t.Fatalf("GET /metrics: %d", code)
	}
	for line := range strings.Lines(text) {
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				s.t.Fatalf("%s: %v", line, err)
			}
			return int64(v)
		}
	}
	s.t.Fatalf("no %s in /metrics", name)
	return 0
}

// checkMemory fails the test when serve's heap or the memory it took
// from the system (which only grows, so it shows the peak) passes
// maxFootprint, and logs them with its peak RSS.
func (s *served) checkMemory(when string) {
	s.t.Helper()
	heap, sys, rss := s.gauge("go_memstats_heap_alloc_bytes"), s.gauge("go_memstats_sys_bytes"), s.peakRSS()
	s.t.Logf("%s: heap %d MiB, taken from the system %d MiB, peak RSS %d MiB", when, heap>>20, sys>>20, rss>>20)
	if heap > maxFootprint || sys > maxFootprint || rss > maxFootprint {
		s.t.Errorf("%s: heap %d MiB, system %d MiB, peak RSS %d MiB; want each under %d MiB",
			when, heap>>20, sys>>20, rss>>20, maxFootprint>>20)
	}
}

// addr is serve's host:port.
func (s *served) addr() string { return strings.TrimPrefix(s.base, "http://") }

// declareBody opens a connection and sends a fire's headers declaring a
// body of declared bytes, then first.
func declareBody(addr string, declared int, first string) (net.Conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	_, err = fmt.Fprintf(c, "POST /v1/fire/tool.execute.pre HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Content-Length: %d\r\n\r\n%s", declared, first)
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// maxFootprint is what serve may reach under any of the attacks: its own
// working memory (the runtime, the shipped hooks' interpreters) plus the
// request memory (64 MiB by default), far under the 8 MiB a connection
// the attacks declare.
const maxFootprint = 256 << 20

// 160 connections each declare an 8 MiB body and send about 110 bytes of
// it, and stay. Serve holds what they sent, not what they declared: a
// guard still denies beside them, nothing is quarantined, and serve's
// memory stays small.
func TestServeAttackIdleBodies(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	bin := builtHookhost(t)
	s := startAttacked(t, bin)
	const conns = 160
	first := `{"tool_name":"Bash","params":{"command":"` + strings.Repeat("x", 60) + `"},"pad":"`
	var open []net.Conn
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	for range conns {
		c, err := declareBody(s.addr(), 8<<20, first)
		if err != nil {
			t.Fatalf("connection %d: %v", len(open), err)
		}
		open = append(open, c)
	}
	s.checkGuarded("beside 160 idle 8 MiB bodies")
	s.checkMemory("beside 160 idle 8 MiB bodies")
	for _, c := range open {
		c.Close()
	}
	open = nil
	s.checkGuarded("after the idle bodies")
	s.stop()
}

// 320 connections, more than serve accepts at once, each declare a body
// and trickle it a byte a second. Each is cut at the request timeout (2 s
// here): all of them end, each answered 408 or closed, while serve stays
// alive and guarded.
func TestServeAttackTrickle(t *testing.T) {
	t.Parallel() // its own serve; it mostly waits for the request timeout
	bin := builtHookhost(t)
	s := startAttacked(t, bin, "--request-timeout", "2s")
	const conns = 320
	ctx, cancel := context.WithTimeout(context.Background(), attackLimit)
	defer cancel()
	var wg sync.WaitGroup
	cut := make(chan string, conns)
	for i := range conns {
		c, err := declareBody(s.addr(), 8<<20, `{"a":"`)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		wg.Go(func() { cut <- trickle(ctx, c) })
	}
	wg.Wait()
	close(cut)
	answers := map[string]int{}
	for how := range cut {
		answers[how]++
	}
	t.Logf("how the %d trickling connections ended: %v", conns, answers)
	if answers["still open"] > 0 {
		t.Errorf("%d of %d trickling connections were still open after %v", answers["still open"], conns, attackLimit)
	}
	s.checkMemory("after 320 trickling connections")
	s.checkGuarded("after the trickle")
	s.stop()
}

// trickle sends c a byte a second until serve ends the connection or ctx
// does, and says how it ended: "408" (answered, then closed), "closed"
// (closed without an answer), or "still open".
func trickle(ctx context.Context, c net.Conn) string {
	defer c.Close()
	ended := make(chan string, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			ended <- "closed"
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		ended <- strconv.Itoa(resp.StatusCode)
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case how := <-ended:
			return how
		case <-ctx.Done():
			return "still open"
		case <-tick.C:
			c.Write([]byte("x")) // an error: serve closed it, and the reader says so
		}
	}
}

// 200 fires of a long shell line ending in rm -rf / at once, over 2
// fire slots and a queue of 8: some are refused 503 with Retry-After,
// every other one is answered deny, none hangs, and nothing is
// quarantined.
func TestServeAttackFireFlood(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	bin := builtHookhost(t)
	s := startAttacked(t, bin, "--max-fires", "2", "--fire-queue", "8")
	const fires = 200
	payload := `{"tool_name":"Bash","params":{"command":"` + strings.Repeat("echo hello && ", 300) + `rm -rf /"}}`
	client := &http.Client{Timeout: attackLimit, Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: fires}}
	type answer struct {
		code       int
		retryAfter string
		body       string
		err        error
	}
	answers := make(chan answer, fires)
	var wg sync.WaitGroup
	for range fires {
		wg.Go(func() {
			resp, err := client.Post(s.base+"/v1/fire/tool.execute.pre", "application/json", strings.NewReader(payload))
			if err != nil {
				answers <- answer{err: err}
				return
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			answers <- answer{code: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: string(body), err: err}
		})
	}
	wg.Wait()
	close(answers)
	count := map[int]int{}
	for a := range answers {
		switch {
		case a.err != nil:
			t.Errorf("a fire failed (hung past %v or cut): %v", attackLimit, a.err)
		case a.code == 503 && a.retryAfter == "":
			t.Errorf("503 without Retry-After: %s", a.body)
		case a.code == 200 && !strings.Contains(a.body, `"action":"deny"`):
			t.Errorf("a fire of rm -rf / under load was not denied: %s", a.body)
		case a.code != 200 && a.code != 503:
			t.Errorf("a fire answered %d: %s", a.code, a.body)
		}
		count[a.code]++
	}
	t.Logf("%d fires at once: %v", fires, count)
	if count[503] == 0 {
		t.Errorf("no fire was refused 503 over 2 slots and a queue of 8")
	}
	if count[200] == 0 {
		t.Errorf("no fire was answered")
	}
	s.checkMemory("after the flood")
	s.checkGuarded("after the flood")
	s.stop()
}

// 16 clients at once each send an 8 MiB body of tiny values ({},{},…),
// which would decode to some 170 MiB apiece: each is refused, 413 (it
// could never fit the request memory) or 503 (the memory was taken by
// the others' bodies; serve then closes the connection with the rest of
// the body unread, so the client may see the connection reset before
// the answer), without being decoded, and serve stays small.
func TestServeAttackManyValues(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	bin := builtHookhost(t)
	s := startAttacked(t, bin)
	const clients = 16
	body := `{"tool_name":"Bash","params":{"command":"rm -rf /"},"pad":[` + strings.Repeat(`{},`, (8<<20-100)/3) + `{}]}`
	client := &http.Client{Timeout: attackLimit}
	codes := make(chan int, clients)
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			resp, err := client.Post(s.base+"/v1/fire/tool.execute.pre", "application/json", strings.NewReader(body))
			if err != nil {
				if !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, syscall.EPIPE) && !errors.Is(err, io.EOF) {
					t.Errorf("a fire of tiny values: %v", err)
				}
				codes <- 0 // cut
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			codes <- resp.StatusCode
		})
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for code := range codes {
		count[code]++
		if code != 413 && code != 503 && code != 0 {
			t.Errorf("a body of 8 MiB of tiny values answered %d, want 413 or 503", code)
		}
	}
	t.Logf("%d bodies of 8 MiB of tiny values (0: cut): %v", clients, count)
	s.checkMemory("after the bodies of tiny values")
	s.checkGuarded("after the bodies of tiny values")
	s.stop()
}
