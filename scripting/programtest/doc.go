// Package programtest holds what both engines' tests of
// scripting.ProgramCache share: a cache in memory that counts its use,
// and the checks that a program from the cache behaves as one compiled
// from source and that damaged bytes are compiled around. It imports no
// engine, so both engines' own tests can use it.
package programtest
