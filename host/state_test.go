package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hookhost/hookhost/stdlib/state"
)

func TestParseStateConfig(t *testing.T) {
	for _, c := range []struct {
		name, yaml, env string
		want            StateConfig
		wantErr         string
	}{
		{name: "absent", yaml: "{}\n", want: StateConfig{}},
		{name: "memory", yaml: "state: { backend: memory }\n", want: StateConfig{Backend: MemoryState, Line: 1}},
		{name: "redis", yaml: "state:\n  backend: redis\n  url: redis://127.0.0.1:6379/2\n  prefix: \"team-a:\"\n  timeout: 250ms\n",
			want: StateConfig{Backend: RedisState, URL: "redis://127.0.0.1:6379/2", Prefix: "team-a:", Timeout: 250 * time.Millisecond, Line: 1}},
		{name: "tls and a password", yaml: "state: { backend: redis, url: \"rediss://app:s3cret@redis.internal:6380/0\" }\n",
			want: StateConfig{Backend: RedisState, URL: "rediss://app:s3cret@redis.internal:6380/0", Line: 1}},
		{name: "unix socket", yaml: "state: { backend: redis, url: \"unix:///run/redis/redis.sock?db=1\" }\n",
			want: StateConfig{Backend: RedisState, URL: "unix:///run/redis/redis.sock?db=1", Line: 1}},
		{name: "url from the environment", yaml: "state:\n  backend: redis\n", env: "redis://u:pw@10.0.0.5:6379/0",
			want: StateConfig{Backend: RedisState, URL: "redis://u:pw@10.0.0.5:6379/0", Line: 1}},
		{name: "the file's url wins", yaml: "state: { backend: redis, url: \"redis://a:6379\" }\n", env: "redis://b:6379",
			want: StateConfig{Backend: RedisState, URL: "redis://a:6379", Line: 1}},

		{name: "unknown backend", yaml: "state:\n  backend: etcd\n", wantErr: `hookhost.yaml:2: state.backend: want memory or redis, got "etcd"`},
		{name: "unknown key", yaml: "state:\n  host: x\n", wantErr: `hookhost.yaml:2: state: unknown key "host" (want backend, url, prefix, timeout)`},
		{name: "no url", yaml: "state:\n  backend: redis\n", wantErr: "hookhost.yaml:2: state: backend redis needs a url (state.url, or $HOOKHOST_STATE_URL)"},
		{name: "bad scheme", yaml: "state:\n  backend: redis\n  url: http://localhost:6379\n", wantErr: `hookhost.yaml:3: state.url: scheme "http": want redis://, rediss:// or unix://`},
		{name: "bad db", yaml: "state:\n  backend: redis\n  url: redis://localhost:6379/x\n", wantErr: `hookhost.yaml:3: state.url: redis://localhost:6379/x: database "x" is not a number`},
		{name: "no host", yaml: "state:\n  backend: redis\n  url: redis:///0\n", wantErr: "hookhost.yaml:3: state.url: redis:///0 has no host"},
		{name: "bad port", yaml: "state:\n  backend: redis\n  url: redis://h:99999/0\n", wantErr: `port "99999" is not a port number`},
		{name: "no socket path", yaml: "state:\n  backend: redis\n  url: unix://\n", wantErr: "has no socket path"},
		{name: "password kept out of the message", yaml: "state:\n  backend: redis\n  url: redis://u:hunter2@h:6379/x\n", wantErr: "redis://u:xxxxx@h:6379/x"},
		{name: "bad env url", yaml: "state:\n  backend: redis\n", env: "tcp://x", wantErr: `hookhost.yaml:2: $HOOKHOST_STATE_URL: scheme "tcp"`},
		{name: "url with memory", yaml: "state:\n  url: redis://h:6379\n", wantErr: "hookhost.yaml:2: state.url: only with backend: redis"},
		{name: "empty prefix", yaml: "state:\n  backend: redis\n  url: redis://h:6379\n  prefix: \"\"\n", wantErr: "hookhost.yaml:4: state.prefix: must not be empty"},
		{name: "zero timeout", yaml: "state:\n  backend: redis\n  url: redis://h:6379\n  timeout: 0s\n", wantErr: "hookhost.yaml:4: state.timeout: 0s must be more than zero"},
		{name: "not a mapping", yaml: "state: redis\n", wantErr: "hookhost.yaml:1: state: want a mapping"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(StateURLEnv, c.env)
			cfg, err := ParseConfig("hookhost.yaml", []byte(c.yaml))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Errorf("the error shows the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.State != c.want {
				t.Errorf("state = %+v, want %+v", cfg.State, c.want)
			}
		})
	}
}

