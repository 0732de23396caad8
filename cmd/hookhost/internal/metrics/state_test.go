package metrics

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestStateOp(t *testing.T) {
	m := New(Options{})
	var buf bytes.Buffer
	if err := m.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "hookhost_state_") {
		t.Errorf("state series before any operation:\n%s", buf.String())
	}
	m.StateOp("redis", "rate", 300*time.Microsecond, nil)
	m.StateOp("redis", "rate", 100*time.Millisecond, errors.New("redis at 127.0.0.1:6379 did not answer state.rate within 100ms"))
	m.StateOp("redis", "get", time.Millisecond, nil)
	buf.Reset()
	if err := m.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`hookhost_state_operation_duration_seconds_count{backend="redis",op="rate"} 2`,
		`hookhost_state_operation_duration_seconds_bucket{backend="redis",op="rate",le="0.0005"} 1`,
		`hookhost_state_operation_duration_seconds_count{backend="redis",op="get"} 1`,
		`hookhost_state_operation_errors_total{backend="redis",op="rate"} 1`,
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("metrics lack %s:\n%s", want, buf.String())
		}
	}
	if strings.Contains(buf.String(), `hookhost_state_operation_errors_total{backend="redis",op="get"}`) {
		t.Error("an answered get counted as an error")
	}
}
