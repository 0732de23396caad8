package main

import (
	"bytes"
	"regexp"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// Every command links serve's HTTP server and metrics, and Go runs every
// linked package's init before main: none of it may start a goroutine,
// and none of hookhost's metrics may sit on client_golang's default
// registry (serve keeps its own). The test binary links what hookhost
// links.
func TestInitStartsNothing(t *testing.T) {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 2); err != nil {
		t.Fatal(err)
	}
	fromInit := regexp.MustCompile(`(?m)^created by (\S+\.init(?:\.\S*)?) in goroutine`)
	for _, m := range fromInit.FindAllStringSubmatch(buf.String(), -1) {
		t.Errorf("a goroutine started by %s is running", m[1])
	}
	families, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if strings.HasPrefix(f.GetName(), "hookhost_") {
			t.Errorf("%s is registered on the default registry", f.GetName())
		}
	}
}
