package adapter_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
)

// connectCase is one call through NewConnector, with what its Load and
// GuardProblems saw.
type connectCase struct {
	name       string
	opts       func(dir string) adapter.ConnectOptions
	guard      bool
	guardErr   error
	wantStrict bool
	wantView   bool
	wantGuard  bool // GuardProblems asked
	wantErr    string
	wantLog    string
}

func TestNewConnector(t *testing.T) {
	local := func(dir string) adapter.ConnectOptions {
		return adapter.ConnectOptions{Server: adapter.ServerOptions{Dir: dir}}
	}
	for _, tc := range []connectCase{
		{name: "in process, not a guard event", opts: local},
		{name: "in process, guard event", opts: local, guard: true, wantStrict: true, wantGuard: true},
		{name: "guard event, hooks unfit", opts: local, guard: true, guardErr: errors.New("a.lua failed to load"),
			wantStrict: true, wantGuard: true, wantErr: "a.lua failed to load"},
		{name: "guard event, fail open", guard: true, opts: func(dir string) adapter.ConnectOptions {
			o := local(dir)
			o.FailOpen = true
			return o
		}},
		{name: "event cache", opts: func(dir string) adapter.ConnectOptions {
			o := local(dir)
			o.EventCache = filepath.Join(dir, "..", "events.txt")
			o.CacheSalt = func() []byte { return []byte("salt") }
			return o
		}, wantView: true},
		{name: "server down: the hooks in this process", guard: true, opts: func(dir string) adapter.ConnectOptions {
			o := local(dir)
			o.Server.Server, o.Server.Timeout = "unix:"+filepath.Join(dir, "..", "none.sock"), 5*time.Second
			return o
		}, wantStrict: true, wantGuard: true, wantLog: "loading the hooks in this process"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hooks")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			var loaded []adapter.Load
			guardAsked := false
			opts := tc.opts(dir)
			opts.Server.Log = &log
			opts.Load = func(ctx context.Context, l adapter.Load) (*host.Host, error) {
				loaded = append(loaded, l)
				hopts := host.Options{Dir: dir, Strict: l.Strict}
				if l.FS != nil {
					hopts.Dir, hopts.FS = "", l.FS
				}
				return host.New(ctx, hopts)
			}
			opts.GuardProblems = func(*host.Host) error { guardAsked = true; return tc.guardErr }
			call := adapter.Call{AgentEvent: "PreToolUse", Event: host.EventToolExecutePre, Guard: tc.guard}
			f, err := adapter.NewConnector(opts)(context.Background(), call)
			if err == nil {
				defer f.Close()
				_, err = f.Fire(context.Background(), call.Event, map[string]any{"tool_name": "Bash"})
			}
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if len(loaded) != 1 {
				t.Fatalf("loaded %d times, want once", len(loaded))
			}
			if l := loaded[0]; l.Strict != tc.wantStrict || (l.FS != nil) != tc.wantView || (l.Programs != nil) != tc.wantView {
				t.Errorf("load %+v, want strict %v, view %v", l, tc.wantStrict, tc.wantView)
			}
			if guardAsked != tc.wantGuard {
				t.Errorf("guard problems asked: %v, want %v", guardAsked, tc.wantGuard)
			}
			if !strings.Contains(log.String(), tc.wantLog) {
				t.Errorf("log %q, want %q", log.String(), tc.wantLog)
			}
		})
	}
}
