package scripting

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// byteUnits are the units ParseBytes accepts, largest first, so that
// "KiB" is not read as "B".
var byteUnits = []struct {
	unit string
	size int64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

// ParseBytes reads a size as the config writes it: a whole number and a
// binary unit ("512MiB", "1GiB", "64KiB", "100B"), or a bare whole number
// of bytes. FormatBytes writes sizes back the same way.
func ParseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	num, size := s, int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(s, u.unit) {
			num, size = strings.TrimSpace(strings.TrimSuffix(s, u.unit)), u.size
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange), err == nil && n > math.MaxInt64/size:
		return 0, fmt.Errorf("size %q is too large", s)
	case err != nil:
		return 0, fmt.Errorf("size %q: want a whole number and a unit, such as 512MiB or 1GiB (units B, KiB, MiB, GiB, TiB)", s)
	case n < 0:
		return 0, fmt.Errorf("size %q is negative", s)
	}
	return n * size, nil
}
