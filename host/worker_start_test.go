package host

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/host/isolate/isolatetest"
)

// TestWorkerStartLimit: limits.worker_start bounds an isolated file's
// worker start. A worker that takes a second to start fails to load
// the file under a 300 ms limit, saying why, and loads under a minute
// once the config is edited (a reload that changes the config loads
// again the files that failed, under the new limit). The second limit is
// far from the second the worker sleeps because the rest of its start
// (a race-built binary on a loaded machine) can itself take seconds, and
// only a failure waits it out.
func TestWorkerStartLimit(t *testing.T) {
	for name, src := range map[string]string{
		"a.lua":  `hook.on("tool.execute.pre", function() return hook.deny("isolated") end, { name = "a" })`,
		"a.star": "hook.on(\"tool.execute.pre\", lambda: hook.deny(\"isolated\"), name = \"a\")",
	} {
		t.Run(name, func(t *testing.T) { testWorkerStartLimit(t, name, src) })
	}
}

func testWorkerStartLimit(t *testing.T, name, src string) {
	root := t.TempDir()
	dir := filepath.Join(root, "hooks.d")
	exe, err := isolatetest.Wrapper(t.TempDir(), testWorker, "sleep 1")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{name: src})
	writeFiles(t, root, map[string]string{"hookhost.yaml": "defaults: { isolation: process }\nlimits: { worker_start: 300ms }\n"})
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: filepath.Join(root, "hookhost.yaml"), WorkerExecutable: exe,
		WorkerBuild: testWorkerBuild(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if p := fmt.Sprint(h.Problems()); !strings.Contains(p, name) || !strings.Contains(p, "the worker did not start: it did not say hello within the start-up limit (limits.worker_start)") {
		t.Fatalf("problems %q, want %s's worker not starting within its limit", p, name)
	}

	writeFiles(t, root, map[string]string{"hookhost.yaml": "defaults: { isolation: process }\nlimits: { worker_start: 1m }\n"})
	if rep := h.Rescan(context.Background(), "test"); rep.Err != nil {
		t.Fatal(rep.Err)
	}
	if p := h.Problems(); len(p) > 0 {
		t.Fatalf("problems after raising the limit: %v", p)
	}
	r := fireOK(t, h, "tool.execute.pre", map[string]any{})
	if r.Decision.Action != Deny || r.Decision.Reason != "isolated" {
		t.Fatalf("decision %+v, trace %+v", r.Decision, r.Trace)
	}
}
