// Package autosock is where the server of "--server auto" listens: one
// Unix socket per user, hooks directory and config, in a directory only
// the user can enter; how the two clients name the paths that name it
// (Abs); and the limits of those clients. It is the one home of all
// three for the clients that reach the server — hookhost's own --server
// auto and the small hookhost-hook.
//
// It links package syscall and little else (not os, time, strings or
// crypto), because hookhost-hook pays for the initialisation of every
// package it links each time an agent starts it.
package autosock
