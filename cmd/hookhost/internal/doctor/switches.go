package doctor

import (
	"fmt"
	"path/filepath"
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
		out = append(out, Switch{Key: "disableAllHooks", Unmanaged: !managed, Off: v,
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
