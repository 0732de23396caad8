package main

import (
	"bytes"
	"os/exec"
	"regexp"
	"runtime/pprof"
	"strings"
	"testing"
)

// Every command links serve's HTTP server and metrics, and Go runs every
// linked package's init before main: none of it may start a goroutine.
// The test binary links what hookhost links.
func TestInitStartsNothing(t *testing.T) {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 2); err != nil {
		t.Fatal(err)
	}
	fromInit := regexp.MustCompile(`(?m)^created by (\S+\.init(?:\.\S*)?) in goroutine`)
	for _, m := range fromInit.FindAllStringSubmatch(buf.String(), -1) {
		t.Errorf("a goroutine started by %s is running", m[1])
	}
}

// The one-shot commands start once per agent event, and every linked
// package's init runs at each start: the binary links none of the
// Prometheus client (serve writes its metrics' text itself; only the
// metrics package's tests use the client, to check that text) and none
// of protobuf. docs/performance.md, "Start-up", says what they cost.
func TestBinaryLinksNoPrometheusClient(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for pkg := range strings.Lines(string(out)) {
		pkg = strings.TrimSpace(pkg)
		for _, banned := range []string{"github.com/prometheus/", "google.golang.org/protobuf/"} {
			if strings.HasPrefix(pkg, banned) {
				t.Errorf("cmd/hookhost links %s", pkg)
			}
		}
	}
}
