package starlark

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
)

// compileProgram is src's compiled program. With a program cache
// (Env.Programs) it is decoded from the cache when the cache holds one
// for this source, and otherwise compiled and offered to the cache. What
// the cache holds is sealed with its SHA-256: anything that does not
// match — damaged, cut short, not ours — is never decoded (the decoder
// trusts its input), and the file is compiled anew. A file that does not
// compile is never cached, so its error always comes from its source.
func compileProgram(src scripting.Source, predeclared starlark.StringDict, programs scripting.ProgramCache, without speedRewrite) (*starlark.Program, error) {
	if programs == nil {
		return compileSource(src, predeclared, without)
	}
	key := programKey(src, predeclared)
	if data, ok := scripting.Unseal(programs.Get(key)); ok {
		if prog, err := starlark.CompiledProgram(bytes.NewReader(data)); err == nil {
			return prog, nil
		}
	}
	prog, err := compileSource(src, predeclared, without)
	if err != nil {
		return nil, err
	}
	buf := bytes.NewBuffer(make([]byte, scripting.SealSize, 4096))
	if prog.Write(buf) == nil {
		programs.Put(key, scripting.Seal(buf.Bytes()))
	}
	return prog, nil
}

func compileSource(src scripting.Source, predeclared starlark.StringDict, without speedRewrite) (*starlark.Program, error) {
	if err := checkIntLiterals(src.Name, src.Code); err != nil {
		return nil, err
	}
	prog, err := rewrittenProgramWithout(src.Name, src.Code, predeclared, without)
	if err != nil {
		return nil, syntaxError(src.Name, src.Code, err)
	}
	return prog, nil
}

// programKey names src's compiled program: what compiling depends on in
// one build of hookhost — the language options, the predeclared names
// (which the resolver binds), the file's name (which positions carry) and
// its content.
func programKey(src scripting.Source, predeclared starlark.StringDict) string {
	h := sha256.New()
	fmt.Fprintf(h, "starlark program\x00%+v\x00", fileOptions)
	for _, name := range predeclared.Keys() { // sorted
		fmt.Fprintf(h, "%s\x00", name)
	}
	fmt.Fprintf(h, "%d:%s\x00", len(src.Name), src.Name)
	sum := src.CodeSum() // the host's hash of the file, when it gives one
	h.Write(sum[:])
	return "star-" + hex.EncodeToString(h.Sum(nil))
}
