package lua

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
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
const programFormat = "lua program v2"

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
	sum := src.CodeSum() // the host's hash of the file, when it gives one
	h.Write(sum[:])
	return "lua-" + hex.EncodeToString(h.Sum(nil))
}

// The encoding (programFormat). Decoding it is most of what a command
// hook's process spends on a cached file, so it is laid out to be
// decoded with few allocations:
//
//   - first every string the prototypes use (source name, string
//     constants, names of locals, calls and upvalues), each once, in
//     ascending order: the strings are cut from one copy of that part,
//     and a string constant used by many functions is boxed once;
//   - then how many prototypes, instructions, constants, line numbers,
//     locals, calls and upvalue names there are in all, so that each
//     kind is allocated once for the whole program and every prototype
//     takes its part;
//   - then the prototypes, depth first, strings as indexes into the
//     list, line numbers as differences from the previous one.
//
// Every string of the list is used and the totals are exact, so what
// decodes encodes back to the same bytes.

// Constant tags in the encoding: gopher-lua's compiler only makes number
// and string constants.
const (
	constNumber = 'n'
	constString = 's'
)

// protoTotals are how many of each part a program's prototypes have.
type protoTotals struct {
	protos, code, consts, positions, locals, calls, upvalues int
}

// fields lists the totals in their order in the encoding, with the
// fewest bytes each element takes in what follows (line numbers come in
// runs: there are at most as many as instructions).
func (t *protoTotals) fields() []struct {
	n   *int
	min int
} {
	return []struct {
		n   *int
		min int
	}{{&t.protos, 14}, {&t.code, 4}, {&t.consts, 2}, {&t.positions, 0}, {&t.locals, 3}, {&t.calls, 2}, {&t.upvalues, 1}}
}

// encodeProto appends p's encoding to b.
func encodeProto(b []byte, p *lua.FunctionProto) ([]byte, error) {
	var totals protoTotals
	index := map[string]int{}
	if err := gatherProto(p, &totals, index); err != nil {
		return nil, err
	}
	strs := make([]string, 0, len(index))
	for s := range index {
		strs = append(strs, s)
	}
	slices.Sort(strs)
	for i, s := range strs {
		index[s] = i
	}
	b = binary.AppendUvarint(b, uint64(len(strs)))
	for _, s := range strs {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	for _, f := range totals.fields() {
		b = binary.AppendUvarint(b, uint64(*f.n))
	}
	return appendProto(b, p, index), nil
}

// gatherProto counts p's parts into totals and its strings into index.
func gatherProto(p *lua.FunctionProto, totals *protoTotals, index map[string]int) error {
	totals.protos++
	totals.code += len(p.Code)
	totals.consts += len(p.Constants)
	totals.positions += len(p.DbgSourcePositions)
	totals.locals += len(p.DbgLocals)
	totals.calls += len(p.DbgCalls)
	totals.upvalues += len(p.DbgUpvalues)
	index[p.SourceName] = 0
	for _, c := range p.Constants {
		switch c := c.(type) {
		case lua.LNumber:
		case lua.LString:
			index[string(c)] = 0
		default:
			return fmt.Errorf("constant of type %s cannot be encoded", c.Type())
		}
	}
	for _, l := range p.DbgLocals {
		index[l.Name] = 0
	}
	for _, c := range p.DbgCalls {
		index[c.Name] = 0
	}
	for _, name := range p.DbgUpvalues {
		index[name] = 0
	}
	for _, child := range p.FunctionPrototypes {
		if err := gatherProto(child, totals, index); err != nil {
			return err
		}
	}
	return nil
}

// appendProto appends p, its strings numbered by index.
func appendProto(b []byte, p *lua.FunctionProto, index map[string]int) []byte {
	str := func(b []byte, s string) []byte { return binary.AppendUvarint(b, uint64(index[s])) }
	b = str(b, p.SourceName)
	b = binary.AppendVarint(b, int64(p.LineDefined))
	b = binary.AppendVarint(b, int64(p.LastLineDefined))
	b = append(b, p.NumUpvalues, p.NumParameters, p.IsVarArg, p.NumUsedRegisters)
	b = binary.AppendUvarint(b, uint64(len(p.Code)))
	for _, inst := range p.Code {
		b = binary.LittleEndian.AppendUint32(b, inst)
	}
	b = binary.AppendUvarint(b, uint64(len(p.Constants)))
	for _, c := range p.Constants {
		if n, ok := c.(lua.LNumber); ok {
			b = append(b, constNumber)
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(n)))
		} else {
			b = str(append(b, constString), string(c.(lua.LString)))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(p.FunctionPrototypes)))
	for _, child := range p.FunctionPrototypes {
		b = appendProto(b, child, index)
	}
	b = appendPositions(b, p.DbgSourcePositions)
	b = binary.AppendUvarint(b, uint64(len(p.DbgLocals)))
	for _, l := range p.DbgLocals {
		b = str(b, l.Name)
		b = binary.AppendVarint(b, int64(l.StartPc))
		b = binary.AppendVarint(b, int64(l.EndPc))
	}
	b = binary.AppendUvarint(b, uint64(len(p.DbgCalls)))
	for _, c := range p.DbgCalls {
		b = str(b, c.Name)
		b = binary.AppendVarint(b, int64(c.Pc))
	}
	b = binary.AppendUvarint(b, uint64(len(p.DbgUpvalues)))
	for _, name := range p.DbgUpvalues {
		b = str(b, name)
	}
	return b
}

