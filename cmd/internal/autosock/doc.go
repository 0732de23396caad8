// Package autosock is where the server of "--server auto" listens: one
// Unix socket per user, hooks directory and config, in a directory only
// the user can enter, and the limits of the clients that reach it. It is
// the one home of both for the two clients
// that reach the server — hookhost's own --server auto and the small
// hookhost-hook — and it links nothing but os, so that hookhost-hook
// stays small.
package autosock
