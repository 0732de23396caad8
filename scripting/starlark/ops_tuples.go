package starlark

import (
	"fmt"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
)

// Tuples, bounded in what hashing them costs. go.starlark.net hashes a
// tuple by hashing each element in turn, in Go, without looking at the
// thread, and a tuple carries no mark of having been hashed: u = (u, u),
// forty times, is forty small tuples but costs 2^40 element hashes as a
// dict key or set element, and (big,) * 100000 hashes a long string a
// hundred thousand times. A hash is one instruction, which the deadline
// cannot end. So every tuple a call builds is weighed as it is built —
// its weight is what hashing it visits, one for each element reached
// through its sub-tuples and one for each 64 bytes of the strings among
// them — and one that would weigh more than the call's memory budget's
// worth of elements (MaxCallMemory / 16: 4,194,304 at the default) is
// refused. go.starlark.net builds tuples in a few places, each of which
// is rewritten or replaced: tuple displays (x, y) with any element the
// source does not bound become $tuple(x, y); the *args tuple of a def or
// lambda is weighed where the function reads it; d.items() and d.popitem()
// weigh their pairs, and x + y, x * n, tuple(), zip() and enumerate() the
// tuples they make. A slice weighs no more than the tuple it is cut
// from. Weights are remembered, per call, for tuples heavier than
// rememberWeight, so weighing (x, acc) in a loop does not walk acc again.
//
// The same bound makes comparing two tuples (== walks at most ten
// levels) and hashing them in a dict or set lookup cost at most the
// weight of one tuple; comparisons of lists, which can change after they
// are built, are metered as they run instead (ops_compare.go).

// stringWeightBytes is how many bytes of a string weigh one element.
const stringWeightBytes = 64

// rememberWeight is the weight above which a tuple's weight is kept for
// the rest of the call: lighter ones are weighed again, at most that
// many visits each time.
const rememberWeight = 64

// tupleID identifies a tuple: its first element's address and its length.
type tupleID struct {
	first *starlark.Value
	n     int
}

// A weigher weighs values for one call, remembering heavy tuples.
type weigher struct {
	ct    *callThread // nil outside a call: nothing is weighed
	limit int64
}

func weigherOf(thread *starlark.Thread) weigher {
	ct := callThreadOf(thread)
	if ct == nil || ct.limits.MaxCallMemory <= 0 {
		return weigher{}
	}
	return weigher{ct: ct, limit: ct.limits.MaxCallMemory / valueSize}
}

// weight is what hashing v visits, at most w.limit+1.
func (w weigher) weight(v starlark.Value) int64 {
	switch v := v.(type) {
	case starlark.Tuple:
		return w.tuple(v)
	case starlark.String:
		return 1 + int64(len(v))/stringWeightBytes
	case starlark.Bytes:
		return 1 + int64(len(v))/stringWeightBytes
	}
	return 1
}

func (w weigher) tuple(t starlark.Tuple) int64 {
	if len(t) == 0 {
		return 1
	}
	id := tupleID{first: unsafe.SliceData(t), n: len(t)}
	if n, ok := w.ct.weights[id]; ok {
		return n
	}
	return w.remember(id, w.sum(t))
}

// sum is one plus the weights of elems, at most w.limit+1.
func (w weigher) sum(elems starlark.Tuple) int64 {
	n := int64(1)
	for _, e := range elems {
		if n += w.weight(e); n > w.limit {
			return w.limit + 1
		}
	}
	return n
}

func (w weigher) remember(id tupleID, n int64) int64 {
	if n > rememberWeight {
		if w.ct.weights == nil {
			w.ct.weights = map[tupleID]int64{}
		}
		w.ct.weights[id] = n
	}
	return n
}

// check fails when a tuple of weight n, which what builds, is too heavy.
func (w weigher) check(what string, n int64) error {
	if w.ct == nil || n <= w.limit {
		return nil
	}
	return &heavyTupleError{what: what, limit: w.limit, budget: w.ct.limits.MaxCallMemory}
}

