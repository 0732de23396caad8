package starlark

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
)

// str, repr, print and fail, bounded. go.starlark.net writes a value by
// recursion with a linear search of the path for cycles, which makes a
// 300,000-deep list take seconds, and a value that shares sub-values
// (t = [t, t], forty times) expand to 2^40 elements; neither answers the
// interrupt. A printer writes the same text as the originals, stops at a
// depth of maxReprDepth, at a size (Limits.MaxStringSize for str and
// repr, messageMax for print and fail, which are truncated instead of
// failing), checks the call's interrupt as it goes, and charges what it
// builds.

// maxReprDepth bounds how deeply str and repr descend into lists, tuples,
// dicts and sets.
const maxReprDepth = 1000

// messageMax bounds print and fail messages, in bytes; longer ones end
// with "…".
const messageMax = 4 << 10

var (
	errReprTooLong = errors.New("the text would be too long")
	errReprTooDeep = fmt.Errorf("the value nests deeper than %d levels", maxReprDepth)
)

// A printer writes values as go.starlark.net's String methods do, within
// bounds.
type printer struct {
	out    strings.Builder
	max    int
	path   []starlark.Value // lists and dicts being written, for cycles
	thread *starlark.Thread
	meter  meter
}

func newPrinter(thread *starlark.Thread, max int) *printer {
	p := &printer{thread: thread, meter: meterOf(thread)}
	p.max = max
	if p.max <= 0 {
		p.max = p.meter.maxString
	}
	if p.max <= 0 {
		p.max = scripting.DefaultMaxStringSize
	}
	return p
}

// write appends s, or as much of it as fits before failing.
func (p *printer) write(s string) error {
	if room := p.max - p.out.Len(); len(s) > room {
		p.out.WriteString(s[:max(room, 0)])
		return errReprTooLong
	}
	p.out.WriteString(s)
	return nil
}

// value writes x.
func (p *printer) value(x starlark.Value) error {
	if err := p.meter.tick(p.thread); err != nil {
		return err
	}
	switch x := x.(type) {
	case nil:
		return p.write("<nil>")
	case starlark.String:
		return p.write(syntax.Quote(string(x), false))
	case *starlark.List:
		return p.container(x, "[", "]", p.listElems(x))
	case starlark.Tuple:
		closing := ")"
		if len(x) == 1 {
			closing = ",)"
		}
		return p.container(nil, "(", closing, p.seqElems(x))
	case *starlark.Dict:
		return p.container(x, "{", "}", p.dictEntries(x))
	case *starlark.Set:
		return p.container(nil, "set([", "])", p.iterElems(x))
	case *starlark.Function:
		return p.write("<function " + x.Name() + ">")
	case starlark.Int:
		if err := checkDecimal(x); err != nil {
			return err
		}
		return p.write(x.String())
	default:
		return p.write(x.String())
	}
}

// container writes open, the elements, close. A list or dict already on
// the path (self is non-nil) is written "...", like go.starlark.net.
func (p *printer) container(self starlark.Value, open, closing string, elems func() error) error {
	if len(p.path) >= maxReprDepth {
		return errReprTooDeep
	}
	if err := p.write(open); err != nil {
		return err
	}
	if self != nil && slices.Contains(p.path, self) {
		if err := p.write("..."); err != nil {
			return err
		}
		return p.write(closing)
	}
	p.path = append(p.path, self)
	defer func() { p.path = p.path[:len(p.path)-1] }()
	if err := elems(); err != nil {
		return err
	}
	return p.write(closing)
}

func (p *printer) listElems(l *starlark.List) func() error {
	return func() error {
		for i := 0; i < l.Len(); i++ {
			if err := p.sep(i); err != nil {
				return err
			}
			if err := p.value(l.Index(i)); err != nil {
				return err
			}
		}
		return nil
	}
}

func (p *printer) seqElems(t starlark.Tuple) func() error {
	return func() error {
		for i, e := range t {
			if err := p.sep(i); err != nil {
				return err
			}
			if err := p.value(e); err != nil {
				return err
			}
		}
		return nil
	}
}

