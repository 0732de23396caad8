// Package peerauth proves, over a connection nobody vouches for (TCP),
// that each side of a hookhost request holds the server's token, without
// ever sending the token: the client proves it to the server, the server
// to the client, and a proof is good for one request and one answer.
//
// A bearer token sent in clear goes to whoever listens on the port — a
// process that took the port while serve was down, say — which can then
// keep the token and forge answers (an explicit allow for rm -rf /). With
// this scheme an impostor learns nothing it can reuse, and cannot answer
// in a way the client accepts.
//
// # The scheme, version 1
//
// The key K is the SHA-256 digest (32 bytes) of the token, the token
// being the text given to serve with surrounding white space removed.
// MACs are HMAC-SHA256 keyed with K. Base64url is RFC 4648 §5 without
// padding; hex is lower case.
//
// The client sends, with the request:
//
//	Hookhost-Nonce:          base64url of 32 fresh random bytes (16 to 64 are accepted)
//	Hookhost-Time:           the client's clock, decimal Unix seconds
//	Hookhost-Content-Sha256: hex SHA-256 of the request body (of no bytes for an empty body)
//	Hookhost-Mac:            base64url of HMAC(K, request string)
//
// where the request string is these six lines joined by "\n" (no final
// newline): "hookhost-auth-v1 request", the nonce, the time (both as
// sent), the method, the request target exactly as on the request line
// (path and query, as in "/v1/fire/tool.execute.pre"), and the body's hex
// SHA-256. It sends no Authorization header.
//
// The server checks, before anything else is done with the request:
// that all four headers are present and well formed, that the MAC
// matches (compared in constant time), that the time is within MaxSkew of
// its own clock, and that it has not seen the nonce within the replay
// window (below). Any failure is answered 401, unsigned. It then reads
// the body, and a body whose SHA-256 is not the one declared fails as it
// is read: the request is refused before it takes effect.
//
// The server answers every request that passed those checks with
//
//	Hookhost-Mac: base64url of HMAC(K, response string)
//
// where the response string is four lines joined by "\n":
// "hookhost-auth-v1 response", the request's nonce, the status code (three
// decimal digits), and the hex SHA-256 of the response body as sent (no
// bytes for HEAD). The client reads the whole answer (bounded) and
// checks that MAC before it trusts any of it — status, headers or body.
// An answer without the header, or with a MAC that does not match, comes
// from someone who does not hold the token: the client fails, and must
// not fall back to anything that answers in the server's place.
//
// The nonce binds the answer to the request; the distinct first lines
// keep a request's MAC from ever passing as an answer's.
//
// # Replay
//
// The exchange travels in clear: someone who can read the traffic (on
// loopback, only root; on a network, anyone on the path) sees the
// requests and answers, though never the token. Replaying a captured
// answer fails, since every request has a fresh nonce. Replaying a
// captured request would fire its event again — counters and rate limits
// in the state module would count it twice — so the server accepts a
// request only while its time is within MaxSkew of the server's clock,
// and remembers each nonce it accepted until that time has passed
// (Nonces): a request is accepted once. Clocks of machines that talk this
// way must agree within MaxSkew. The scheme gives no secrecy: payloads
// and decisions can be read by whoever sees the traffic; use a Unix
// socket, loopback, or a tunnel that encrypts for traffic that must stay
// private.
//
// Clients that cannot implement the scheme (curl, an agent's own HTTP
// hooks) keep sending "Authorization: Bearer <token>", which serve
// accepts as before: those clients trust the network to deliver the
// token only to the server.
//
// # Goroutines
//
// A Key is an immutable value; Nonces is safe for concurrent use.
package peerauth
