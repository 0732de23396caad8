package main

import (
	"bytes"
	"os"
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

// The hookhost that agents start is built with documentedTags, which keep
// it static: a binary that links runtime/cgo is dynamically linked, and
// the dynamic loader's work (resolving libc, cgo's signal set-up) is paid
// at every start of a command hook. The check sets CGO_ENABLED=1, so it
// holds whatever the toolchain's default.
func TestDocumentedBuildIsStatic(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-tags", documentedTags, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for pkg := range strings.Lines(string(out)) {
		if strings.TrimSpace(pkg) == "runtime/cgo" {
			t.Errorf("built with -tags %s, cmd/hookhost links runtime/cgo: the binary is dynamically linked", documentedTags)
		}
	}
}
