package state

import "github.com/hookhost/hookhost/stdlib"

// sizeOf measures v roughly as the length of its JSON text, which is what
// an operator can reason about when setting Limits. It stops counting once
// the total passes max, so measuring a huge value costs no more than
// measuring one just over the limit; past MaxDepth it stops descending and
// leaves the depth error to stdlib.Check.
func sizeOf(v any, max int64) int64 {
	var n int64
	measure(v, max, 0, &n)
	return n
}

func measure(v any, max int64, depth int, n *int64) {
	if *n > max {
		return
	}
	switch v := v.(type) {
	case nil:
		*n += 4
	case bool:
		*n += 5
	case int64, float64:
		*n += 8
	case string:
		*n += int64(len(v)) + 2
	case []any:
		*n += 2
		if depth < stdlib.MaxDepth {
			for _, e := range v {
				if *n > max {
					return
				}
				*n++
				measure(e, max, depth+1, n)
			}
		}
	case map[string]any:
		*n += 2
		if depth < stdlib.MaxDepth {
			for k, e := range v {
				if *n > max {
					return
				}
				*n += int64(len(k)) + 3
				measure(e, max, depth+1, n)
			}
		}
	default:
		*n += 8 // not neutral: stdlib.Check rejects it
	}
}
