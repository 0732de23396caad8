package redisstate

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/state"
)

// Defaults for the zero fields of Options.
const (
	DefaultPrefix  = "hookhost:"
	DefaultTimeout = 100 * time.Millisecond
)

// Options configure a Backend.
type Options struct {
	// URL names the server: redis://[user:password@]HOST:PORT/DB,
	// rediss://… for TLS, unix://[user:password@]/path/to/socket?db=N.
	URL string
	// Prefix starts every key written; empty means DefaultPrefix. Several
	// deployments sharing one Redis keep apart by their prefixes.
	Prefix string
	// Timeout bounds each operation, connecting included; zero means
	// DefaultTimeout. The hook's own deadline bounds it too.
	Timeout time.Duration
	// Limits bound keys, values and rate limits as in memory; MaxKeys and
	// MaxBytes are not used.
	Limits state.Limits
	// PoolSize bounds the connections kept open; zero means go-redis's
	// default (ten per processor). A process that may open few
	// descriptors (an isolated worker) sets it low.
	PoolSize int
	// Observe, when set, is told of every operation: its name (get, set,
	// delete, incr, rate), how long it took, and the error when Redis
	// gave no answer or refused (nil otherwise). Metrics hang on it.
	Observe func(op string, took time.Duration, err error)
}

// A Backend is a state.Backend on one Redis server. It is safe for
// concurrent use; Close releases its connections.
type Backend struct {
	client  *redis.Client
	addr    string // for messages: host:port or the socket path, never credentials
	prefix  string
	timeout time.Duration
	limits  state.Limits
	observe func(string, time.Duration, error)

	last atomic.Pointer[state.Health]
}

var _ state.Backend = (*Backend)(nil)

// quietOnce silences go-redis's own logger, which writes to the
// process's stderr (a one-shot command's stderr is the agent's): every
// failure it would log reaches the script as an error and the metrics
// through Observe instead. The logger is the library's, set once.
var quietOnce sync.Once

type quiet struct{}

// Printf drops go-redis's log line.
func (quiet) Printf(context.Context, string, ...any) {}

// Open returns a backend for opts.URL. It does not connect: the first
// operation does, so a Redis that is down makes calls fail, not Open.
// Open fails only for options it cannot use (a bad URL).
func Open(opts Options) (*Backend, error) {
	if err := opts.Limits.Validate(); err != nil {
		return nil, err
	}
	ro, err := redis.ParseURL(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("state: redis url: %s", strings.TrimPrefix(err.Error(), "redis: "))
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	prefix := opts.Prefix
	if prefix == "" {
		prefix = DefaultPrefix
	}
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout, ro.PoolTimeout = timeout, timeout, timeout, timeout
	if opts.PoolSize > 0 {
		ro.PoolSize = opts.PoolSize
	}
	ro.ContextTimeoutEnabled = true // the hook's deadline bounds every call
	ro.MaxRetries = -1              // a retried script could count an event twice
	ro.DialerRetries = 1
	ro.Protocol = 2
	ro.DisableIdentity = true
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	quietOnce.Do(func() { redis.SetLogger(quiet{}) })
	return &Backend{client: redis.NewClient(ro), addr: ro.Addr, prefix: prefix, timeout: timeout,
		limits: opts.Limits, observe: opts.Observe}, nil
}

// CheckURL reports whether u is a Redis URL Open accepts, without
// opening anything.
func CheckURL(u string) error {
	_, err := redis.ParseURL(u)
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "redis: "))
	}
	return nil
}

// Addr is where the server is: host:port, or a socket path.
func (b *Backend) Addr() string { return b.addr }

// Close releases the backend's connections.
func (b *Backend) Close() error { return b.client.Close() }

// Limits are the bounds the state module checks before each call.
func (b *Backend) Limits() state.Limits { return b.limits }

// Health reports whether the last operation got an answer.
func (b *Backend) Health() state.Health {
	h := state.Health{Backend: "redis", Target: b.addr}
	if last := b.last.Load(); last != nil {
		h = *last
	}
	return h
}

// Get returns key's value, or nil.
func (b *Backend) Get(ctx context.Context, key string) (any, error) {
	if err := b.limits.CheckKey(key); err != nil {
		return nil, err
	}
	var text string
	err := b.do(ctx, "get", func(ctx context.Context) error {
		var err error
		text, err = b.client.Get(ctx, b.prefix+key).Result()
		return err
	})
	switch {
	case errors.Is(err, redis.Nil):
		return nil, nil
	case isWrongType(err):
		return nil, state.WrongType(key, "a rate window", "a value")
	case err != nil:
		return nil, err
	}
	v, err := decode(text)
	if err != nil {
		return nil, fmt.Errorf("redis at %s: key %q: %w", b.addr, b.prefix+key, err)
	}
	return v, nil
}

// Set stores value under key for ttl (0: no expiry); nil deletes.
func (b *Backend) Set(ctx context.Context, key string, value any, ttl time.Duration) error {
	if value == nil {
		_, err := b.Delete(ctx, key)
		return err
	}
	if err := b.limits.CheckKey(key); err != nil {
		return err
	}
	if _, err := b.limits.CheckValue(value); err != nil {
		return err
	}
	text, err := encode(value)
	if err != nil {
		return fmt.Errorf("bad value: %w", err)
	}
	return b.do(ctx, "set", func(ctx context.Context) error {
		// One SET with PX: the value and its expiry land together.
		return b.client.Set(ctx, b.prefix+key, text, ceilMillis(ttl)).Err()
	})
}

