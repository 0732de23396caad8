package host

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/hookhost/hookhost/stdlib/state"
)

// StateBackend names where the state module keeps its keys.
type StateBackend string

const (
	// MemoryState keeps the keys in the host's memory: shared by its
	// hooks, lost when the process exits (the default).
	MemoryState StateBackend = "memory"
	// RedisState keeps them in Redis, shared by every process that names
	// the same server and prefix, and kept across restarts.
	RedisState StateBackend = "redis"
)

// StateURLEnv is the environment variable that gives the Redis URL when
// the config's state section has none, so that credentials need not sit
// in the file.
const StateURLEnv = "HOOKHOST_STATE_URL"

// Defaults of the state section.
const (
	DefaultStatePrefix  = "hookhost:"
	DefaultStateTimeout = 100 * time.Millisecond
)

// StateConfig is the config's state section. The zero value is the
// memory backend.
type StateConfig struct {
	// Backend is MemoryState or RedisState; empty means MemoryState.
	Backend StateBackend
	// URL names the Redis server (redis://HOST:PORT/DB, rediss:// for
	// TLS, unix:///path); from $HOOKHOST_STATE_URL when the file has
	// none.
	URL string
	// Prefix starts every key written; empty means DefaultStatePrefix.
	Prefix string
	// Timeout bounds each Redis operation; zero means
	// DefaultStateTimeout.
	Timeout time.Duration
	// Line is where the state section starts in the file.
	Line int
}

// Kind is the backend, the default filled in.
func (s StateConfig) Kind() StateBackend {
	if s.Backend == "" {
		return MemoryState
	}
	return s.Backend
}

// PrefixOrDefault is the key prefix, the default filled in.
func (s StateConfig) PrefixOrDefault() string {
	if s.Prefix == "" {
		return DefaultStatePrefix
	}
	return s.Prefix
}

// TimeoutOrDefault is the per-operation timeout, the default filled in.
func (s StateConfig) TimeoutOrDefault() time.Duration {
	if s.Timeout == 0 {
		return DefaultStateTimeout
	}
	return s.Timeout
}

func (p *configParser) state(k, n *yaml.Node) {
	sc := StateConfig{Line: k.Line}
	var urlNode, backendNode *yaml.Node
	p.Mapping(n, "state", []string{"backend", "url", "prefix", "timeout"}, func(key string, _, v *yaml.Node) {
		switch key {
		case "backend":
			backendNode = v
			sc.Backend = StateBackend(p.Str(v, "state.backend"))
			if sc.Backend != MemoryState && sc.Backend != RedisState {
				p.Errorf(v, "state.backend: want memory or redis, got %q", v.Value)
			}
		case "url":
			urlNode = v
			sc.URL = p.Str(v, "state.url")
		case "prefix":
			sc.Prefix = p.Str(v, "state.prefix")
			if sc.Prefix == "" && v.Tag == "!!str" {
				p.Errorf(v, "state.prefix: must not be empty (leave it out for %q)", DefaultStatePrefix)
			}
		case "timeout":
			sc.Timeout = p.duration(v, "state.timeout")
		}
	})
	if sc.Kind() == MemoryState {
		if urlNode != nil {
			p.Errorf(urlNode, "state.url: only with backend: redis (the backend is memory)")
		}
		p.cfg.State = sc
		return
	}
	at := k
	if backendNode != nil {
		at = backendNode
	}
	if urlNode != nil {
		at = urlNode
	} else {
		sc.URL = os.Getenv(StateURLEnv)
	}
	switch {
	case sc.URL == "":
		p.Errorf(at, "state: backend redis needs a url (state.url, or $%s)", StateURLEnv)
	default:
		if err := checkStateURL(sc.URL); err != nil {
			from := "state.url"
			if urlNode == nil {
				from = "$" + StateURLEnv
			}
			p.Errorf(at, "%s: %v", from, err)
		}
	}
	p.cfg.State = sc
}

