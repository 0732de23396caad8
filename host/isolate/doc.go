// Package isolate runs hook files in supervised worker processes: the
// one hard bound on memory and CPU that Go offers, for code the operator
// does not trust.
//
// A Pool belongs to one host. Its Engine(unit, ext) is a scripting.Engine
// whose programs live in the unit's worker process (one per isolated file,
// or one per pack): Compile starts the worker if it is not running and
// compiles the file there; each hook is a scripting.Function whose Call
// sends the payload fields the hook's parameters name, and the time the
// call has left, over the worker's stdin, and reads the neutral value or
// the script error back from its stdout. So the host's fire path is the
// same for isolated hooks: deadlines, decisions, traces and reloads do not
// know the difference.
//
// Lifecycle. A worker is the host's own binary (on Linux /proc/self/exe,
// the file the host runs even after an upgrade replaced it on disk)
// started with HOOKHOST_ISOLATE_WORKER set; RunWorkerIfRequested, called
// first thing in main, turns such a process into a worker. The worker
// sets its OS limits (OSLimits: data segment, address space, CPU time,
// no descriptor beyond those open at start) before it reads anything,
// says hello with its protocol version and build (build.go), which the
// host checks against its own, and serves until its input ends. It stops
// when its unit's last program closes, or with the pool.
//
// Failure. A worker that dies (the kernel refused it memory, it reached
// its CPU allowance, it was killed) fails the calls in flight with an
// error naming why — its own exit message when it could send one, else
// the Go runtime's "fatal error: …" line on its stderr — and is
// started again at once in the background, with its unit's files
// compiled again (supervise.go). A call that comes while its worker
// starts waits for it: a host calls WorkerFunction.AwaitReady before it
// starts the hook's clock, so the restart is not charged to the hook's
// deadline. A start that fails is ErrWorkerStart for the calls that need
// the worker, and is retried after a doubling backoff. A call that does
// not answer within cancelGrace of its interrupt, or that left a builtin
// running in the worker, has its worker killed. The host gets an
// ordinary hook failure and applies the event's error behaviour.
//
// The wire format (codec.go) is length-prefixed frames of neutral values
// that keep their kinds exactly; protocol.go lists the messages, one
// struct each, and wire.go decodes them strictly: a field missing,
// mistyped or unknown is an error, never a zero value.
//
// Goroutine safety: a Pool, its engines, programs and functions are safe
// for concurrent use; calls to one worker run concurrently in it.
package isolate
