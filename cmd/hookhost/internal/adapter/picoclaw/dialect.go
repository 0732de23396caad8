package picoclaw

import (
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
)

// PicoClaw's own defaults for how long it waits for a hook (its
// hooks.defaults: interceptor_timeout_ms, approval_timeout_ms,
// observer_timeout_ms).
const (
	DefaultInterceptorTimeout = 5 * time.Second
	DefaultApprovalTimeout    = 60 * time.Second
	DefaultObserverTimeout    = 500 * time.Millisecond
)

// Dialect is the PicoClaw dialect. Its timeouts are PicoClaw's (zero
// means PicoClaw's defaults); hookhost ends each stage's chain before
// PicoClaw gives up on it.
type Dialect struct {
	InterceptorTimeout time.Duration
	ApprovalTimeout    time.Duration
	ObserverTimeout    time.Duration
}

var _ adapter.RPCDialect = Dialect{}

// Fields lists the payload fields hooks may read: PicoClaw's params
// (see Fields).
func (Dialect) Fields() []string { return Fields }

// Hello implements adapter.RPCDialect.
func (Dialect) Hello(method string, params map[string]any) (any, bool, string) {
	if method != Hello {
		return nil, false, ""
	}
	res, problem := CheckHello(params)
	return res, true, problem
}

// Request implements adapter.RPCDialect.
func (Dialect) Request(method string, params map[string]any) adapter.Call {
	return Request(method, params)
}

// Answer implements adapter.RPCDialect.
func (Dialect) Answer(call adapter.Call, res host.Result) adapter.Answer { return Answer(call, res) }

// Shrink implements adapter.RPCDialect.
func (Dialect) Shrink(call adapter.Call, ans any) any { return Shrink(call, ans) }

// Deadline implements adapter.RPCDialect: PicoClaw's timeout for the
// stage less a tenth (at least 100 ms), so hookhost answers first.
func (d Dialect) Deadline(call adapter.Call) time.Duration {
	t := or(d.InterceptorTimeout, DefaultInterceptorTimeout)
	switch call.AgentEvent {
	case "hook.approve_tool":
		t = or(d.ApprovalTimeout, DefaultApprovalTimeout)
	case "hook.runtime_event":
		t = or(d.ObserverTimeout, DefaultObserverTimeout)
	}
	return t - max(t/10, 100*time.Millisecond)
}

func or(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
