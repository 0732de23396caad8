package doctor

import (
	"fmt"
	"time"
)

// flatEntries reads the shape Cursor and Copilot CLI share:
// {"version": 1, "hooks": {EVENT: [{"command": …, …}]}}, one list of
// entries per event, each with its own matcher. Copilot's entries say
// "bash" (or "command", copied there), or "exec" with "args"; its
// timeouts are "timeoutSec" (or "timeout"), in seconds. A file whose
// "disableAllHooks" is true has no entries.
func flatEntries(doc map[string]any, event string) ([]Entry, error) {
	version, err := field[float64](doc, "version", "version")
	if err != nil {
		return nil, err
	}
	if _, ok := doc["version"]; ok && version != 1 {
		return nil, fmt.Errorf("version %v: the agent refuses the file (want 1)", version)
	}
	if off, err := field[bool](doc, "disableAllHooks", "disableAllHooks"); err != nil || off {
		return nil, err
	}
	hooks, err := field[map[string]any](doc, "hooks", "hooks")
	if err != nil || hooks == nil {
		return nil, err
	}
	path := "hooks." + event
	list, err := field[[]any](hooks, event, path)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for i, h := range list {
		e, err := flatEntry(h, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// flatEntry reads one entry of a flat hooks file.
func flatEntry(v any, path string) (Entry, error) {
	e, err := entry(v, path)
	if err != nil {
		return Entry{}, err
	}
	h := v.(map[string]any) // entry checked it
	for _, f := range []struct {
		key string
		to  *string
	}{{"matcher", &e.Matcher}, {"bash", &e.Command}, {"exec", &e.Exec}, {"cwd", &e.Cwd}} {
		s, err := field[string](h, f.key, path+"."+f.key)
		if err != nil {
			return Entry{}, err
		}
		if s != "" {
			*f.to = s
		}
	}
	if e.Command != "" && e.Exec != "" {
		return Entry{}, fmt.Errorf("%s: both a command and exec: the agent refuses the entry", path)
	}
	args, err := field[[]any](h, "args", path+".args")
	for _, a := range args {
		s, ok := a.(string)
		if !ok {
			return Entry{}, fmt.Errorf("%s.args: want strings", path)
		}
		e.Args = append(e.Args, s)
	}
	if err != nil {
		return Entry{}, err
	}
	if e.Env, err = stringMap(h, "env", path+".env"); err != nil {
		return Entry{}, err
	}
	if e.FailClosed, err = field[bool](h, "failClosed", path+".failClosed"); err != nil {
		return Entry{}, err
	}
	secs, err := field[float64](h, "timeoutSec", path+".timeoutSec")
	if err != nil {
		return Entry{}, err
	}
	if secs < 0 {
		return Entry{}, fmt.Errorf("%s.timeoutSec: want a positive number, got %v", path, secs)
	}
	if secs > 0 {
		e.Timeout = time.Duration(secs)
	}
	return e, nil
}
