// Package replay re-decides recorded fires against a candidate policy:
// it reads decision logs written with the payloads (serve
// --decision-log-payload), fires each line's event and payload through a
// host, in the log's order, and reports the fires whose final action
// differs from the one recorded. It is hookhost replay's engine; the
// command reads the files and prints what it reports.
//
// A line that cannot be replayed (not a decision log line, no payload,
// an event the host does not know) is reported with its place and the
// lines after it are still replayed. The fires run one after another on
// one host, so that what a hook remembers across fires (the state
// module) evolves in the recorded order; that memory starts empty, so
// rate-limit decisions may differ from the ones recorded.
package replay
