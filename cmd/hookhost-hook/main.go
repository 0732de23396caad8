package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hookhost/hookhost/cmd/internal/autosock"
)

// What hookhost-hook shares with hookhost's client is in autosock.
const (
	maxEvent       = autosock.MaxEvent
	requestTimeout = autosock.RequestTimeout
	connectTimeout = autosock.ConnectTimeout
	maxAnswer      = autosock.MaxAnswer
)

const (
	// fullEnv names the full hookhost's executable.
	fullEnv = "HOOKHOST_BIN"
	// defaultDir is the hooks directory without --dir or $HOOKHOST_DIR.
	defaultDir = "./hooks.d"
	// dirConfigName is the config a hooks directory may hold.
	dirConfigName = "hookhost.yaml"
)

// eventAgents are the agents whose input does not name its event, so
// that their command line must (--event): without it the full command
// reports the mistake.
var eventAgents = []string{"copilot"}

func main() {
	args := os.Args[1:]
	req, ok := parse(args, os.Getenv)
	if !ok {
		execFull(args, nil)
	}
	body, err := io.ReadAll(io.LimitReader(os.Stdin, maxEvent+1))
	if err != nil || len(body) > maxEvent {
		execFull(args, body)
	}
	answer, ok := req.ask(body)
	if !ok {
		execFull(args, body)
	}
	if _, err := os.Stdout.Write(answer); err != nil {
		// The answer could not be given, and the event has fired: the
		// agent must not proceed as if it had been answered.
		os.Stderr.WriteString("hookhost-hook: writing the answer: " + err.Error() + "\n")
		os.Exit(2)
	}
	os.Exit(0)
}

// A request is what a command line asks of the server.
type request struct {
	agent, event string
	dir, config  string
	timeout      time.Duration
}

// parse reads an agent command line with --server auto: the agent, then
// flags. ok is false for anything it does not read, which the full
// command then reads (and reports, when it is a mistake).
func parse(args []string, env func(string) string) (request, bool) {
	if len(args) < 1 || !pathWord(args[0]) {
		return request{}, false
	}
	r := request{agent: args[0], timeout: requestTimeout}
	server := env("HOOKHOST_SERVER")
	seen := map[string]bool{}
	values := map[string]*string{}
	var timeout, idle, log string
	values["dir"], values["d"] = &r.dir, &r.dir
	values["config"], values["c"] = &r.config, &r.config
	values["server"], values["event"], values["log"] = &server, &r.event, &log
	values["server-timeout"], values["auto-idle-exit"] = &timeout, &idle
	canonical := map[string]string{"d": "dir", "c": "config"}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			return request{}, false
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		key := name
		if c, ok := canonical[name]; ok {
			key = c
		}
		if seen[key] {
			return request{}, false // twice, or under two names: the full command says what it makes of it
		}
		seen[key] = true
		switch dst, ok := values[name]; {
		case name == "fail-open" || name == "fail-closed":
			if hasValue {
				return request{}, false
			}
		case !ok:
			return request{}, false
		case hasValue:
			*dst = value
		case i+1 < len(args):
			i++
			*dst = args[i]
		default:
			return request{}, false
		}
	}
	named := contains(eventAgents, r.agent) // only their commands have --event
	if server != "auto" || named != (r.event != "") || (named && !pathWord(r.event)) {
		return request{}, false
	}
	if !seen["server-timeout"] {
		timeout = env("HOOKHOST_SERVER_TIMEOUT")
	}
	if !seen["auto-idle-exit"] {
		idle = env("HOOKHOST_AUTO_IDLE_EXIT")
	}
	for _, d := range []struct {
		text string
		dst  *time.Duration
	}{{timeout, &r.timeout}, {idle, new(time.Duration)}} {
		if d.text == "" {
			continue
		}
		v, err := time.ParseDuration(d.text)
		if err != nil || v <= 0 {
			return request{}, false
		}
		*d.dst = v
	}
	if log != "" { // the full command creates --log at every run, and fails when it cannot
		f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return request{}, false
		}
		f.Close()
	}
	var ok bool
	if r.dir, r.config, ok = resolvePaths(r.dir, r.config, env); !ok {
		return request{}, false
	}
	return r, true
}

// resolvePaths settles the hooks directory and the config as hookhost
// does (its resolvePaths: the flag, else the environment, else
// ./hooks.d and DIR/hookhost.yaml when it is there), made absolute as
// --server auto makes them to name the socket.
func resolvePaths(dir, config string, env func(string) string) (string, string, bool) {
	if dir == "" {
		dir = env("HOOKHOST_DIR")
	}
	if dir == "" {
		dir = defaultDir
	}
	if config == "" {
		config = env("HOOKHOST_CONFIG")
	}
	if config == "" {
		path := filepath.Join(dir, dirConfigName)
		if _, err := os.Stat(path); err == nil {
			config = path
		} else if !os.IsNotExist(err) && !isNotDir(err) {
			config = path // there but unreadable: the full command names it too
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", "", false
	}
	if config != "" {
		if config, err = filepath.Abs(config); err != nil {
			return "", "", false
		}
	}
	return dir, config, true
}

func isNotDir(err error) bool {
	var errno syscall.Errno
	if pe, ok := err.(*os.PathError); ok {
		errno, _ = pe.Err.(syscall.Errno)
	}
	return errno == syscall.ENOTDIR
}

// pathWord reports whether s may stand in the request's path as it is:
// the agents' and their events' names are words.
func pathWord(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// ask posts the event to the server of --server auto; ok is false when
// no genuine server answered it (see doc.go).
func (r request) ask(body []byte) ([]byte, bool) {
	sock, err := autosock.Path(r.dir, r.config)
	if err != nil {
		return nil, false
	}
	path := "/v1/agents/" + r.agent
	if r.event != "" {
		path += "/" + r.event
	}
	return post(sock, path, body, r.timeout)
}

// execFull runs the full hookhost in this process's place with args,
// and stdin replayed from read when this process read it (nil: stdin
// untouched). If that cannot be done, hookhost-hook fails as hookhost
// fails when it cannot start: exit 2, which blocks.
func execFull(args []string, read []byte) {
	bin := os.Getenv(fullEnv)
	if bin == "" {
		exe, err := os.Executable()
		if err != nil {
			fail("cannot find the full hookhost: " + err.Error() + " (set $" + fullEnv + ")")
		}
		bin = filepath.Join(filepath.Dir(exe), "hookhost")
	}
	if read != nil {
		if err := replayStdin(read); err != nil {
			fail("replaying stdin to hookhost: " + err.Error())
		}
	}
	err := syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
	fail("executing " + bin + ": " + err.Error() + " (install hookhost beside hookhost-hook, or set $" + fullEnv + ")")
}

// replayStdin makes stdin what was read followed by what was not (a
// read cut short by the limit or an error): an unlinked temporary file
// holding both becomes file descriptor 0.
func replayStdin(read []byte) error {
	f, err := os.CreateTemp("", "hookhost-hook-")
	if err != nil {
		return err
	}
	defer f.Close()
	os.Remove(f.Name())
	if _, err := f.Write(read); err != nil {
		return err
	}
	if _, err := io.Copy(f, os.Stdin); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return dupOnto(int(f.Fd()), 0)
}

// fail reports that hookhost could not be run at all, and blocks.
func fail(msg string) {
	os.Stderr.WriteString("hookhost-hook: " + msg + "\n")
	os.Exit(2)
}
