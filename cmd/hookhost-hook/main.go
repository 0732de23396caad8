package main

import (
	"path"
	"strconv"
	"syscall"

	"github.com/hookhost/hookhost/cmd/internal/autosock"
)

// On Linux hookhost-hook links neither os, time, strings nor crypto:
// their packages' initialisation, run at every start, was a third of
// what its own code costs beyond an empty Go program's start
// (docs/performance.md, "The small command hook"). It speaks to the
// system through package syscall; its few string functions are in
// text.go.

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
	args, err := commandLine()
	if err != nil {
		fail("reading the command line: " + err.Error() + " (run hookhost itself)")
	}
	req, ok := parse(args, getenv)
	if !ok || !fastPath {
		execFull(args, nil)
	}
	body, err := readAll(0, maxEvent+1)
	if err != nil || len(body) > maxEvent {
		execFull(args, body)
	}
	answer, ok := req.ask(body)
	if !ok {
		execFull(args, body)
	}
	if err := writeAll(1, answer); err != nil {
		// The answer could not be given, and the event has fired: the
		// agent must not proceed as if it had been answered.
		printErr("hookhost-hook: writing the answer: " + err.Error() + "\n")
		syscall.Exit(2)
	}
	syscall.Exit(0)
}

func getenv(key string) string {
	v, _ := syscall.Getenv(key)
	return v
}

// A request is what a command line asks of the server.
type request struct {
	agent, event string
	dir, config  string
	timeout      int64 // nanoseconds
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
	var timeout, idle, log string
	// The flags it reads, under each of their names; a slice, not maps,
	// which would cost this process's start more than the lookups save.
	flags := [...]struct {
		name, short string
		dst         *string // nil: a switch (--fail-open, --fail-closed)
		seen        bool
	}{
		{name: "dir", short: "d", dst: &r.dir}, {name: "config", short: "c", dst: &r.config},
		{name: "server", dst: &server}, {name: "event", dst: &r.event}, {name: "log", dst: &log},
		{name: "server-timeout", dst: &timeout}, {name: "auto-idle-exit", dst: &idle},
		{name: "fail-open"}, {name: "fail-closed"},
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || a == "--" {
			return request{}, false
		}
		name, value, hasValue := cut(trimPrefix(a[1:], "-"), '=')
		f := -1
		for j := range flags {
			if name == flags[j].name || (name == flags[j].short && name != "") {
				f = j
			}
		}
		switch {
		case f < 0:
			return request{}, false
		case flags[f].seen:
			return request{}, false // twice, or under two names: the full command says what it makes of it
		case flags[f].dst == nil:
			if hasValue {
				return request{}, false
			}
		case hasValue:
			*flags[f].dst = value
		case i+1 < len(args):
			i++
			*flags[f].dst = args[i]
		default:
			return request{}, false
		}
		flags[f].seen = true
	}
	named := contains(eventAgents, r.agent) // only their commands have --event
	if server != "auto" || named != (r.event != "") || (named && !pathWord(r.event)) {
		return request{}, false
	}
	for _, f := range flags { // a flag not given is read from the environment
		switch {
		case f.seen:
		case f.name == "server-timeout":
			timeout = env("HOOKHOST_SERVER_TIMEOUT")
		case f.name == "auto-idle-exit":
			idle = env("HOOKHOST_AUTO_IDLE_EXIT")
		}
	}
	for _, d := range []struct {
		text string
		dst  *int64
	}{{timeout, &r.timeout}, {idle, new(int64)}} {
		if d.text == "" {
			continue
		}
		v, ok := parseDuration(d.text)
		if !ok || v <= 0 {
			return request{}, false
		}
		*d.dst = v
	}
	if log != "" { // the full command creates --log at every run, and fails when it cannot
		fd, err := openFile(log, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CREAT, 0o600)
		if err != nil {
			return request{}, false
		}
		syscall.Close(fd)
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
// --server auto makes them to name the socket (autosock.Abs).
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
		file := path.Join(dir, dirConfigName)
		var st syscall.Stat_t
		if err := syscall.Stat(file, &st); err == nil {
			config = file
		} else if err != syscall.ENOENT && err != syscall.ENOTDIR {
			config = file // there but unreadable: the full command names it too
		}
	}
	dir, err := autosock.Abs(dir)
	if err != nil {
		return "", "", false
	}
	if config != "" {
		if config, err = autosock.Abs(config); err != nil {
			return "", "", false
		}
	}
	return dir, config, true
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
	bin := getenv(fullEnv)
	if bin == "" {
		exe, err := executable()
		if err != nil {
			fail("cannot find the full hookhost: " + err.Error() + " (set $" + fullEnv + ")")
		}
		bin = path.Join(path.Dir(exe), "hookhost")
	}
	if read != nil {
		if err := replayStdin(read); err != nil {
			fail("replaying stdin to hookhost: " + err.Error())
		}
	}
	err := syscall.Exec(bin, append([]string{bin}, args...), syscall.Environ())
	fail("executing " + bin + ": " + err.Error() + " (install hookhost beside hookhost-hook, or set $" + fullEnv + ")")
}