// A heavyTupleError refuses a tuple that would be too heavy to hash.
type heavyTupleError struct {
	what   string // what would have built it
	limit  int64
	budget int64 // the call's memory budget, which sets the limit
}

// Error says what would have built the tuple and why it was refused.
func (e *heavyTupleError) Error() string {
	return fmt.Sprintf("%s: hashing the tuple would visit more than %d elements (it repeats sub-tuples or long strings); a call that may allocate %s builds none heavier",
		e.what, e.limit, scripting.FormatBytes(e.budget))
}

// checkTuple weighs a tuple some operation built and remembers it.
func (w weigher) checkTuple(what string, t starlark.Tuple) error {
	if w.ct == nil || len(t) == 0 {
		return nil
	}
	n := w.sum(t)
	if err := w.check(what, n); err != nil {
		return err
	}
	w.remember(tupleID{first: unsafe.SliceData(t), n: len(t)}, n)
	return nil
}

// tupleOp is a tuple display (x, y, …): the interpreter hands a builtin
// a fresh copy of its arguments, which becomes the tuple.
func tupleOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if err := weigherOf(thread).checkTuple("tuple", args); err != nil {
		return nil, err
	}
	return args, nil
}

// varargsOp weighs the *args tuple a function reads, and returns it.
func varargsOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if t, ok := args[0].(starlark.Tuple); ok {
		if err := weigherOf(thread).checkTuple("*args", t); err != nil {
			return nil, err
		}
	}
	return args[0], nil
}

// Hidden builtins of the tuple rewrites.
const (
	opTuple   = "$tuple"
	opVarargs = "$varargs"
)

// boundedTuple reports whether the source bounds a tuple display's
// weight: every element a literal, a number, a list or dict display
// (which weighs one: hashing stops there) or such a tuple display.
func (rw *rewriter) boundedTuple(t *syntax.TupleExpr) bool {
	for _, e := range t.List {
		switch e := unparen(e).(type) {
		case *syntax.TupleExpr:
			if !rw.boundedTuple(e) {
				return false
			}
		case *syntax.ListExpr, *syntax.DictExpr, *syntax.Comprehension, *syntax.LambdaExpr:
		default:
			if literalToken(e) == syntax.ILLEGAL && !rw.nums.numeric(e) {
				return false
			}
		}
	}
	return true
}

// transient marks a tuple display whose value nothing keeps: the
// arguments of format % (x, y) and the iterable of a for loop. It is
// built as written.
func (rw *rewriter) transient(x syntax.Expr) {
	if t, ok := unparen(x).(*syntax.TupleExpr); ok {
		rw.targets[t] = true
	}
}

// markTargets records the names and the tuple, list and parenthesised
// displays of an assignment's or a loop's target, which bind names and
// are never rewritten.
func (rw *rewriter) markTargets(x syntax.Expr) {
	switch x := x.(type) {
	case *syntax.Ident:
		rw.targets[x] = true
	case *syntax.TupleExpr:
		rw.targets[x] = true
		for _, e := range x.List {
			rw.markTargets(e)
		}
	case *syntax.ListExpr:
		rw.targets[x] = true
		for _, e := range x.List {
			rw.markTargets(e)
		}
	case *syntax.ParenExpr:
		rw.targets[x] = true
		rw.markTargets(x.X)
	}
}

// tupleDisplay is $tuple(elements…) at the display's position.
func tupleDisplay(t *syntax.TupleExpr) syntax.Expr {
	start, end := t.Span()
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: start, Name: opTuple}, Lparen: start, Args: t.List, Rparen: end}
}

// varargsName returns the name of the *args parameter of a def's or
// lambda's parameters, or "".
func varargsName(params []syntax.Expr) string {
	for _, p := range params {
		if u, ok := p.(*syntax.UnaryExpr); ok && u.Op == syntax.STAR {
			if id, ok := u.X.(*syntax.Ident); ok {
				return id.Name
			}
		}
	}
	return ""
}

