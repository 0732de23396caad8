package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	"github.com/hookhost/hookhost/host"
)

func TestTmpSpin(t *testing.T) {
	ctx := context.Background()
	body, _ := os.ReadFile("/tmp/hhb/ev.json")
	d := claude.Dialect{}
	dir, _ := filepath.Abs(shippedDir)
	h, err := host.New(ctx, host.Options{Dir: dir, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, spin := range []time.Duration{0, 50 * time.Microsecond, 200 * time.Microsecond, 1000 * time.Microsecond, 3000 * time.Microsecond} {
		var ds []time.Duration
		for k := range 400 {
			call, _ := adapter.Decode(d, body, "")
			time.Sleep(3 * time.Millisecond)
			s := time.Now()
			for time.Since(s) < spin {
			}
			t0 := time.Now()
			h.Fire(ctx, call.Event, call.Payload)
			if k >= 50 {
				ds = append(ds, time.Since(t0))
			}
		}
		slices.Sort(ds)
		fmt.Printf("spin %-8v median %v\n", spin, ds[len(ds)/2])
	}
}