// appendPositions appends the line numbers of a prototype's
// instructions: how many, then runs of instructions on one line, each
// as the difference from the previous run's line (never 0 but for the
// first) and its length.
func appendPositions(b []byte, lines []int) []byte {
	b = binary.AppendUvarint(b, uint64(len(lines)))
	prev := 0
	for i := 0; i < len(lines); {
		n := 1
		for i+n < len(lines) && lines[i+n] == lines[i] {
			n++
		}
		b = binary.AppendVarint(b, int64(lines[i]-prev))
		b = binary.AppendUvarint(b, uint64(n))
		prev, i = lines[i], i+n
	}
	return b
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
	d := protoDecoder{data: data}
	d.strings()
	d.allocate()
	p := d.proto(0)
	if d.err != nil {
		return nil, d.err
	}
	if len(d.data) != 0 || d.unused != 0 || !d.allTaken() {
		return nil, errBadProgram
	}
	return p, nil
}

// A protoDecoder decodes one program.
type protoDecoder struct {
	data []byte // what is left to decode
	err  error

	strs []string
	// boxes are strs as Lua values, boxed on first use as a constant;
	// used tells which strs were used, unused how many were not.
	boxes  []lua.LValue
	used   []bool
	unused int

	// What the prototypes take their parts from, allocated once.
	protos    []lua.FunctionProto
	children  []*lua.FunctionProto
	code      []uint32
	consts    []lua.LValue
	strConsts []string
	lines     []int
	locals    []lua.DbgLocalInfo
	localPtrs []*lua.DbgLocalInfo
	calls     []lua.DbgCall
	upvalues  []string
}

func (d *protoDecoder) fail() {
	if d.err == nil {
		d.err = errBadProgram
	}
	d.data = nil
}

func (d *protoDecoder) uvarint() uint64 {
	if len(d.data) > 0 && d.data[0] < 0x80 { // most are one byte
		v := d.data[0]
		d.data = d.data[1:]
		return uint64(v)
	}
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.data = d.data[n:]
	return v
}

