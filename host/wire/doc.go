// Package wire holds hookhost's JSON contracts, once for every program
// that speaks them: the payload decoder (a JSON object, numbers kept
// exact, nesting bounded), the hook listing entry of "hookhost list
// --json" and serve's /v1/hooks, and the encoder that writes one JSON
// value per line without HTML escaping. The fire result itself is
// host.Result, whose MarshalJSON writes the "fire --json" object.
//
// The CLI, the HTTP server and the agent adapters all decode and encode
// through this package, so a contract changes in one place.
package wire
