package main

import (
	"io"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/server"
)

// httpSettingsOptions are --print-settings' options for agents that can
// post their events to serve (adapter.HTTPDialect).
type httpSettingsOptions struct {
	// HTTP is serve's base URL: print http hooks posting there instead of
	// command hooks.
	HTTP string
	// HTTPToken makes the printed hooks send $HOOKHOST_TOKEN even when it
	// is not set here.
	HTTPToken bool
}

// httpFlags are the flags of an agent whose hooks can be http hooks; nil
// for the others.
func (o *httpSettingsOptions) httpFlags(d adapter.CommandDialect) []cli.Flag {
	if _, ok := d.(adapter.HTTPDialect); !ok {
		return nil
	}
	return []cli.Flag{
		&cli.StringFlag{Name: "http", Destination: &o.HTTP,
			Usage: "with --print-settings: print http hooks that post each event to the hookhost serve at `URL` (http://127.0.0.1:7878)"},
		&cli.BoolFlag{Name: "http-token", Destination: &o.HTTPToken,
			Usage: "with --print-settings --http: the hooks send $" + tokenEnv + " as a bearer token (the default when it is set or the URL is not loopback)"},
	}
}

// validateHTTP checks that --http goes with --print-settings.
func (o *httpSettingsOptions) validateHTTP(printSettings bool) error {
	if (o.HTTP != "" || o.HTTPToken) && !printSettings {
		return usageErrorf("--http and --http-token go with --print-settings: the agent posts its events to serve itself")
	}
	return nil
}

// printHTTPSettings prints the agent's http hooks, posting to serve's
// endpoint for it under the base URL --http names.
func printHTTPSettings(d adapter.HTTPDialect, opts httpSettingsOptions, stdout io.Writer) error {
	base, err := serveURL(opts.HTTP)
	if err != nil {
		return err
	}
	token := ""
	if opts.HTTPToken || strings.TrimSpace(os.Getenv(tokenEnv)) != "" || !loopbackURL(base) {
		token = tokenEnv
	}
	return writeIndented(stdout, d.HTTPSettings(base.JoinPath("v1", "agents", d.Name()).String(), token))
}

// serveURL is --http as a base URL: http(s)://HOST:PORT[/prefix], or
// HOST:PORT as serve's own --http takes it.
func serveURL(s string) (*url.URL, error) {
	if strings.HasPrefix(s, server.UnixPrefix) {
		return nil, usageErrorf("--http %s: an agent's http hooks cannot reach a Unix socket; serve on a loopback port "+
			"(hookhost serve --http 127.0.0.1:7878) and give its URL", s)
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, usageErrorf("--http %s: want serve's base URL, as in http://127.0.0.1:7878", s)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u, nil
}

// loopbackURL reports whether u names this machine's loopback, where
// serve may run without a token.
func loopbackURL(u *url.URL) bool {
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