func (d *protoDecoder) int() int {
	if len(d.data) > 0 && d.data[0] < 0x80 { // most are one byte
		b := d.data[0]
		d.data = d.data[1:]
		v := int(b >> 1) // as binary.Varint undoes its zigzag
		if b&1 != 0 {
			v = ^v
		}
		return v
	}
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

// strings reads the list of strings: lengths first, to copy the part
// they are in once, then the strings cut from the copy.
func (d *protoDecoder) strings() {
	n := d.count(1)
	all, lens := d.data, make([]int, n)
	for i := range lens {
		lens[i] = d.count(1)
		d.bytes(lens[i])
	}
	if d.err != nil {
		return
	}
	text := string(all[:len(all)-len(d.data)])
	d.strs, d.boxes, d.used, d.unused = make([]string, n), make([]lua.LValue, n), make([]bool, n), n
	at := 0
	for i, l := range lens {
		_, size := binary.Uvarint(all[at:]) // read above
		d.strs[i] = text[at+size : at+size+l]
		at += size + l
		if i > 0 && d.strs[i-1] >= d.strs[i] { // not the ascending list encodeProto writes
			d.fail()
			return
		}
	}
}

// str is the string an index names.
func (d *protoDecoder) str() (string, int) {
	i := d.uvarint()
	if i >= uint64(len(d.strs)) {
		d.fail()
		return "", 0
	}
	if !d.used[i] {
		d.used[i] = true
		d.unused--
	}
	return d.strs[i], int(i)
}

func (d *protoDecoder) string() string {
	s, _ := d.str()
	return s
}

// allocate reads the totals and allocates the parts.
func (d *protoDecoder) allocate() {
	var t protoTotals
	for _, f := range t.fields() {
		if f.min == 0 {
			if *f.n = int(d.uvarint()); uint64(*f.n) > uint64(t.code) {
				d.fail()
			}
			continue
		}
		*f.n = d.count(f.min)
	}
	if d.err != nil || t.protos == 0 {
		d.fail()
		return
	}
	d.protos = make([]lua.FunctionProto, t.protos)
	d.children = make([]*lua.FunctionProto, t.protos-1)
	d.code = make([]uint32, t.code)
	d.consts = make([]lua.LValue, t.consts)
	d.strConsts = make([]string, t.consts)
	d.lines = make([]int, t.positions)
	d.locals = make([]lua.DbgLocalInfo, t.locals)
	d.localPtrs = make([]*lua.DbgLocalInfo, t.locals)
	d.calls = make([]lua.DbgCall, t.calls)
	d.upvalues = make([]string, t.upvalues)
}

// take cuts the next n elements off *from, or fails when fewer are left.
func take[T any](d *protoDecoder, from *[]T, n int) []T {
	if n > len(*from) {
		d.fail()
		return nil
	}
	part := (*from)[:n:n]
	*from = (*from)[n:]
	return part
}

// allTaken reports whether the prototypes took every part allocated.
func (d *protoDecoder) allTaken() bool {
	return len(d.protos)+len(d.children)+len(d.code)+len(d.consts)+len(d.lines)+
		len(d.locals)+len(d.calls)+len(d.upvalues) == 0
}

func (d *protoDecoder) proto(depth int) *lua.FunctionProto {
	ps := take(d, &d.protos, 1)
	if depth > maxProtoDepth || ps == nil {
		d.fail()
		return nil
	}
	p := &ps[0]
	p.SourceName, p.LineDefined, p.LastLineDefined = d.string(), d.int(), d.int()
	if head := d.bytes(4); head != nil {
		p.NumUpvalues, p.NumParameters, p.IsVarArg, p.NumUsedRegisters = head[0], head[1], head[2], head[3]
	}
	p.Code = take(d, &d.code, d.count(4))
	if b := d.bytes(4 * len(p.Code)); b != nil {
		for i := range p.Code {
			p.Code[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
	}
	d.constants(p)
	p.FunctionPrototypes = take(d, &d.children, d.count(14))
	for i := range p.FunctionPrototypes {
		if d.err != nil {
			return nil
		}
		p.FunctionPrototypes[i] = d.proto(depth + 1)
	}
	d.debugInfo(p)
	if d.err != nil {
		return nil
	}
	return p
}

// constants reads p's constants; a string constant is boxed once for
// the whole program.
func (d *protoDecoder) constants(p *lua.FunctionProto) {
	n := d.count(2)
	p.Constants = take(d, &d.consts, n)
	strs := take(d, &d.strConsts, n)
	for i := range p.Constants {
		switch tag := d.bytes(1); {
		case tag == nil:
			return
		case tag[0] == constNumber:
			if b := d.bytes(8); b != nil {
				p.Constants[i] = numberValue(math.Float64frombits(binary.LittleEndian.Uint64(b)))
			}
		case tag[0] == constString:
			s, at := d.str()
			if d.err != nil {
				return
			}
			if d.boxes[at] == nil {
				d.boxes[at] = lua.LString(s)
			}
			strs[i], p.Constants[i] = s, d.boxes[at]
		default:
			d.fail()
			return
		}
	}
	if d.err == nil {
		setStringConstants(p, strs)
	}
}

// numberValue is f as a Lua value, not boxed for a small integer.
func numberValue(f float64) lua.LValue {
	if n := int(f); f >= 0 && f < 256 && math.Float64bits(float64(n)) == math.Float64bits(f) {
		return intValue(n)
	}
	return lua.LNumber(f)
}

// positions reads the line numbers of p's instructions, refusing runs
// appendPositions does not write (empty, or on the line of the run
// before).
func (d *protoDecoder) positions(p *lua.FunctionProto) {
	n := d.uvarint()
	if n > uint64(len(d.lines)) {
		d.fail()
		return
	}
	lines := take(d, &d.lines, int(n))
	p.DbgSourcePositions = lines
	line := 0
	for i := 0; i < len(lines) && d.err == nil; {
		delta, run := d.int(), d.uvarint()
		if (delta == 0 && i > 0) || run == 0 || run > uint64(len(lines)-i) {
			d.fail()
			return
		}
		line += delta
		for end := i + int(run); i < end; i++ {
			lines[i] = line
		}
	}
}

// debugInfo reads p's line numbers and names of locals, calls and
// upvalues.
func (d *protoDecoder) debugInfo(p *lua.FunctionProto) {
	d.positions(p)
	n := d.count(3)
	locals := take(d, &d.locals, n)
	p.DbgLocals = take(d, &d.localPtrs, n)
	for i := range locals {
		locals[i] = lua.DbgLocalInfo{Name: d.string(), StartPc: d.int(), EndPc: d.int()}
		p.DbgLocals[i] = &locals[i]
	}
	p.DbgCalls = take(d, &d.calls, d.count(2))
	for i := range p.DbgCalls {
		p.DbgCalls[i] = lua.DbgCall{Name: d.string(), Pc: d.int()}
	}
	p.DbgUpvalues = take(d, &d.upvalues, d.count(1))
	for i := range p.DbgUpvalues {
		p.DbgUpvalues[i] = d.string()
	}
}

// setStringConstants sets p's unexported stringConstants (see the top
// of this file); only called when cacheable.
func setStringConstants(p *lua.FunctionProto, strs []string) {
	*(*[]string)(unsafe.Add(unsafe.Pointer(p), stringConstantsField)) = strs
}
