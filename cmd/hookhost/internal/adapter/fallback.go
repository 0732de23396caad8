package adapter

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/hookhost/hookhost/host"
)

// Fallback fires through Primary (a server) and, when it is unavailable
// (ErrUnavailable), through the Firer that Local opens (the hooks loaded
// in this process). Any other failure is returned: above all an
// *AuthError, since a server that someone may be impersonating is not
// one that is down.
type Fallback struct {
	Primary Firer
	Local   func(ctx context.Context) (Firer, error)
	// Log notes the fallback; nil discards the note.
	Log io.Writer

	local Firer
}

var _ Firer = (*Fallback)(nil)

// Fire implements Firer.
func (f *Fallback) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	res, err := f.Primary.Fire(ctx, event, payload)
	if !errors.Is(err, ErrUnavailable) {
		return res, err
	}
	if f.Log != nil {
		fmt.Fprintf(f.Log, "hookhost: %v; loading the hooks in this process\n", err)
	}
	if f.local, err = f.Local(ctx); err != nil {
		return host.Result{}, err
	}
	return f.local.Fire(ctx, event, payload)
}

// Close implements Firer.
func (f *Fallback) Close() error {
	err := f.Primary.Close()
	if f.local != nil {
		err = errors.Join(err, f.local.Close())
	}
	return err
}