// countingBackend is a memory store that counts the calls that reach it
// and reports a health of its own.
type countingBackend struct {
	state.Backend
	calls  int
	closed bool
}

func (c *countingBackend) Incr(ctx context.Context, key string, by int64, ttl time.Duration) (int64, error) {
	c.calls++
	return c.Backend.Incr(ctx, key, by, ttl)
}

func (c *countingBackend) Health() state.Health {
	return state.Health{Backend: "redis", Target: "10.0.0.5:6379", Checked: true, Err: errors.New("redis at 10.0.0.5:6379: refused")}
}

func (c *countingBackend) Close() error { c.closed = true; return nil }

// TestStateBackendFromConfig: a config naming redis opens its store
// through Options.OpenState, the scripts' state calls reach it, the
// status reports it, and Close closes it; without OpenState it is a
// config error with the section's line.
func TestStateBackendFromConfig(t *testing.T) {
	cfg, err := ParseConfig("hookhost.yaml", []byte("strict: false\nstate:\n  backend: redis\n  url: redis://10.0.0.5:6379/0\n"))
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"count.lua": {Data: []byte(`local state = require("state")
hook.on("tool.execute.pre", function() state.incr("n") end)`)}}
	_, err = New(context.Background(), Options{FS: fsys, Config: cfg})
	if err == nil || !strings.Contains(err.Error(), "hookhost.yaml:2: state: backend redis is not available") {
		t.Fatalf("New without OpenState: %v", err)
	}
	fake := &countingBackend{Backend: state.Memory(nil)}
	var opened StateConfig
	h, err := New(context.Background(), Options{FS: fsys, Config: cfg, OpenState: func(sc StateConfig) (state.Backend, error) {
		opened = sc
		return fake, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if opened.URL != "redis://10.0.0.5:6379/0" || opened.PrefixOrDefault() != "hookhost:" || opened.TimeoutOrDefault() != 100*time.Millisecond {
		t.Errorf("OpenState got %+v", opened)
	}
	if _, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{"tool_name": "Bash", "params": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if fake.calls != 1 {
		t.Errorf("%d incr calls reached the backend, want 1", fake.calls)
	}
	js, _ := json.Marshal(h.Status())
	if want := `"state":{"backend":"redis","target":"10.0.0.5:6379","answered":false,"error":"redis at 10.0.0.5:6379: refused"}`; !strings.Contains(string(js), want) {
		t.Errorf("status lacks %s:\n%s", want, js)
	}
	h.Close()
	if !fake.closed {
		t.Error("Close did not close the backend the host opened")
	}
	// A failing OpenState is a config error at the section's line.
	_, err = New(context.Background(), Options{FS: fsys, Config: cfg, OpenState: func(StateConfig) (state.Backend, error) {
		return nil, errors.New("state: redis url: invalid")
	}})
	if err == nil || !strings.Contains(err.Error(), "hookhost.yaml:2: state: redis url: invalid") {
		t.Errorf("New with a failing OpenState: %v", err)
	}
}

// TestStateReloadKeepsLastGood: a reload that breaks the state section
// keeps the last good config live and reports the error at its line; one
// that changes the store keeps the store the host started with.
func TestStateReloadKeepsLastGood(t *testing.T) {
	dir := t.TempDir()
	hooks := filepath.Join(dir, "hooks.d")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(hooks, "count.lua"), []byte(`local state = require("state")
hook.on("tool.execute.pre", function() state.incr("n") end)`), 0o644)
	cfgPath := filepath.Join(dir, "hookhost.yaml")
	os.WriteFile(cfgPath, []byte("state:\n  backend: redis\n  url: redis://10.0.0.5:6379/0\n"), 0o644)
	fake := &countingBackend{Backend: state.Memory(nil)}
	opens := 0
	h, err := New(context.Background(), Options{Dir: hooks, ConfigPath: cfgPath, OpenState: func(StateConfig) (state.Backend, error) {
		opens++
		return fake, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	os.WriteFile(cfgPath, []byte("state:\n  backend: redis\n  url: http://10.0.0.5:6379/0\n"), 0o644)
	_ = h.Reload(context.Background())
	st := h.Status()
	if st.Config.Err == nil || !strings.Contains(st.Config.Err.Error(), `hookhost.yaml:3: state.url: scheme "http"`) {
		t.Errorf("config error after a bad reload: %v", st.Config.Err)
	}
	os.WriteFile(cfgPath, []byte("state:\n  backend: redis\n  url: redis://10.0.0.6:6379/0\n"), 0o644)
	if err := h.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{"tool_name": "Bash", "params": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if opens != 1 || fake.calls != 1 {
		t.Errorf("opened %d stores, %d calls reached the first: want the store the host started with", opens, fake.calls)
	}
}