func (p *printer) iterElems(it starlark.Iterable) func() error {
	return func() error {
		iter := it.Iterate()
		defer iter.Done()
		var e starlark.Value
		for i := 0; iter.Next(&e); i++ {
			if err := p.sep(i); err != nil {
				return err
			}
			if err := p.value(e); err != nil {
				return err
			}
		}
		return nil
	}
}

func (p *printer) dictEntries(d *starlark.Dict) func() error {
	return func() error {
		if err := p.meter.spendN(d.Len(), sliceSize+2*valueSize); err != nil {
			return err
		}
		for i, item := range d.Items() {
			if err := p.sep(i); err != nil {
				return err
			}
			if err := p.keyValue(item[0], item[1]); err != nil {
				return err
			}
		}
		return nil
	}
}

// keyValue writes one dict entry; keys are written outside the dict's
// path, as go.starlark.net does.
func (p *printer) keyValue(k, v starlark.Value) error {
	self := p.path[len(p.path)-1]
	p.path = p.path[:len(p.path)-1]
	err := p.value(k)
	p.path = append(p.path, self)
	if err != nil {
		return err
	}
	if err := p.write(": "); err != nil {
		return err
	}
	return p.value(v)
}

func (p *printer) sep(i int) error {
	if i == 0 {
		return nil
	}
	return p.write(", ")
}

// text returns what was written, charged to the call.
func (p *printer) text() (starlark.String, error) {
	if err := p.meter.spend(int64(p.out.Len())); err != nil {
		return "", err
	}
	return starlark.String(p.out.String()), p.meter.flush()
}

// reprOf writes x in full, or fails with an error starting with name.
func reprOf(thread *starlark.Thread, name string, x starlark.Value) (starlark.Value, error) {
	p := newPrinter(thread, 0)
	if err := p.value(x); err != nil {
		if errors.Is(err, errReprTooLong) {
			err = fmt.Errorf("%w (more than %s)", err, scripting.FormatBytes(int64(p.max)))
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s, err := p.text()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

func repr(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("repr", args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	return reprOf(thread, "repr", x)
}

func str(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("str does not accept keyword arguments")
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("str: got %d arguments, want exactly 1", len(args))
	}
	switch args[0].(type) {
	case starlark.String, starlark.Bytes: // no recursion: the original is bounded
		return starlark.Universe["str"].(*starlark.Builtin).CallInternal(thread, args, kwargs)
	}
	return reprOf(thread, "str", args[0])
}

// message writes print's and fail's arguments: strings (and, for print,
// bytes) as they are, other values as repr writes them, cut at
// messageMax.
func message(thread *starlark.Thread, prefix, sep string, args starlark.Tuple, rawBytes bool) (string, error) {
	p := newPrinter(thread, messageMax)
	err := p.write(prefix)
	for i := 0; err == nil && i < len(args); i++ {
		if i > 0 {
			err = p.write(sep)
		}
		if err == nil {
			err = p.messageArg(args[i], rawBytes)
		}
	}
	if err != nil && !errors.Is(err, errReprTooLong) && !errors.Is(err, errReprTooDeep) {
		return "", err
	}
	if err != nil {
		p.out.WriteString("…")
	}
	s, err := p.text()
	return string(s), err
}

func (p *printer) messageArg(x starlark.Value, rawBytes bool) error {
	switch x := x.(type) {
	case starlark.String:
		return p.write(string(x))
	case starlark.Bytes:
		if rawBytes {
			return p.write(string(x))
		}
	}
	return p.value(x)
}

func printValues(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sep := " "
	if err := starlark.UnpackArgs("print", nil, kwargs, "sep?", &sep); err != nil {
		return nil, err
	}
	msg, err := message(thread, "", sep, args, true)
	if err != nil {
		return nil, fmt.Errorf("print: %w", err)
	}
	if thread.Print != nil {
		thread.Print(thread, msg)
	}
	return starlark.None, nil
}

func fail(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sep := " "
	if err := starlark.UnpackArgs("fail", nil, kwargs, "sep?", &sep); err != nil {
		return nil, err
	}
	msg, err := message(thread, "fail: ", sep, args, false)
	if err != nil {
		return nil, fmt.Errorf("fail: %w", err)
	}
	return nil, errors.New(msg)
}
