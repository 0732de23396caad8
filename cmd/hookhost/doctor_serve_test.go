package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/doctor"
)

// The settings --print-settings --http prints, checked by doctor against
// a running serve with a token: every guard entry enforces, in both
// languages; with serve stopped, none does.
func TestDoctorProvesHTTPHooks(t *testing.T) {
	for lang, files := range claudeGuards {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, files)
			s := startServe(t, []string{"HOOKHOST_TOKEN=s3cret-token"}, "--dir", dir)
			t.Setenv("HOOKHOST_TOKEN", "s3cret-token")
			var settings, stderr bytes.Buffer
			if code := runMain(context.Background(), []string{"hookhost", "claude", "--print-settings", "--http", s.base},
				nil, &settings, &stderr); code != 0 {
				t.Fatalf("--print-settings --http: exit %d: %s", code, stderr.String())
			}
			file := filepath.Join(t.TempDir(), "settings.json")
			if err := os.WriteFile(file, settings.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			opts := doctor.Options{Files: []string{file}, Project: dir, Env: []string{"HOOKHOST_TOKEN=s3cret-token"}}
			rep, err := doctor.Check(context.Background(), doctor.Agents["claude"], opts)
			if err != nil || !rep.Enforcing || len(rep.Entries) != 1 || !strings.Contains(rep.Entries[0].Answer, "refusing to delete") {
				t.Errorf("doctor on serve: %+v, %v; want one enforcing entry", rep, err)
			}
			opts.Env = nil // Claude Code started without the token
			if rep, _ := doctor.Check(context.Background(), doctor.Agents["claude"], opts); rep.Enforcing ||
				!strings.Contains(rep.Entries[0].Reason, "HTTP status of 401") {
				t.Errorf("doctor without the token: %+v; want not enforcing, 401", rep.Entries)
			}
			s.stop()
			opts.Env = []string{"HOOKHOST_TOKEN=s3cret-token"}
			if rep, _ := doctor.Check(context.Background(), doctor.Agents["claude"], opts); rep.Enforcing ||
				!strings.Contains(rep.Entries[0].Reason, "is hookhost serve running?") {
				t.Errorf("doctor with serve stopped: %+v; want not enforcing", rep.Entries)
			}
		})
	}
}

// What serve answers at a guard event it cannot decide (adapter.Refusal)
// is read as blocking by doctor's reading of the agent: the two agree on
// each agent's contract.
func TestRefusalBlocksAsDoctorReadsIt(t *testing.T) {
	for _, a := range agents {
		d := a.dialect
		da, ok := doctor.Agents[d.Name()]
		if !ok {
			continue
		}
		call, err := adapter.Decode(d, []byte(`{"hook_event_name":"`+da.GuardEvent+`"}`), "")
		if err != nil {
			t.Fatal(err)
		}
		out, err := adapter.Encode(adapter.Refusal(d, call, errors.New("busy")))
		if err != nil {
			t.Fatal(err)
		}
		if v := da.Read(0, out, nil); !v.Enforcing {
			t.Errorf("%s: the refusal %s does not block as doctor reads it: %+v", d.Name(), out, v)
		}
	}
}