// checkStateURL checks the shape of a Redis URL without connecting, and
// without naming its password in an error.
func checkStateURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a URL (want redis://HOST:PORT/DB, rediss://… or unix:///path)")
	}
	switch u.Scheme {
	case "redis", "rediss":
		if u.Hostname() == "" {
			return fmt.Errorf("%s has no host (want %s://HOST:PORT/DB)", u.Redacted(), u.Scheme)
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				return fmt.Errorf("%s: port %q is not a port number", u.Redacted(), p)
			}
		}
		if db := strings.Trim(u.Path, "/"); db != "" {
			if n, err := strconv.Atoi(db); err != nil || n < 0 {
				return fmt.Errorf("%s: database %q is not a number", u.Redacted(), db)
			}
		}
	case "unix":
		if u.Path == "" {
			return fmt.Errorf("%s has no socket path (want unix:///path/to/redis.sock)", u.Redacted())
		}
		if db := u.Query().Get("db"); db != "" {
			if n, err := strconv.Atoi(db); err != nil || n < 0 {
				return fmt.Errorf("%s: db %q is not a number", u.Redacted(), db)
			}
		}
	default:
		return fmt.Errorf("scheme %q: want redis://, rediss:// or unix://", u.Scheme)
	}
	return nil
}

// openState picks the state backend: Options.State, else the one the
// config's state section names (nil for memory: std makes the store).
func (h *Host) openState(opts Options) error {
	if opts.State != nil {
		h.state = opts.State
		return nil
	}
	sc := h.cfg.State
	if sc.Kind() == MemoryState {
		return nil
	}
	if opts.OpenState == nil {
		return &ConfigError{File: h.configPath(), Line: sc.Line,
			Msg: fmt.Sprintf("state: backend %s is not available in this program (host.Options.OpenState is not set)", sc.Kind())}
	}
	b, err := opts.OpenState(sc)
	if err != nil {
		return &ConfigError{File: h.configPath(), Line: sc.Line, Msg: err.Error()}
	}
	h.state = b
	if c, ok := b.(io.Closer); ok {
		h.stateCloser = c
	}
	return nil
}

// StateHealth reports the state backend: its kind, where it is, and
// whether its last operation got an answer.
func (h *Host) StateHealth() state.Health {
	if r, ok := h.state.(state.HealthReporter); ok {
		return r.Health()
	}
	if h.state == nil {
		return state.Health{Backend: string(MemoryState), Checked: true, Answered: true}
	}
	return state.Health{Backend: "custom"}
}

// sameStore reports whether two state sections name the same store,
// wherever in the file they sit.
func (s StateConfig) sameStore(o StateConfig) bool {
	s.Line, o.Line = 0, 0
	return s == o
}

// workerState is the state store the workers of isolated files open, as
// isolate.Options.State: the config's section when it names a shared
// store, so that isolated hooks count against the same keys; empty (a
// memory store per worker) otherwise, and when the embedder gave the
// host a store of its own (Options.State), which a worker cannot reach.
func (h *Host) workerState(opts Options) string {
	if opts.State != nil || h.cfg.State.Kind() == MemoryState {
		return ""
	}
	spec, _ := json.Marshal(workerStateSpec{Backend: string(h.cfg.State.Kind()), URL: h.cfg.State.URL,
		Prefix: h.cfg.State.Prefix, TimeoutMS: h.cfg.State.Timeout.Milliseconds()})
	return string(spec)
}

// workerStateSpec is a state section as the host hands it to its workers.
type workerStateSpec struct {
	Backend   string `json:"backend"`
	URL       string `json:"url"`
	Prefix    string `json:"prefix,omitempty"`
	TimeoutMS int64  `json:"timeout_ms,omitempty"`
}

// ParseWorkerState reads the state section a host handed its worker (see
// isolate.WorkerOptions.OpenState), for the program to open the same
// store the host uses.
func ParseWorkerState(spec string) (StateConfig, error) {
	var w workerStateSpec
	if err := json.Unmarshal([]byte(spec), &w); err != nil {
		return StateConfig{}, fmt.Errorf("state: the host's state spec: %w", err)
	}
	return StateConfig{Backend: StateBackend(w.Backend), URL: w.URL, Prefix: w.Prefix,
		Timeout: time.Duration(w.TimeoutMS) * time.Millisecond}, nil
}
