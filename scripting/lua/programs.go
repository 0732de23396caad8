package lua

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
)

// A command hook starts a process for every tool call, and parsing and
// compiling the shipped Lua packs (about 130 KB of source) was half of
// what such a process spent. So, as the Starlark engine does, the Lua
// engine keeps what it compiled in the host's program cache
// (scripting.ProgramCache) and decodes it on the next start instead.
//
// gopher-lua has no dump or undump of its bytecode, so the encoding is
// ours: every field of lua.FunctionProto, recursively. One field is
// unexported — stringConstants, the string form of each constant, which
// the virtual machine indexes on every global access and string key —
// and is derived from the constants exactly as gopher-lua's compiler
// derives it; it is set through reflect. If a gopher-lua upgrade renames
// or retypes that field, stringConstantsField is not found and the
// cache is simply not used (every file compiles from source); a test
// checks that decoding gives back what compiling gave, field for field,
// unexported ones included.

// programFormat names this encoding in the cache key: a change to it
// must change this string, so that no build decodes another's bytes.
const programFormat = "lua program v1"

// stringConstantsField is the byte offset of FunctionProto's unexported
// stringConstants field, or -1 when this gopher-lua has no such []string
// field (then programs are never cached).
var stringConstantsField = func() uintptr {
	f, ok := reflect.TypeFor[lua.FunctionProto]().FieldByName("stringConstants")
	if !ok || f.Type != reflect.TypeFor[[]string]() {
		return ^uintptr(0)
	}
	return f.Offset
}()

func cacheable() bool { return stringConstantsField != ^uintptr(0) }

// compileProgram is src's compiled prototype: decoded from programs when
// it holds a sealed encoding for this source, and otherwise compiled from
// source and offered to it. A file that does not compile is never put, so
// its errors always come from its source.
func compileProgram(src scripting.Source, programs scripting.ProgramCache) (*lua.FunctionProto, error) {
	if programs == nil || !cacheable() {
		return compile(src)
	}
	key := programKey(src)
	if data, ok := scripting.Unseal(programs.Get(key)); ok {
		if proto, err := decodeProto(data); err == nil {
			return proto, nil
		}
	}
	proto, err := compile(src)
	if err != nil {
		return nil, err
	}
	if data, err := encodeProto(make([]byte, scripting.SealSize, 4096), proto); err == nil {
		programs.Put(key, scripting.Seal(data))
	}
	return proto, nil
}

// programKey names src's compiled prototype: what compiling depends on
// in one build of hookhost — the encoding, the file's name (which
// positions and tracebacks carry) and its content. The rewrite applied
// before compiling is the build's, which the cache's salt covers.
func programKey(src scripting.Source) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d:%s\x00", programFormat, len(src.Name), src.Name)
	h.Write(src.Code)
	return "lua-" + hex.EncodeToString(h.Sum(nil))
}

// Constant tags in the encoding: gopher-lua's compiler only makes number
// and string constants.
const (
	constNumber = 'n'
	constString = 's'
)

// encodeProto appends p's encoding to b.
func encodeProto(b []byte, p *lua.FunctionProto) ([]byte, error) {
	b = appendString(b, p.SourceName)
	b = binary.AppendVarint(b, int64(p.LineDefined))
	b = binary.AppendVarint(b, int64(p.LastLineDefined))
	b = append(b, p.NumUpvalues, p.NumParameters, p.IsVarArg, p.NumUsedRegisters)
	b = binary.AppendUvarint(b, uint64(len(p.Code)))
	for _, inst := range p.Code {
		b = binary.LittleEndian.AppendUint32(b, inst)
	}
	b = binary.AppendUvarint(b, uint64(len(p.Constants)))
	for _, c := range p.Constants {
		switch c := c.(type) {
		case lua.LNumber:
			b = append(b, constNumber)
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(c)))
		case lua.LString:
			b = append(b, constString)
			b = appendString(b, string(c))
		default:
			return nil, fmt.Errorf("constant of type %s cannot be encoded", c.Type())
		}
	}
	b = binary.AppendUvarint(b, uint64(len(p.FunctionPrototypes)))
	for _, child := range p.FunctionPrototypes {
		var err error
		if b, err = encodeProto(b, child); err != nil {
			return nil, err
		}
	}
	b = binary.AppendUvarint(b, uint64(len(p.DbgSourcePositions)))
	for _, pos := range p.DbgSourcePositions {
		b = binary.AppendVarint(b, int64(pos))
	}
	b = binary.AppendUvarint(b, uint64(len(p.DbgLocals)))
	for _, l := range p.DbgLocals {
		b = appendString(b, l.Name)
		b = binary.AppendVarint(b, int64(l.StartPc))
		b = binary.AppendVarint(b, int64(l.EndPc))
	}
	b = binary.AppendUvarint(b, uint64(len(p.DbgCalls)))
	for _, c := range p.DbgCalls {
		b = appendString(b, c.Name)
		b = binary.AppendVarint(b, int64(c.Pc))
	}
	b = binary.AppendUvarint(b, uint64(len(p.DbgUpvalues)))
	for _, name := range p.DbgUpvalues {
		b = appendString(b, name)
	}
	return b, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// errBadProgram is what decoding bytes that are not a whole encoding