// replayStdin makes stdin what was read followed by what was not (a
// read cut short by the limit or an error): an unlinked temporary file
// holding both becomes file descriptor 0.
func replayStdin(read []byte) error {
	fd, err := tempFile()
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if err := writeAll(fd, read); err != nil {
		return err
	}
	if err := copyRest(fd, 0); err != nil {
		return err
	}
	if _, err := syscall.Seek(fd, 0, 0); err != nil {
		return err
	}
	return dupOnto(fd, 0)
}

// tempFile creates a file only this user can read in the temporary
// directory ($TMPDIR, else /tmp) and unlinks it at once.
func tempFile() (int, error) {
	dir := getenv("TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	var tv syscall.Timeval
	syscall.Gettimeofday(&tv)
	seed := uint64(tv.Nano()) ^ uint64(syscall.Getpid())<<32
	for try := range 100 {
		// O_EXCL: a name someone else made (even a symbolic link) is
		// never opened, only skipped.
		name := path.Join(dir, "hookhost-hook-"+strconv.FormatUint(seed+uint64(try)*0x9e3779b97f4a7c15, 36))
		fd, err := openFile(name, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL, 0o600)
		if err == syscall.EEXIST {
			continue
		}
		if err != nil {
			return -1, err
		}
		syscall.Unlink(name)
		return fd, nil
	}
	return -1, syscall.EEXIST
}

// copyRest copies what is left to read on from into to.
func copyRest(to, from int) error {
	buf := make([]byte, 64<<10)
	for {
		n, err := read(from, buf)
		if n > 0 {
			if err := writeAll(to, buf[:n]); err != nil {
				return err
			}
		}
		if err != nil || n == 0 {
			return err
		}
	}
}

// readAll reads fd to its end, or until it has read more than limit
// bytes (the caller tells those apart).
func readAll(fd, limit int) ([]byte, error) {
	buf := make([]byte, 0, 16<<10)
	for len(buf) <= limit {
		if len(buf) == cap(buf) {
			buf = append(buf, make([]byte, len(buf))...)[:len(buf)]
		}
		n, err := read(fd, buf[len(buf):min(cap(buf), limit+1)])
		buf = buf[:len(buf)+n]
		if err != nil || n == 0 {
			return buf, err
		}
	}
	return buf, nil
}

// read is one read(2) of fd, waiting when fd does not block (an agent's
// pipe may not) and retrying when a signal cuts it short.
func read(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, b)
		switch err {
		case nil:
			return n, nil
		case syscall.EINTR:
		case syscall.EAGAIN:
			if err := waitFD(fd, false); err != nil {
				return 0, err
			}
		default:
			return 0, err
		}
	}
}

// writeAll writes all of b to fd, as read reads.
func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		switch err {
		case nil:
			if n <= 0 {
				return syscall.EIO
			}
			b = b[n:]
		case syscall.EINTR:
		case syscall.EAGAIN:
			if err := waitFD(fd, true); err != nil {
				return err
			}
		default:
			return err
		}
	}
	return nil
}

// openFile is open(2), close-on-exec, retried when a signal cuts it short.
func openFile(name string, flags int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Open(name, flags|syscall.O_CLOEXEC, perm)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// printErr writes msg to stderr, whatever comes of it.
func printErr(msg string) { writeAll(2, []byte(msg)) }

// fail reports that hookhost could not be run at all, and blocks.
func fail(msg string) {
	printErr("hookhost-hook: " + msg + "\n")
	syscall.Exit(2)
}
