// Package decisionlog writes the decision log: one JSON line per fire
// (when, which event, the final decision, each hook that ran with its
// outcome and duration, the snapshot generation, the load problems, and
// the payload only when asked for, since payloads carry secrets). It is a
// host.Observer.
//
// Logging never slows or fails a fire: FireDone only hands what the line
// needs to a bounded queue, and one goroutine of the Log's own encodes
// and writes the lines. When the queue is full the line is dropped and
// counted (Dropped), as is a line whose write failed. A write that fails
// partway (a full disk) leaves a torn line; the next write starts with a
// newline, so no line is ever glued to a torn one. A payload is logged
// only up to Options.MaxPayload bytes of JSON, and payloads wait in the
// queue only up to Options.QueuedPayloads bytes; past either the line
// carries payload_omitted, saying why, instead. Reopen closes and
// reopens the file, for log rotation; Close writes what is queued,
// flushes and closes.
//
// The writer goroutine reads each report after FireDone returned, so the
// payloads a fire was given must not change after the fire (serve never
// changes them).
package decisionlog
