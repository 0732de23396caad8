package shell

import (
	"fmt"
	"strings"
)

// interp reports an interpreter with the code it runs, then the
// commands its code runs: the command lines of "shell" calls, parsed as
// scripts, and the argvs of "exec" calls, both wrapped by it.
func (w *walker) interp(r *run, args []arg, wrapped, inner []string, dyn bool, hops int, ic *interpCode) error {
	ci := &codeInfo{lang: ic.lang}
	codeDyn := false
	switch {
	case len(ic.code) > 0:
		ci.code, codeDyn, ci.nodes = ic.codeText()
	case ic.file != nil:
		ci.nodes = ic.file.substs
	case ic.stdin:
		ci.stdin, ci.fd = ic.fd == 0, ic.fd // a pipe feeds descriptor 0 only
		var parts []string
		for _, s := range fdScripts(r, ic.fd) {
			parts = append(parts, s.text)
			codeDyn = codeDyn || s.dynamic
		}
		ci.code = strings.Join(parts, "\n")
	}
	if ci.code != "" {
		if err := w.admit(r.sc, ci.code); err != nil {
			return err
		}
		calls, err := scanCalls(ic.lang, ci.code)
		if err != nil {
			return fmt.Errorf("%s code: %w", args[0].base, err)
		}
		ci.calls = calls
	}
	if err := w.emit(r, args, wrapped, dyn, ci); err != nil {
		return err
	}
	for _, c := range ci.calls {
		if err := w.codeCall(r, c, inner, dyn || codeDyn, hops); err != nil {
			return err
		}
	}
	return nil
}

// codeCall reports what one call in an interpreter's code runs.
func (w *walker) codeCall(r *run, c Call, inner []string, dyn bool, hops int) error {
	switch {
	case c.Kind == "shell" && !c.Dynamic:
		return w.script(r, scriptText{text: c.Args[0], dynamic: dyn}, inner, dyn)
	case c.Kind == "exec":
		argv := make([]arg, len(c.Args))
		for i, a := range c.Args {
			argv[i] = staticArg(a)
			if c.argDyn[i] {
				argv[i] = arg{text: a, raw: a, base: a, dynamic: true}
			}
		}
		return w.run(r, argv, inner, dyn, hops+1)
	}
	return nil
}
