package examples

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hookhost/hookhost/host"
)

// load builds a host over the sample hooks of one language.
func load(t *testing.T, ext string) *host.Host {
	t.Helper()
	files, _ := filepath.Glob("hooks/*" + ext)
	fsys := fstest.MapFS{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fsys[filepath.Base(f)] = &fstest.MapFile{Data: data}
	}
	clock := time.Unix(1700000000, 0)
	h, err := host.New(context.Background(), host.Options{FS: fsys, Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	if p := h.Problems(); len(p) > 0 {
		t.Fatalf("%s: %v", ext, p)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestBothLanguagesDecideTheSame fires the same events through the Lua
// samples and through the Starlark samples and compares the results.
func TestBothLanguagesDecideTheSame(t *testing.T) {
	fires := []struct {
		event   string
		payload string
		want    string // the action both must reach
	}{
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"ls"}}`, "continue"},
		{"tool.execute.pre", `{"tool_name":"write","params":{"path":"src/main.go"},"cwd":"/workspace"}`, "continue"},
		{"tool.execute.pre", `{"tool_name":"write","params":{"path":"../../etc/passwd"},"cwd":"/workspace"}`, "ask"},
		{"tool.execute.pre", `{"tool_name":"edit","params":{}}`, "deny"},
		{"tool.execute.post", `{"tool_name":"bash","result":"key=sk-abcdefghijklmnop1234 ok"}`, "modify"},
		{"tool.execute.post", `{"tool_name":"bash","result":"nothing secret"}`, "continue"},
	}
	for i := 0; i < 6; i++ {
		want := "continue"
		if i == 5 {
			want = "deny"
		}
		fires = append(fires, struct{ event, payload, want string }{"tool.execute.pre", `{"tool_name":"web_search","session_id":"s1","params":{}}`, want})
	}
	lua, star := load(t, ".lua"), load(t, ".star")
	for _, f := range fires {
		var payload map[string]any
		if err := json.Unmarshal([]byte(f.payload), &payload); err != nil {
			t.Fatal(err)
		}
		l, err1 := lua.Fire(context.Background(), f.event, payload)
		s, err2 := star.Fire(context.Background(), f.event, payload)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		lj, sj := canonical(l), canonical(s)
		if lj != sj || string(l.Decision.Action) != f.want {
			t.Errorf("%s %s:\n lua  %s\n star %s\n want action %s", f.event, f.payload, lj, sj, f.want)
		}
	}
}

// canonical renders a result without what legitimately differs: the
// file extension in hook ids and the durations.
func canonical(r host.Result) string {
	r.Trace = nil
	b, _ := json.Marshal(r)
	s := strings.ReplaceAll(string(b), ".lua:", ".EXT:")
	return strings.ReplaceAll(s, ".star:", ".EXT:")
}
