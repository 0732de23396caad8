// Package programtest holds a program cache in memory that counts its
// use, for the engines' tests of scripting.ProgramCache. It imports no
// engine, so both engines' own tests can use it.
package programtest
