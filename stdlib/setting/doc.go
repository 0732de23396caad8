// Package setting is the script module "setting": checks of a pack's
// settings that more than one pack makes, so that each pack does not
// carry its own copy. A setting a guard cannot use is an error, never
// ignored: the pack's hooks then fail, and a guard fails closed.
package setting
