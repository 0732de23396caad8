// Command hookhost-hook is the small command hook of "hookhost AGENT
// --server auto": it links almost nothing (no interpreters, no YAML, no
// shell parser, no command-line library, not even package net; on Linux
// not os, time, strings or crypto either, whose initialisation every
// start would pay), so that its start costs little more than a
// process's. It reads the agent's
// event from stdin, finds the server "--server auto" runs for the hooks
// directory and config (the same socket, the same check that this user
// or root serves it: SO_PEERCRED), posts the event to the server's
// POST /v1/agents/{agent}[/{event}] in one hand-written HTTP/1.1 request,
// prints the answer and exits 0.
//
// Anything else it leaves to the full hookhost, which it executes in its
// own place with the same arguments and the same stdin (replayed from an
// unlinked temporary file): a command line it does not read (another
// flag, --server other than auto, help), no server on the socket, a
// server that refuses or is not this user's, an answer other than a 200,
// and a 200 that is the server's refusal (a guard event it could not
// decide: busy, an event that does not decode). The full command then
// starts the server, or loads the hooks in its own process, and fails
// closed at guard events, exactly as "hookhost AGENT --server auto" does;
// hookhost-hook never answers from anything but a genuine server.
//
// The full hookhost is $HOOKHOST_BIN, else "hookhost" beside this
// executable. Usage is hookhost's: hookhost-hook claude --dir DIR
// --server auto (hookhost claude --print-settings --server auto prints
// it when hookhost-hook is installed beside hookhost).
package main
