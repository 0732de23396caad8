package scripting

import (
	"fmt"
	"strings"

	"github.com/hookhost/hookhost/stdlib"
)

// The assertions of the expect module on what hook.fire returned: the
// decision's action, reason and hook, the hooks that ran, the messages.
// Each failure describes the decision it got, so a failed test shows what
// happened and not only what did not.

// resultAssertions returns expect.action, reason_contains, hook, ran and
// message_contains.
func resultAssertions() []stdlib.Func {
	params := func(what string) []stdlib.Param {
		return []stdlib.Param{stdlib.P("result"), stdlib.P(what), stdlib.Opt("msg")}
	}
	return []stdlib.Func{
		{Name: "action", Params: params("action"), Impl: expectAction},
		{Name: "reason_contains", Params: params("text"), Impl: expectReasonContains},
		{Name: "hook", Params: params("id"), Impl: expectHook},
		{Name: "ran", Params: params("id"), Impl: expectRan},
		{Name: "message_contains", Params: params("text"), Impl: expectMessageContains},
	}
}

// fireResult reads argument 0 as a hook.fire result and argument 1 as a
// string.
func fireResult(c *stdlib.Call) (map[string]any, string, error) {
	r, ok := c.Args[0].(map[string]any)
	if _, hasAction := r["action"].(string); !ok || !hasAction {
		return nil, "", fmt.Errorf("argument 1 (result): want what hook.fire returned, got %s", Show(c.Args[0]))
	}
	want, err := c.String(1)
	return r, want, err
}

// describeDecision says what a result decided, for failure messages.
func describeDecision(r map[string]any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "action %q", r["action"])
	if h, _ := r["hook"].(string); h != "" {
		fmt.Fprintf(&b, " by hook %q", h)
	} else {
		b.WriteString(", no hook decided")
	}
	if reason, _ := r["reason"].(string); reason != "" {
		fmt.Fprintf(&b, ", reason %q", reason)
	}
	return b.String()
}

func expectAction(c *stdlib.Call) (any, error) {
	r, want, err := fireResult(c)
	if err != nil {
		return nil, err
	}
	if r["action"] != want {
		return nil, fmt.Errorf("%sgot %s, want action %q", prefix(c), describeDecision(r), want)
	}
	return nil, nil
}

func expectReasonContains(c *stdlib.Call) (any, error) {
	r, text, err := fireResult(c)
	if err != nil {
		return nil, err
	}
	if reason, _ := r["reason"].(string); !strings.Contains(reason, text) {
		return nil, fmt.Errorf("%sgot %s, want a reason containing %q", prefix(c), describeDecision(r), text)
	}
	return nil, nil
}

func expectHook(c *stdlib.Call) (any, error) {
	r, id, err := fireResult(c)
	if err != nil {
		return nil, err
	}
	if r["hook"] != id {
		return nil, fmt.Errorf("%sgot %s, want the decision of hook %q", prefix(c), describeDecision(r), id)
	}
	return nil, nil
}

func expectRan(c *stdlib.Call) (any, error) {
	r, id, err := fireResult(c)
	if err != nil {
		return nil, err
	}
	trace, _ := r["trace"].([]any)
	var ran []string
	for _, t := range trace {
		h, _ := t.(map[string]any)["hook"].(string)
		if h == id {
			return nil, nil
		}
		ran = append(ran, h)
	}
	return nil, fmt.Errorf("%shook %q did not run (the hooks that ran: %s)", prefix(c), id, Show(ran))
}

func expectMessageContains(c *stdlib.Call) (any, error) {
	r, text, err := fireResult(c)
	if err != nil {
		return nil, err
	}
	msgs, _ := r["messages"].([]any)
	for _, m := range msgs {
		if content, _ := m.(map[string]any)["content"].(string); strings.Contains(content, text) {
			return nil, nil
		}
	}
	return nil, fmt.Errorf("%sno message contains %q (messages: %s)", prefix(c), text, Show(msgs))
}

// contains implements expect.contains(value, part): a substring of a
// string, an element of a list, a key of a map.
func contains(c *stdlib.Call) (any, error) {
	v, part := c.Args[0], c.Args[1]
	found := false
	switch v := v.(type) {
	case string:
		s, ok := part.(string)
		if !ok {
			return nil, fmt.Errorf("argument 2 (part): want a string to look for in a string, got %s", stdlib.TypeName(part))
		}
		found = strings.Contains(v, s)
	case []any:
		for _, e := range v {
			found = found || stdlib.Equal(e, part)
		}
	case map[string]any:
		k, ok := part.(string)
		_, found = v[k]
		found = found && ok
	default:
		return nil, fmt.Errorf("argument 1 (value): want a string, list or map, got %s", stdlib.TypeName(v))
	}
	if !found {
		return nil, fmt.Errorf("%s%s does not contain %s", prefix(c), Show(v), Show(part))
	}
	return nil, nil
}