// readsVarargs reports whether id reads the *args of a function the walk
// is inside (or a name that shadows them, which is weighed needlessly):
// each such read becomes $varargs(args), which weighs the tuple (once:
// a heavy one is remembered) and returns it. Weighing at the reads
// rather than in a statement of its own leaves the function's first
// instruction, and so the position a failed binding is reported at, as
// it was.
func (rw *rewriter) readsVarargs(id *syntax.Ident) bool {
	if rw.targets[id] {
		return false
	}
	for _, name := range rw.varargs {
		if name != "" && name == id.Name {
			return true
		}
	}
	return false
}

// markParams records the names a def's or lambda's parameters bind.
func (rw *rewriter) markParams(params []syntax.Expr) {
	for _, p := range params {
		switch p := p.(type) {
		case *syntax.Ident:
			rw.targets[p] = true
		case *syntax.BinaryExpr: // name = default
			rw.targets[p.X] = true
		case *syntax.UnaryExpr: // *args, **kwargs
			if p.X != nil {
				rw.targets[p.X] = true
			}
		}
	}
}

// markKeywords records the keyword names of a call's arguments.
func (rw *rewriter) markKeywords(args []syntax.Expr) {
	for _, a := range args {
		if kw, ok := a.(*syntax.BinaryExpr); ok && kw.Op == syntax.EQ {
			rw.targets[kw.X] = true
		}
	}
}

// checkTupleArith weighs the tuple x + y or x * n (n * x) would build.
func checkTupleArith(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) error {
	if op == syntax.STAR {
		if _, ok := x.(starlark.Int); ok {
			x, y = y, x
		}
	}
	t, ok := x.(starlark.Tuple)
	if !ok || len(t) == 0 {
		return nil
	}
	w := weigherOf(thread)
	if w.ct == nil {
		return nil
	}
	switch y := y.(type) {
	case starlark.Tuple:
		if op == syntax.PLUS {
			return w.check("tuple + tuple", w.tuple(t)+w.tuple(y)-1)
		}
	case starlark.Int:
		if op == syntax.STAR {
			n, err := starlark.AsInt32(y)
			if err != nil || n < 2 {
				return nil // the interpreter's error, or no heavier than t
			}
			each := w.tuple(t) - 1
			if each > w.limit/int64(n) {
				return w.check("tuple * int", w.limit+1)
			}
			return w.check("tuple * int", int64(n)*each+1)
		}
	}
	return nil
}

// weighElements refuses a bulk operation that would hash every element
// of its arguments (s.union(l), set(l), d.update(pairs)…) when their
// weights add up past the call's tuple limit: the library hashes them all
// in one step, and a list may hold the same heavy tuple, or the same long
// string, many times over.
func weighElements(thread *starlark.Thread, what string, args ...starlark.Value) error {
	w := weigherOf(thread)
	if w.ct == nil {
		return nil
	}
	var total int64
	add := func(v starlark.Value) bool {
		total += w.weight(v)
		return total <= w.limit
	}
	for _, arg := range args {
		ok := true
		switch arg := arg.(type) {
		case *starlark.List:
			for i := 0; ok && i < arg.Len(); i++ {
				ok = add(arg.Index(i))
			}
		case starlark.Tuple:
			for i := 0; ok && i < len(arg); i++ {
				ok = add(arg[i])
			}
		case *starlark.Dict:
			for k := range arg.Entries() {
				if ok = add(k); !ok {
					break
				}
			}
		case *starlark.Set:
			for e := range arg.Elements() {
				if ok = add(e); !ok {
					break
				}
			}
		}
		if !ok {
			return fmt.Errorf("%s: hashing its elements would visit more than %d elements (it repeats heavy tuples or long strings), the limit of one step", what, w.limit)
		}
	}
	return nil
}
