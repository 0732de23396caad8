package path

import "github.com/hookhost/hookhost/stdlib"

// windowsPath is path.windows: stdlib.WindowsPath, which the shell
// module's PowerShell reading shares.
func windowsPath(c *stdlib.Call) (any, error) {
	p, err := c.String(0)
	if err != nil {
		return nil, err
	}
	return stdlib.WindowsPath(p), nil
}
