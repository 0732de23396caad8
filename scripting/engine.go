package scripting

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// A Source is one script file.
type Source struct {
	// Name is the file's path relative to the watched directory, with
	// forward slashes ("guard.lua", "pack/limits.star"). It prefixes hook
	// ids and error messages.
	Name string
	// Code is the file's content.
	Code []byte
	// Sum is the SHA-256 of Code when whoever read the file has hashed it
	// already (the host, which versions every file by its hash), so that
	// an engine keying a compiled program by the content does not hash a
	// large file a second time; nil when not known. It must be the sum of
	// exactly Code.
	Sum *[sha256.Size]byte
}

// CodeSum is the SHA-256 of s.Code: s.Sum, or computed.
func (s Source) CodeSum() [sha256.Size]byte {
	if s.Sum != nil {
		return *s.Sum
	}
	return sha256.Sum256(s.Code)
}

// An Engine compiles source files of one language.
type Engine interface {
	// Language names the language ("lua", "starlark").
	Language() string
	// Extension is the file extension the engine loads, with its dot.
	Extension() string
	// Compile compiles and initialises src. It returns a *Error for
	// problems in the script. ctx bounds the time spent running the file's
	// top level.
	Compile(ctx context.Context, src Source, env *Env) (Program, error)
}

// Env is what the host gives every program it compiles.
type Env struct {
	// Modules are the modules scripts may load with require/load, besides
	// the predeclared hook module. Loading any other name fails.
	Modules []stdlib.Module
	// Logger receives print output and diagnostics. Nil discards them.
	Logger *slog.Logger
	// Limits bounds what one call may use. The zero value means defaults.
	Limits Limits
	// Testing makes the expect module loadable, for script tests, and
	// makes the program list the file's test_* functions (TestProgram).
	Testing bool
	// Fire is what hook.fire calls; only a test runner sets it, for test
	// files. Without it hook.fire fails with ErrNoFire.
	Fire FireFunc
	// Programs, when set, keeps compiled programs for the engines that can
	// reuse them (see ProgramCache); nil compiles every file from source.
	Programs ProgramCache
}

// Limits bounds the resources of script calls. Zero fields take the
// documented defaults.
type Limits struct {
	// MaxSteps bounds the Starlark execution steps of one call
	// (default 100 million; a step is roughly one bytecode instruction).
	MaxSteps uint64
	// MaxStringSize bounds strings that string.rep and similar builtins
	// create, in bytes (default 16 MiB).
	MaxStringSize int
	// MaxCallDepth bounds the nesting of Lua calls (default 200).
	MaxCallDepth int
	// MaxIdle bounds how many idle Lua interpreters a file keeps
	// (default 2 × GOMAXPROCS, at least 4).
	MaxIdle int
	// MaxCallMemory bounds what one call may allocate through everything
	// hookhost implements or wraps (strings, tables and lists that
	// builtins build, conversions, module results), in bytes (default 64
	// MiB). See Call.Charge.
	MaxCallMemory int64
	// InitTimeout bounds running a file's top level when an interpreter is
	// created (default 5s).
	InitTimeout time.Duration
}

// Defaults for Limits.
const (
	DefaultMaxSteps      = 100_000_000
	DefaultMaxStringSize = 16 << 20
	DefaultMaxCallDepth  = 200
	DefaultInitTimeout   = 5 * time.Second
	DefaultMaxCallMemory = 64 << 20
)

// Or returns l with every zero field replaced by its default.
func (l Limits) Or() Limits {
	if l.MaxSteps == 0 {
		l.MaxSteps = DefaultMaxSteps
	}
	if l.MaxStringSize == 0 {
		l.MaxStringSize = DefaultMaxStringSize
	}
	if l.MaxCallDepth == 0 {
		l.MaxCallDepth = DefaultMaxCallDepth
	}
	if l.MaxCallMemory == 0 {
		l.MaxCallMemory = DefaultMaxCallMemory
	}
	if l.InitTimeout == 0 {
		l.InitTimeout = DefaultInitTimeout
	}
	return l
}

// Logger returns env's logger, or one that discards everything.
func (env *Env) Log() *slog.Logger {
	if env == nil || env.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return env.Logger
}

// A Program is a compiled, initialised script file. It is immutable and
// safe for concurrent use.
type Program interface {
	// Hooks lists the hooks the file registered, in registration order. A
	// name registered twice appears twice; the host keeps the last.
	Hooks() []Hook
	// Close releases the program's pooled interpreters.
	Close()
}

// A Hook is one hook.on registration.
type Hook struct {
	// Event is the event name as the script wrote it; the host validates it.
	Event string
	// Name is opts.name, or the default: the function's name in Starlark,
	// the line of the hook.on call in Lua.
	Name string
	// Line is the line of the hook.on call.
	Line int
	// Priority is opts.priority (default 0).
	Priority int64
	// Timeout is opts.timeout, or zero when the script declared none.
	Timeout time.Duration
	// Enabled is opts.enabled (default true).
	Enabled bool
	// ErrorBehavior and TimeoutBehavior are opts.error_behavior and
	// opts.timeout_behavior: "skip", "deny", or empty when not declared.
	ErrorBehavior, TimeoutBehavior string
	// Params are the function's parameter names as bound from the payload,
	// for listings. A Lua vararg appears as "...", a Starlark **kwargs as
	// "**name".
	Params []string
	// Func calls the hook.
	Func Function
	// Binds, when not nil, names the payload fields Func converts before
	// any script code runs, checking on the way that they are neutral
	// values by stdlib.Check's rules: a field that is not fails the call,
	// before the script runs, with an error wrapping ErrNotNeutral. The host
	// then need not check those fields itself. Nil promises nothing.
	Binds *Binding
}

// A Binding is which payload fields a hook's Func converts and checks.
type Binding struct {
	// Fields are the fields, by name.
	Fields []string
	// All is set when Func converts every field (a Starlark **kwargs).
	All bool
}

// ErrNotNeutral is the cause of a call's error when a payload field the
// hook binds (Hook.Binds) is not a neutral value, or nests too deeply;
// the script did not run. The host reports it as a bad payload, with
// stdlib.Check's error.
var ErrNotNeutral = errors.New("a payload field is not a neutral value")

// ReturnDepth is how deeply a hook's return value may nest: one level
// more than a payload (stdlib.MaxDepth), because a decision's own table
// wraps the fields it carries, and those nest as deeply as the payload
// fields they replace. Engines convert return values with this bound.
const ReturnDepth = stdlib.MaxDepth + 1

// A Function is a hook's callable. Call converts the payload fields the
// function's signature names, runs it under c's deadline and converts its
// return value to a neutral value, except that a decision a constructor
// built and the hook returned as it is comes back as that *Decision (see
// Decision.Return); AsNeutral turns it into its map. It returns a *Error
// when the script fails, and reports interruption through c (see
// Call.Interrupted).
type Function interface {
	Call(c *Call) (any, error)
}