// gives; the caller compiles from source instead.
var errBadProgram = errors.New("lua: cached program is damaged")

// maxProtoDepth bounds the nesting of function prototypes decoded:
// gopher-lua's own parser stops far below it.
const maxProtoDepth = 200

// decodeProto decodes what encodeProto wrote. The bytes come from a cache
// sealed against accidents, not against a writer, so every length is
// checked against what is left and nothing it reads can make it panic.
func decodeProto(data []byte) (*lua.FunctionProto, error) {
	// Strings are cut from one copy of the whole encoding: a program has
	// thousands of names and constants, and one allocation for all of
	// them is a good part of what decoding saves over compiling.
	d := protoDecoder{data: data, text: string(data), size: len(data)}
	p := d.proto(0)
	if d.err != nil {
		return nil, d.err
	}
	if len(d.data) != 0 {
		return nil, errBadProgram
	}
	return p, nil
}

type protoDecoder struct {
	data []byte // what is left to decode
	text string // the whole encoding, as a string
	size int    // len(text)
	err  error
}

func (d *protoDecoder) fail() {
	if d.err == nil {
		d.err = errBadProgram
	}
	d.data = nil
}

func (d *protoDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.data = d.data[n:]
	return v
}

func (d *protoDecoder) int() int {
	v, n := binary.Varint(d.data)
	if n <= 0 || v != int64(int(v)) {
		d.fail()
		return 0
	}
	d.data = d.data[n:]
	return int(v)
}

// count is a length that must fit in what is left, each element taking
// at least min bytes.
func (d *protoDecoder) count(min int) int {
	n := d.uvarint()
	if n > uint64(len(d.data)/min) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *protoDecoder) bytes(n int) []byte {
	if n > len(d.data) {
		d.fail()
		return nil
	}
	b := d.data[:n]
	d.data = d.data[n:]
	return b
}

func (d *protoDecoder) string() string {
	n := d.count(1)
	at := d.size - len(d.data)
	if d.bytes(n) == nil {
		return ""
	}
	return d.text[at : at+n]
}

func (d *protoDecoder) proto(depth int) *lua.FunctionProto {
	if depth > maxProtoDepth {
		d.fail()
		return nil
	}
	p := &lua.FunctionProto{SourceName: d.string(), LineDefined: d.int(), LastLineDefined: d.int()}
	if head := d.bytes(4); head != nil {
		p.NumUpvalues, p.NumParameters, p.IsVarArg, p.NumUsedRegisters = head[0], head[1], head[2], head[3]
	}
	p.Code = make([]uint32, d.count(4))
	for i := range p.Code {
		b := d.bytes(4)
		if b == nil {
			return nil
		}
		p.Code[i] = binary.LittleEndian.Uint32(b)
	}
	p.Constants = make([]lua.LValue, d.count(2))
	strs := make([]string, len(p.Constants))
	for i := range p.Constants {
		switch tag := d.bytes(1); {
		case tag == nil:
			return nil
		case tag[0] == constNumber:
			if b := d.bytes(8); b != nil {
				p.Constants[i] = lua.LNumber(math.Float64frombits(binary.LittleEndian.Uint64(b)))
			}
		case tag[0] == constString:
			strs[i] = d.string()
			p.Constants[i] = lua.LString(strs[i])
		default:
			d.fail()
			return nil
		}
	}
	p.FunctionPrototypes = make([]*lua.FunctionProto, d.count(1))
	for i := range p.FunctionPrototypes {
		p.FunctionPrototypes[i] = d.proto(depth + 1)
	}
	p.DbgSourcePositions = make([]int, d.count(1))
	for i := range p.DbgSourcePositions {
		p.DbgSourcePositions[i] = d.int()
	}
	locals := make([]lua.DbgLocalInfo, d.count(3))
	p.DbgLocals = make([]*lua.DbgLocalInfo, len(locals))
	for i := range locals {
		locals[i] = lua.DbgLocalInfo{Name: d.string(), StartPc: d.int(), EndPc: d.int()}
		p.DbgLocals[i] = &locals[i]
	}
	p.DbgCalls = make([]lua.DbgCall, d.count(2))
	for i := range p.DbgCalls {
		p.DbgCalls[i] = lua.DbgCall{Name: d.string(), Pc: d.int()}
	}
	p.DbgUpvalues = make([]string, d.count(1))
	for i := range p.DbgUpvalues {
		p.DbgUpvalues[i] = d.string()
	}
	if d.err != nil {
		return nil
	}
	setStringConstants(p, strs)
	return p
}

// setStringConstants sets p's unexported stringConstants (see the top
// of this file); only called when cacheable.
func setStringConstants(p *lua.FunctionProto, strs []string) {
	*(*[]string)(unsafe.Add(unsafe.Pointer(p), stringConstantsField)) = strs
}