// Delete removes key and reports whether it held anything.
func (b *Backend) Delete(ctx context.Context, key string) (bool, error) {
	if err := b.limits.CheckKey(key); err != nil {
		return false, err
	}
	var n int64
	err := b.do(ctx, "delete", func(ctx context.Context) error {
		var err error
		n, err = b.client.Del(ctx, b.prefix+key).Result()
		return err
	})
	return n > 0, err
}

// Incr adds by to the integer under key, on the server.
func (b *Backend) Incr(ctx context.Context, key string, by int64, ttl time.Duration) (int64, error) {
	if err := b.limits.CheckKey(key); err != nil {
		return 0, err
	}
	var reply []any
	err := b.do(ctx, "incr", func(ctx context.Context) error {
		var err error
		reply, err = incrScript().Run(ctx, b.client, []string{b.prefix + key},
			strconv.FormatInt(by, 10), int64(ceilMillis(ttl)/time.Millisecond)).Slice()
		return err
	})
	if err != nil {
		return 0, err
	}
	tag, _ := at(reply, 0).(string)
	text, _ := at(reply, 1).(string)
	switch tag {
	case "ok":
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("redis at %s: incr answered %q: %w", b.addr, text, err)
		}
		return n, nil
	case "window":
		return 0, state.WrongType(key, "a rate window", "an integer")
	case "overflow":
		n, _ := strconv.ParseInt(text, 10, 64)
		return 0, state.Overflow(n, by)
	case "type":
		v, err := decode(text)
		if err != nil {
			return 0, state.WrongType(key, "text hookhost did not write", "an integer")
		}
		return 0, state.WrongType(key, "a "+stdlib.TypeName(v), "an integer")
	}
	return 0, fmt.Errorf("redis at %s: incr answered %v", b.addr, reply)
}

// Rate counts one event under key if the window has room, on the
// server.
func (b *Backend) Rate(ctx context.Context, key string, limit int, window time.Duration) (state.RateResult, error) {
	if err := b.limits.CheckKey(key); err != nil {
		return state.RateResult{}, err
	}
	if err := b.limits.CheckRateLimit(int64(limit)); err != nil {
		return state.RateResult{}, err
	}
	if err := state.CheckWindow(window); err != nil {
		return state.RateResult{}, err
	}
	micros := int64((window + time.Microsecond - 1) / time.Microsecond)
	var reply []int64
	err := b.do(ctx, "rate", func(ctx context.Context) error {
		var err error
		reply, err = rateScript().Run(ctx, b.client, []string{b.prefix + key}, limit, micros).Int64Slice()
		return err
	})
	if err != nil {
		return state.RateResult{}, err
	}
	if len(reply) == 1 && reply[0] == -1 {
		return state.RateResult{}, state.WrongType(key, "a value", "a rate window")
	}
	if len(reply) != 3 {
		return state.RateResult{}, fmt.Errorf("redis at %s: rate answered %v", b.addr, reply)
	}
	return state.RateResult{Allowed: reply[0] == 1, Remaining: int(reply[1]),
		Reset: time.Duration(reply[2]) * time.Microsecond}, nil
}

// do runs one operation under the backend's timeout and the caller's
// context, records whether Redis answered, tells Observe, and words a
// failure so that it names Redis, its address and the cause (the binder
// prefixes the function: "state.rate: redis at …"). An error reply that is
// part of the script API (no such key, a wrong type) is returned as is.
func (b *Backend) do(ctx context.Context, op string, fn func(context.Context) error) error {
	octx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	start := time.Now()
	err := fn(octx)
	took := time.Since(start)
	if err == nil || errors.Is(err, redis.Nil) || isWrongType(err) {
		b.note(op, took, nil)
		return err
	}
	var failure error
	switch {
	case ctx.Err() != nil || pastDeadline(ctx):
		// The hook's own deadline passed, or its fire was cancelled. (The
		// operation's context, whose deadline is the hook's then, may
		// notice before the hook's own does.)
		cause := ctx.Err()
		if cause == nil {
			cause = context.DeadlineExceeded
		}
		failure = fmt.Errorf("redis at %s: gave up at the hook's deadline: %w", b.addr, cause)
	case octx.Err() != nil || isTimeout(err):
		failure = fmt.Errorf("redis at %s did not answer within %v", b.addr, b.timeout)
	default:
		failure = fmt.Errorf("redis at %s: %w", b.addr, err)
	}
	b.note(op, took, failure)
	return failure
}

func (b *Backend) note(op string, took time.Duration, err error) {
	b.last.Store(&state.Health{Backend: "redis", Target: b.addr, Checked: true, Answered: err == nil, Err: err,
		At: time.Now()})
	if b.observe != nil {
		b.observe(op, took, err)
	}
}

func pastDeadline(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

func isWrongType(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "WRONGTYPE")
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

func at(s []any, i int) any {
	if i < len(s) {
		return s[i]
	}
	return nil
}

// ceilMillis rounds a ttl up to whole milliseconds, Redis's finest.
func ceilMillis(d time.Duration) time.Duration {
	return (d + time.Millisecond - 1) / time.Millisecond * time.Millisecond
}

// Redacted is u with any password replaced by "xxxxx", for logs and
// status.
func Redacted(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable url)"
	}
	return p.Redacted()
}
