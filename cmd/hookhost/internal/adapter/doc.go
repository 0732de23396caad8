// Package adapter makes hookhost speak real agents' hook protocols.
//
// An agent is a dialect: pure functions from the agent's request to a
// hookhost event and payload (Call), and from the fire's host.Result to
// the agent's answer (Answer). The dialects live in the sub-packages
// claude, gemini, codex, cursor, copilot (command hooks: one event per
// process on stdin, one answer on stdout) and picoclaw (a long-lived
// JSON-RPC process).
// They know nothing about processes, files or networks, so they are
// tested as tables.
//
// A transport runs a dialect against a Firer: RunCommand reads one event
// from stdin and writes at most one JSON object to stdout; Serve (in
// jsonrpc.go) answers JSON-RPC 2.0 requests, one object per line, until
// stdin ends. A Firer is anything that can fire an event — an in-process
// *host.Host, or a running "hookhost serve" reached over HTTP (Remote) —
// so every dialect can use either.
//
// What fires a command hook's call is decided here, in one constructor:
// NewConnector (connect.go) takes the command's options — the server, if
// any (ServerFirer: a URL, a Unix socket, or "auto", with the hooks
// loaded in this process as the fallback when the server is down), the
// event cache that lets a load compile only the files the call's event
// needs, and whether to fail open — and returns the Connector that
// RunCommand calls. The command only maps its flags to those options and
// says how to load the hooks (ConnectOptions.Load, given a Load: strict
// or not, the cache's view).
//
// Each dialect also describes its agent (Agent: the name people know it
// by, where its settings live, the event names its command line takes),
// so that the command, its help and doctor read one description.
//
// # Failure
//
// A dialect never fails: every Result maps to an answer. What can fail is
// hookhost itself (stdin that is not an event, a hooks directory that
// cannot be loaded, a server that is down with no fallback, a fire). Each
// dialect's table marks its guard events (Mapping.Guard), the ones where
// the agent can be stopped; there a failure blocks unless the caller
// chose to fail open. RunCommand returns failures as a *Failure, which
// says whether the agent should block and the exit status that says so:
// 2 (block) or 1 (proceed), or, for an agent that reads exit statuses
// its own way (a FailingDialect: Copilot CLI), what the dialect says,
// with its denial printed; Serve answers them as Failed does (a denial
// at the guard methods).
//
// A Remote authenticates whoever answers before it sends a secret or
// trusts a byte (remote_auth.go): the process serving a Unix socket must
// be this user's or root's; over TCP with a token the token is proven,
// never sent, and the answer must prove it too (package peerauth). A
// server that fails is an *AuthError (errors.Is ErrAuth), which a
// Fallback never falls back from: whoever answered may be impersonating
// the server.
//
// # Goroutines
//
// Dialect values are immutable and safe for concurrent use. Serve runs
// each request on its own goroutine and serialises its writes.
package adapter
