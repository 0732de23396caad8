package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// claudeSwitches reads Claude Code's settings that stop hooks from
// running. disableAllHooks turns off every hook when managed settings set
// it, and otherwise those outside managed settings (a user cannot turn
// off an administrator's hooks). allowManagedHooksOnly, honoured only in
// managed settings, leaves only the managed hooks running.
func claudeSwitches(doc map[string]any, file string, managed bool) ([]Switch, error) {
	var out []Switch
	if v, ok, err := flag(doc, "disableAllHooks"); err != nil {
		return nil, err
	} else if ok {
		// Two settings in one name: the managed files' value and the
		// others', each merged on its own.
		key := "disableAllHooks"
		if managed {
			key = "managed " + key
		}
		out = append(out, Switch{Key: key, Unmanaged: !managed, Off: v,
			Why: fmt.Sprintf("hooks are disabled: disableAllHooks is true in %s", file)})
	}
	if !managed {
		return out, nil
	}
	if v, ok, err := flag(doc, "allowManagedHooksOnly"); err != nil {
		return nil, err
	} else if ok {
		out = append(out, Switch{Key: "allowManagedHooksOnly", Unmanaged: true, Off: v,
			Why: fmt.Sprintf("only managed hooks run: allowManagedHooksOnly is true in %s", file)})
	}
	return out, nil
}

// codexSwitches reads Codex's hooks feature in a config.toml: on unless
// [features] turns it off. "hooks" is the key's name; "codex_hooks" the
// older one Codex still reads, which "hooks" wins over.
func codexSwitches(doc map[string]any, file string, _ bool) ([]Switch, error) {
	features, err := field[map[string]any](doc, "features", "features")
	if err != nil || features == nil {
		return nil, err
	}
	for _, key := range []string{"hooks", "codex_hooks"} {
		v, ok, err := flag(features, key)
		if err != nil {
			return nil, fmt.Errorf("features.%w", err)
		}
		if ok {
			return []Switch{{Key: "features.hooks", Off: !v,
				Why: fmt.Sprintf("hooks are disabled in %s ([features] %s = false in %s)", filepath.Base(file), key, file)}}, nil
		}
	}
	return nil, nil
}

// flag is doc[key] as a boolean, and whether it is set.
func flag(doc map[string]any, key string) (v, ok bool, err error) {
	if _, ok = doc[key]; !ok {
		return false, false, nil
	}
	v, err = field[bool](doc, key, key)
	return v, err == nil, err
}

// codexTrust says why Codex would not load a project's .codex/ settings:
// it loads them only for a project the user trusts, which the user's
// config.toml records as [projects."DIR"] trust_level = "trusted", DIR
// being the project's root (the nearest directory up with a .git, else
// the directory itself). Codex asks once, in the project, and writes the
// entry.
func codexTrust(userDocs []map[string]any, project string) string {
	dirs := []string{filepath.Clean(project)}
	if root := gitRoot(project); root != "" && root != dirs[0] {
		dirs = append(dirs, root)
	}
	level := ""
	for _, doc := range userDocs {
		projects, _ := doc["projects"].(map[string]any)
		for key, v := range projects {
			entry, _ := v.(map[string]any)
			if t, ok := entry["trust_level"].(string); ok && slices.Contains(dirs, filepath.Clean(key)) {
				level = t
			}
		}
	}
	switch level {
	case "trusted":
		return ""
	case "":
		return fmt.Sprintf("Codex loads a project's .codex/ only once you trust the project, and no config.toml of yours has "+
			"[projects.%q] trust_level = \"trusted\" (trust it when Codex asks in the project, or add the entry)", dirs[len(dirs)-1])
	}
	return fmt.Sprintf("Codex does not load this project's .codex/: its trust_level is %q", level)
}

// gitRoot is the nearest directory from dir up that holds .git, or "".
func gitRoot(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
