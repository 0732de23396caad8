package adapter

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/peerauth"
	"github.com/hookhost/hookhost/host"
)

// ErrAuth is what every *AuthError is (errors.Is): the server could not
// be authenticated, or it refused this client's token. It is hookhost's
// own failure, never a reason to fall back to the hooks in this process:
// whoever answers may be impersonating the server, so a caller fails
// closed at a guard event.
var ErrAuth = errors.New("authentication with the hookhost server failed")

// ErrUnauthorized is the cause, in an *AuthError, of a 401: the server
// refused the token, its proof, or the lack of either.
var ErrUnauthorized = errors.New("the server refused this client's token (401)")

// ErrImpostor is the cause, in an *AuthError, of a peer that is not who
// the server must be: a Unix socket served by another user, or a TCP
// answer without a valid proof that its sender holds the token.
var ErrImpostor = errors.New("the peer is not the hookhost server it claims to be")

// An AuthError is a failed authentication with the server at Server. It
// is ErrAuth (errors.Is), and unwraps to its cause: ErrUnauthorized or
// ErrImpostor, wrapping the details.
type AuthError struct {
	// Server is the address asked (host:port, or a socket's path).
	Server string
	// Err says what failed.
	Err error
}

// Error names the server and what failed there.
func (e *AuthError) Error() string {
	return fmt.Sprintf("%v: the server at %s: %v", ErrAuth, e.Server, e.Err)
}

// Unwrap gives what failed: ErrUnauthorized or ErrImpostor, with the details.
func (e *AuthError) Unwrap() error { return e.Err }

// Is makes every AuthError ErrAuth.
func (e *AuthError) Is(target error) bool { return target == ErrAuth }

// authentic checks an answer before anything in it is used: a 401 is a
// refusal; with a proof sent, the answer must carry the server's proof
// for that request, its status and its body.
func (r *Remote) authentic(proof *peerauth.Request, ans answer) error {
	if ans.status == http.StatusUnauthorized {
		return &AuthError{Server: r.address, Err: fmt.Errorf("%w: %s", ErrUnauthorized, errorText(ans.body))}
	}
	if proof == nil {
		return nil
	}
	if err := r.key.VerifyResponse(*proof, ans.status, ans.header, ans.body); err != nil {
		return &AuthError{Server: r.address, Err: fmt.Errorf("%w: %w; it does not hold $HOOKHOST_TOKEN's token "+
			"(an impostor, a serve run with another token or none, or one older than this client): its answer is not used",
			ErrImpostor, err)}
	}
	return nil
}

// distrust keeps of an answer that cannot be authenticated — a TCP
// server reached without a token, which any local process could be —
// only what makes the call stricter: deny, ask and the aborts pass; an
// allow becomes no opinion (the agent's own rules decide, as without
// hookhost); a modify asks instead; a respond denies; a changed payload,
// added messages and an approval that would allow when unanswered are
// dropped. Each loss is noted on the Log.
func (r *Remote) distrust(payload map[string]any, res host.Result) host.Result {
	d := res.Decision
	note := func(what string) {
		if r.Log != nil {
			fmt.Fprintf(r.Log, "hookhost: the server at %s cannot be authenticated (no $HOOKHOST_TOKEN): %s\n", r.address, what)
		}
	}
	switch d.Action {
	case host.Allow:
		note("its allow is passed on as no opinion")
		d = host.Decision{Action: host.Continue, Hook: d.Hook}
	case host.Modify:
		note("its modify is passed on as ask, without the change")
		d = host.Decision{Action: host.Ask, Reason: d.Reason, Hook: d.Hook}
	case host.Respond:
		note("its respond is passed on as deny")
		d = host.Decision{Action: host.Deny, Reason: "hookhost: an unauthenticated server answered in the call's place", Hook: d.Hook}
	}
	if a := d.Approval; a != nil && a.TimeoutBehavior != host.Deny {
		approval := *a
		approval.TimeoutBehavior = host.Deny
		d.Approval = &approval
	}
	if len(res.Messages) > 0 {
		note(fmt.Sprintf("its %d message(s) are dropped", len(res.Messages)))
	}
	res.Decision, res.Payload, res.Messages = d, payload, nil
	return res
}
