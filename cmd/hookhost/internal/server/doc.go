// Package server is hookhost serve's HTTP face: the handlers of the
// /v1 API, /healthz and /metrics, and the door they sit behind.
//
// # The API
//
//	POST /v1/fire/{event}   the payload as the body; answers the fire --json object
//	POST /v1/agents/{agent}[/{event}]  an agent's hook event as the body; answers what its command hook prints
//	GET  /v1/hooks          the hook listing, as list --json
//	GET  /v1/status         the host's status (generation, files, config, quarantine)
//	POST /v1/hooks/{id}/release  lifts a hook's quarantine: {"released": ["id"]}, or 404
//	GET  /healthz           200 "ok", or 503 naming the files that make the host unhealthy
//	GET  /metrics           whatever handler Options.Metrics is (Prometheus text in serve)
//
// Every error is a JSON object {"error": "…"}: 400 for a body that is
// not a JSON object, 404 for an unknown path or event, 405 for a wrong
// method (with an Allow header), 408 for a body that did not arrive
// within Options.RequestTimeout, 413 for a body over Options.MaxBody (or
// one that would decode to more than Options.RequestMemory), 415 for a
// POST whose Content-Type is not application/json, 421 for a Host header
// that is not a loopback name, 401 for a missing or wrong bearer token or proof,
// and 503 with Retry-After when the fire slots, their queue or the
// request memory are taken.
//
// The agent endpoints (agents.go) differ in one way: at a guard event
// every failure of hookhost's own — a cap, a busy server, a body that
// does not arrive or decode, a fire that fails — is a 200 whose body
// blocks in the agent's own format and says why, because an agent reads
// an error status as "proceed". An unknown agent is 404 and, at other
// events, a body that is not the agent's JSON 400, as elsewhere.
//
// # Bounds
//
// No client can make the server hold more than the options allow: at
// most MaxConns connections are open (more wait in the kernel's accept
// backlog); a body is read as it arrives into a buffer that grows with
// what was received, never with what Content-Length declares; bodies,
// decoded payloads and answers together take at most RequestMemory;
// headers, body and answer each have RequestTimeout; idle keep-alive
// connections close after IdleTimeout; at most MaxFires fires run and
// FireQueue wait, each at most RequestTimeout, for a slot.
//
// # The door
//
// The server is meant for the agent on the same machine. A page in the
// user's browser can send requests to 127.0.0.1 too, so on a loopback
// listener every request must name a loopback host in its Host header
// (an attacker's domain that resolves to 127.0.0.1 — DNS rebinding — is
// refused), a POST must be application/json (which a browser sends
// cross-origin only after a CORS preflight, and the server never sends
// a CORS header), and bodies are bounded. Listen creates Unix sockets
// with mode 0600. With a token every endpoint but /healthz wants
// "Authorization: Bearer <token>", compared in constant time, or a proof
// that the client holds the token (package peerauth: checked before the
// request is served, its body as it is read, the nonce never accepted
// twice), whose answer the door signs so that the client can tell the
// server from an impostor; Listen's caller refuses a non-loopback
// address without a token.
//
// # Lifecycle
//
// New wires the handlers; Serve serves a listener until its context
// ends or the server has been idle for Options.IdleExit, then drains:
// it stops accepting, lets the fires in flight finish within their own
// hooks' deadlines for at most Options.ShutdownTimeout, cancels those
// still running (at once after Abort; each answers with what ran, a
// fail-closed event with deny naming ErrStopping) and returns. A Server
// is safe for concurrent use; it holds no global state, so a test can
// run many.
package server
