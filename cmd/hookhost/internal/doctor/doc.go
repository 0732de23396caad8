// Package doctor proves that an agent's hooks enforce: it reads the
// agent's settings, finds the hook entries on its guard event (the one
// that can stop a tool call), and sends each a canary — a tool call
// running "rm -rf /", as a string in the event, never run — through
// exactly what the agent would run: the entry's command through sh -c,
// in the agent's directory, with its timeout and environment, or a POST
// to the entry's URL with its headers. The answer is read as the agent
// reads it (an exit status, a JSON object, an HTTP status), and each
// entry is judged: enforcing (the canary is denied or asked) or not,
// and why, in plain words.
//
// Agents are data: an Agent says where the agent keeps its settings,
// how an entry is written there, what its canary event looks like and
// how it reads an answer. Adding an agent is adding a row to Agents.
//
// Check runs the entries concurrently, each bounded by its own timeout
// (and the caller's context); it changes nothing on disk.
package doctor
