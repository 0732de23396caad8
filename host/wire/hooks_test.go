package wire

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/host"
)

// A hook's entry says until when it is quarantined, and only while it is.
func TestHookEntryQuarantinedUntil(t *testing.T) {
	until := time.Date(2026, 12, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	for _, c := range []struct {
		info host.HookInfo
		want string // in the JSON; "" for no quarantined_until at all
	}{
		{host.HookInfo{ID: "a.lua:a"}, ""},
		{host.HookInfo{ID: "a.lua:a", Quarantined: true, QuarantinedUntil: until}, `"quarantined_until":"2026-12-02T02:04:05Z"`},
		{host.HookInfo{ID: "a.lua:a", QuarantinedUntil: until}, ""},
	} {
		js, err := json.Marshal(NewHookEntry(c.info))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(js), "quarantined_until"); got != (c.want != "") || !strings.Contains(string(js), c.want) {
			t.Errorf("%+v: %s, want %q", c.info, js, c.want)
		}
	}
}
