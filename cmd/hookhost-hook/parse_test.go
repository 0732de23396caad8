package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	wd, _ := os.Getwd()
	hooks := t.TempDir()
	withConfig := t.TempDir()
	os.WriteFile(filepath.Join(withConfig, dirConfigName), nil, 0o600)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want *request // nil: handed to the full command
	}{
		{"printed line", []string{"claude", "--dir", hooks, "--server", "auto"}, nil,
			&request{agent: "claude", dir: hooks, timeout: requestTimeout}},
		{"= forms, one dash, short names", []string{"gemini", "-d=" + hooks, "-server=auto", "-c", "cfg.yaml"}, nil,
			&request{agent: "gemini", dir: hooks, config: filepath.Join(wd, "cfg.yaml"), timeout: requestTimeout}},
		{"config found in the directory", []string{"codex", "--dir", withConfig, "--server", "auto"}, nil,
			&request{agent: "codex", dir: withConfig, config: filepath.Join(withConfig, dirConfigName), timeout: requestTimeout}},
		{"environment", []string{"cursor"}, map[string]string{"HOOKHOST_SERVER": "auto", "HOOKHOST_DIR": hooks,
			"HOOKHOST_CONFIG": "/c.yaml", "HOOKHOST_SERVER_TIMEOUT": "3s"},
			&request{agent: "cursor", dir: hooks, config: "/c.yaml", timeout: int64(3 * time.Second)}},
		{"the flag over the environment", []string{"cursor", "--server-timeout", "2s", "--server", "auto"},
			map[string]string{"HOOKHOST_SERVER_TIMEOUT": "3s", "HOOKHOST_DIR": hooks},
			&request{agent: "cursor", dir: hooks, timeout: int64(2 * time.Second)}},
		{"failure flags pass", []string{"claude", "--fail-open", "--fail-closed", "--auto-idle-exit", "1m", "--server", "auto", "--dir", hooks}, nil,
			&request{agent: "claude", dir: hooks, timeout: requestTimeout}},
		{"copilot's event", []string{"copilot", "--event", "preToolUse", "--server", "auto", "--dir", hooks}, nil,
			&request{agent: "copilot", event: "preToolUse", dir: hooks, timeout: requestTimeout}},
		{"copilot without its event", []string{"copilot", "--server", "auto", "--dir", hooks}, nil, nil},
		{"--event for an agent that names its events", []string{"claude", "--event", "PreToolUse", "--server", "auto"}, nil, nil},
		{"an event that is not a word", []string{"copilot", "--event", "../fire", "--server", "auto"}, nil, nil},
		{"no --server", []string{"claude", "--dir", hooks}, nil, nil},
		{"another server", []string{"claude", "--server", "unix:/run/s.sock"}, nil, nil},
		{"the environment's server is not auto", []string{"claude"}, map[string]string{"HOOKHOST_SERVER": "http://h:1"}, nil},
		{"print-settings", []string{"claude", "--server", "auto", "--print-settings"}, nil, nil},
		{"help", []string{"claude", "-h"}, nil, nil},
		{"an argument", []string{"claude", "--server", "auto", "extra"}, nil, nil},
		{"a flag without its value", []string{"claude", "--server"}, nil, nil},
		{"one flag twice", []string{"claude", "--server", "auto", "--dir", "a", "-d", "b"}, nil, nil},
		{"a bool given a value", []string{"claude", "--server", "auto", "--fail-open=false"}, nil, nil},
		{"a timeout that does not parse", []string{"claude", "--server", "auto", "--server-timeout", "soon"}, nil, nil},
		{"a zero timeout", []string{"claude", "--server", "auto", "--server-timeout", "0s"}, nil, nil},
		{"an idle exit from the environment that does not parse", []string{"claude", "--server", "auto"},
			map[string]string{"HOOKHOST_AUTO_IDLE_EXIT": "x"}, nil},
		{"a log that cannot be opened", []string{"claude", "--server", "auto", "--log", "/nonexistent/dir/log"}, nil, nil},
		{"no agent", nil, nil, nil},
		{"a command that is not a word", []string{"../x"}, nil, nil},
	} {
		env = tc.env
		got, ok := parse(tc.args, getenv)
		switch {
		case tc.want == nil && ok:
			t.Errorf("%s: %+v, want it handed to the full command", tc.name, got)
		case tc.want == nil:
		case !ok:
			t.Errorf("%s: handed to the full command, want %+v", tc.name, *tc.want)
		case got != *tc.want:
			t.Errorf("%s: %+v, want %+v", tc.name, got, *tc.want)
		}
	}
}

func TestParseAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, resp string
		want       string
		ok         bool
	}{
		{"an answer", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n{}\n", "{}\n", true},
		{"no opinion", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", "", true},
		{"the refusal", "HTTP/1.1 200 OK\r\nHookhost-Refusal: 503\r\nContent-Length: 3\r\n\r\n{}\n", "", false},
		{"not found", "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\n{}\n", "", false},
		{"unauthorized", "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n", "", false},
		{"cut short", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}\n", "", false},
		{"longer than said", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n{}\n", "", false},
		{"no length", "HTTP/1.1 200 OK\r\n\r\n{}\n", "", false},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n{}\n", "", false},
		{"two lengths", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n{}\n", "", false},
		{"no head's end", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n", "", false},
		{"HTTP/1.0", "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", "", false},
		{"a status that starts with 200", "HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n", "", false},
		{"a header line without a colon", "HTTP/1.1 200 OK\r\nbroken\r\nContent-Length: 0\r\n\r\n", "", false},
		{"nothing", "", "", false},
	} {
		got, ok := parseAnswer([]byte(tc.resp))
		if ok != tc.ok || string(got) != tc.want {
			t.Errorf("%s: %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestLinksLittle: hookhost-hook's start is cheap because it links
// almost nothing; none of these may creep in (through autosock, say):
// not the engines, YAML, the shell parser, the command-line library,
// hookhost's host, package net (or net/http), nor cgo, so that it is
// static without build tags (CGO_ENABLED=1 as a default build has it);
// and on Linux not os, time, strings or crypto either.
func TestLinksLittle(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "GOOS=linux")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	banned := []string{"net", "net/http", "runtime/cgo", "os/user", "os/exec", "encoding/json", "log/slog",
		// On Linux, where it answers alone, not even these: their
		// initialisation would be paid at every start.
		"os", "time", "strings", "bytes", "fmt", "crypto/sha256", "internal/godebug",
		"github.com/hookhost/hookhost/host", "github.com/yuin/gopher-lua", "go.starlark.net/starlark",
		"github.com/urfave/cli/v2", "go.yaml.in/yaml/v3", "mvdan.cc/sh/v3/syntax"}
	for pkg := range strings.Lines(string(out)) {
		pkg = strings.TrimSpace(pkg)
		if slices.Contains(banned, pkg) || strings.HasPrefix(pkg, "github.com/hookhost/hookhost/cmd/hookhost/") {
			t.Errorf("hookhost-hook links %s", pkg)
		}
	}
}
