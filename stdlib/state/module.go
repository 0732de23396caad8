package state

import (
	"fmt"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// New returns the state module over store, which the host shares between
// all the modules it builds so that every hook sees the same keys. A nil
// store means a fresh store with the default limits, private to this
// module value.
func New(store *Store) stdlib.Module { return NewOver(Memory(store)) }

// NewOver returns the state module over backend b: a [Memory] store, or
// one that several processes share. A nil b means a fresh memory store.
func NewOver(b Backend) stdlib.Module {
	if b == nil {
		b = Memory(nil)
	}
	m := &module{b: b, limits: b.Limits()}
	return stdlib.Module{
		Name: "state",
		Doc:  "a key-value store shared by all hooks of the host, with TTLs, counters and rate limits",
		Funcs: []stdlib.Func{
			{Name: "get", Params: params("key"), Impl: m.get,
				Doc: "the value of key, or nil when absent or expired"},
			// value is optional only so that nil reaches Impl: set(key, nil)
			// deletes, as assigning nil to a Lua table field does.
			{Name: "set", Params: []stdlib.Param{stdlib.P("key"), stdlib.Opt("value"), stdlib.Opt("ttl")}, Impl: m.set,
				Doc: "stores a copy of value under key, for ttl if given; nil deletes"},
			{Name: "delete", Params: params("key"), Impl: m.delete,
				Doc: "removes key; reports whether it held anything"},
			{Name: "incr", Params: []stdlib.Param{stdlib.P("key"), stdlib.Opt("by"), stdlib.Opt("ttl")}, Impl: m.incr,
				Doc: "adds by (default 1) to the integer under key and returns the sum"},
			{Name: "rate", Params: params("key", "limit", "window"), Impl: m.rate,
				Doc: "counts an event if fewer than limit happened in the last window: {allowed, remaining, reset_ms}"},
		},
	}
}

func params(names ...string) []stdlib.Param {
	ps := make([]stdlib.Param, len(names))
	for i, n := range names {
		ps[i] = stdlib.P(n)
	}
	return ps
}

type module struct {
	b      Backend
	limits Limits
}

func (m *module) get(c *stdlib.Call) (any, error) {
	key, err := c.String(0)
	if err != nil {
		return nil, err
	}
	if err := m.limits.CheckKey(key); err != nil {
		return nil, err
	}
	return m.b.Get(c.Context, key)
}

func (m *module) set(c *stdlib.Call) (any, error) {
	key, err := c.String(0)
	if err != nil {
		return nil, err
	}
	ttl, err := optTTL(c, 2)
	if err != nil {
		return nil, err
	}
	if err := m.limits.CheckKey(key); err != nil {
		return nil, err
	}
	value := c.Any(1)
	if value != nil {
		if _, err := m.limits.CheckValue(value); err != nil {
			return nil, err
		}
	}
	return nil, m.b.Set(c.Context, key, value, ttl)
}

func (m *module) delete(c *stdlib.Call) (any, error) {
	key, err := c.String(0)
	if err != nil {
		return nil, err
	}
	if err := m.limits.CheckKey(key); err != nil {
		return nil, err
	}
	return m.b.Delete(c.Context, key)
}

func (m *module) incr(c *stdlib.Call) (any, error) {
	key, err := c.String(0)
	if err != nil {
		return nil, err
	}
	by, err := c.OptInt(1, 1)
	if err != nil {
		return nil, err
	}
	ttl, err := optTTL(c, 2)
	if err != nil {
		return nil, err
	}
	if err := m.limits.CheckKey(key); err != nil {
		return nil, err
	}
	return m.b.Incr(c.Context, key, by, ttl)
}

func (m *module) rate(c *stdlib.Call) (any, error) {
	key, err := c.String(0)
	if err != nil {
		return nil, err
	}
	limit, err := c.Int(1)
	if err != nil {
		return nil, err
	}
	// Checked before narrowing to the Store's int.
	if err := m.limits.CheckKey(key); err != nil {
		return nil, err
	}
	if err := m.limits.CheckRateLimit(limit); err != nil {
		return nil, err
	}
	window, err := c.Duration(2)
	if err != nil {
		return nil, err
	}
	if err := CheckWindow(window); err != nil {
		return nil, err
	}
	r, err := m.b.Rate(c.Context, key, int(limit), window)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"allowed":   r.Allowed,
		"remaining": int64(r.Remaining),
		"reset_ms":  ceilMillis(r.Reset),
	}, nil
}

// optTTL reads an optional ttl. Absent means no expiry; zero is refused,
// since "expire at once" is never what a script means.
func optTTL(c *stdlib.Call, i int) (time.Duration, error) {
	if !c.Present(i) {
		return 0, nil
	}
	ttl, err := c.Duration(i)
	if err == nil && ttl == 0 {
		err = fmt.Errorf("argument %d (ttl): must be positive (leave it out for no expiry)", i+1)
	}
	return ttl, err
}

// ceilMillis rounds up, so that a script that waits reset_ms finds room.
func ceilMillis(d time.Duration) int64 {
	ms := int64(d / time.Millisecond)
	if d%time.Millisecond != 0 {
		ms++
	}
	return ms
}
