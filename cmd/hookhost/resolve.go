package main

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/hookhost/hookhost/host"
)

// Which hooks directory and which config file a command reads is decided
// here, and only here, for every command: a directory given one way to
// serve and another to check would make check vouch for hooks serve does
// not run.

const (
	// dirEnv names the hooks directory when neither --dir nor a DIR
	// argument does.
	dirEnv = "HOOKHOST_DIR"
	// configEnv names the config file when --config does not.
	configEnv = "HOOKHOST_CONFIG"
	// dirConfigName is the config file a hooks directory may hold (hookhost
	// init writes one): a command reads it when neither --config nor
	// $HOOKHOST_CONFIG names another.
	dirConfigName = "hookhost.yaml"
)

// A configSource says where the config file a command reads was named.
type configSource string

const (
	noConfig       configSource = ""
	configFromFlag configSource = "--config"
	configFromEnv  configSource = "$" + configEnv
	configFromDir  configSource = "the hooks directory"
)

// takeDir takes a command's optional DIR argument, which stands in for
// --dir; both may be given only when they agree.
func (o *commonOptions) takeDir(cmd string, args []string) error {
	switch {
	case len(args) > 1:
		return usageErrorf("%s: want at most one directory, got %d arguments (see hookhost %s --help)", cmd, len(args), cmd)
	case len(args) == 0:
		return nil
	case o.Dir != "" && o.Dir != args[0]:
		return usageErrorf("%s: the directory is given twice (%s and --dir %s)", cmd, args[0], o.Dir)
	}
	o.Dir = args[0]
	return nil
}

// resolvePaths settles the hooks directory (--dir or the DIR argument,
// else $HOOKHOST_DIR, else ./hooks.d) and then the config (see
// resolveConfig), with env looking up the environment.
func (o *commonOptions) resolvePaths(env func(string) string) {
	if o.Dir == "" {
		o.Dir = env(dirEnv)
	}
	if o.Dir == "" {
		o.Dir = defaultDir
	}
	o.Config, o.configFrom = resolveConfig(o.Config, env(configEnv), o.Dir)
}

// resolveConfig names the config file a command reads: the --config
// flag, else $HOOKHOST_CONFIG, else hookhost.yaml in the hooks directory
// when it is there; "" when none of them names one. A hookhost.yaml that
// is there but cannot be read is still named, so that loading it fails
// with its error instead of the command running without it.
func resolveConfig(flag, env, dir string) (string, configSource) {
	switch {
	case flag != "":
		return flag, configFromFlag
	case env != "":
		return env, configFromEnv
	}
	path := filepath.Join(dir, dirConfigName)
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return "", noConfig // (a hooks "directory" that is a file: loading the hooks says so)
	}
	return path, configFromDir
}

// configNote says which config file the command reads and why, for
// check and serve's start-up log.
func (o *commonOptions) configNote() string {
	switch o.configFrom {
	case noConfig:
		return "none (no --config, no $" + configEnv + ", no " + filepath.Join(o.Dir, dirConfigName) + ")"
	case configFromDir:
		return o.Config + " (found in the hooks directory)"
	}
	return fmt.Sprintf("%s (%s)", o.Config, o.configFrom)
}

// unmatchedConfig reports the config's hooks entries that name no
// loaded file or hook, in the order of the file: they would silently
// configure nothing. A hook id in a file that never compiled cannot be
// checked and is left alone, and so are the files in hidden (which the
// command did not load: the event cache's view).
func unmatchedConfig(cfg *host.Config, files []host.FileStatus, hooks []host.HookInfo, hidden []string) []error {
	if cfg == nil {
		return nil
	}
	byPath := map[string]host.FileStatus{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	for _, path := range hidden {
		byPath[path] = host.FileStatus{Path: path} // no version: its hooks cannot be checked
	}
	ids := map[string]bool{}
	for _, h := range hooks {
		ids[h.ID] = true
	}
	keys := slices.Sorted(maps.Keys(cfg.Hooks))
	slices.SortStableFunc(keys, func(a, b string) int { return cfg.Hooks[a].Line - cfg.Hooks[b].Line })
	var errs []error
	for _, key := range keys {
		if msg := unmatched(key, byPath, ids); msg != "" {
			errs = append(errs, &host.ConfigError{File: cfg.Path, Line: cfg.Hooks[key].Line,
				Msg: fmt.Sprintf("hooks.%s: %s", key, msg)})
		}
	}
	return errs
}

// unmatched says why a hooks key matches nothing, or "" when it matches
// (or cannot be checked).
func unmatched(key string, files map[string]host.FileStatus, ids map[string]bool) string {
	if _, ok := files[key]; ok || ids[key] {
		return ""
	}
	if strings.HasSuffix(key, "/") { // a hook pack
		for path := range files {
			if strings.HasPrefix(path, key) {
				return ""
			}
		}
		return fmt.Sprintf("no hook pack %s in the hooks directory", key)
	}
	for path, f := range files {
		if name, ok := strings.CutPrefix(key, path+":"); ok {
			if f.Version == "" {
				return ""
			}
			return fmt.Sprintf("%s registers no hook named %q", path, name)
		}
	}
	file, _, err := host.SplitHookKey(key)
	if err != nil { // not from a loaded config, which refuses such a key
		file = key
	}
	return fmt.Sprintf("no script file %s in the hooks directory", file)
}
