package shell

import (
	"context"
	"fmt"
	"strings"
)

// Salvage examines a line that does not parse as a whole for what can
// be known from it: each of its lines that parses, and within a line
// that does not, each part between unquoted ;, && and || that does. It
// returns the commands of those parts, in source order, and the parts
// that still do not parse, trimmed. A line that parses whole gives its
// commands and no unparsed part; an empty line gives neither.
//
// What the parts run is a lower bound: a part may be text that an
// unclosed quote before it turns into data, and the shell refuses a
// line that does not parse rather than run some of it. A guard uses
// Salvage to deny what would be destructive were the line repaired,
// and to ask, never to allow, about the rest. The line's limits are
// Parse's: over MaxLineBytes it is an error, as are more than
// MaxCommands commands in all.
func Salvage(ctx context.Context, line string) (cmds []Command, unparsed []string, err error) {
	if len(line) > MaxLineBytes {
		return nil, nil, fmt.Errorf("%w: %d bytes (the limit is %d)", ErrTooLong, len(line), MaxLineBytes)
	}
	if got, err := Parse(ctx, line); err == nil {
		return got, []string{}, nil
	}
	return salvageParts(ctx, line)
}

// salvageParts is Salvage for a line of at most MaxLineBytes that did not
// parse as a whole.
func salvageParts(ctx context.Context, line string) (cmds []Command, unparsed []string, err error) {
	cmds, unparsed = []Command{}, []string{}
	add := func(part string) (bool, error) {
		if strings.TrimSpace(part) == "" {
			return true, nil
		}
		got, err := Parse(ctx, part)
		if err != nil {
			return false, ctx.Err()
		}
		base := 0
		for _, c := range cmds {
			base = max(base, c.Pipeline+1)
		}
		for _, c := range got {
			c.Pipeline += base
			cmds = append(cmds, c)
		}
		if len(cmds) > MaxCommands {
			return false, fmt.Errorf("%w: more than %d", ErrTooMany, MaxCommands)
		}
		return true, nil
	}
	for l := range strings.SplitSeq(line, "\n") {
		ok, err := add(l)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			continue
		}
		for _, part := range splitLists(l) {
			ok, err := add(part)
			if err != nil {
				return nil, nil, err
			}
			if !ok {
				unparsed = append(unparsed, strings.TrimSpace(part))
			}
		}
	}
	return cmds, unparsed, nil
}

// splitLists splits a line at its unquoted ;, && and ||, reading
// single and double quotes and backslashes the way the shell does; an
// unclosed quote runs to the end of the line.
func splitLists(l string) []string {
	var parts []string
	start := 0
	var quote byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';' || (c == '&' || c == '|') && i+1 < len(l) && l[i+1] == c:
			parts = append(parts, l[start:i])
			if c != ';' {
				i++
			}
			start = i + 1
		}
	}
	return append(parts, l[start:])
}
