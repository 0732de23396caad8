#!/bin/sh
# compare.sh: score the shipped hooks.d and a peer guardrail on
# hookhost's labeled corpus of shell lines (bench/corpus/shell-lines.yaml),
# both answering each line as a Claude Code PreToolUse command hook.
#
# It builds hookhost (`hookhost claude --dir hooks.d`), installs the
# peer cc-safety-net from npm into a cache directory
# (`cc-safety-net hook --claude-code`), and runs bench/peers, which
# prints the stop and pass rates per theme side by side and the lines
# each decided against their label. Not run by CI: it needs npm and the
# network. docs/benchmarks.md ("Precision on our corpus") records its
# results.
#
# Usage: bench/peers/compare.sh   (from anywhere in the repository)
# Environment: PEERS_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/hookhost-peers),
#              CC_SAFETY_NET_VERSION (default 2.4.5).
set -eu

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cache=${PEERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookhost-peers}
version=${CC_SAFETY_NET_VERSION:-2.4.5}
mkdir -p "$cache/npm" "$cache/home" "$cache/ws/project"

if [ ! -x "$cache/npm/node_modules/.bin/cc-safety-net" ] ||
	[ "$(node -p "require('$cache/npm/node_modules/cc-safety-net/package.json').version")" != "$version" ]; then
	(cd "$cache/npm" && npm install --no-audit --no-fund --silent "cc-safety-net@$version")
fi

(cd "$root" && go build -tags urfave_cli_no_docs,netgo -o "$cache/hookhost" ./cmd/hookhost &&
	go build -o "$cache/peers" ./bench/peers)

# The peers run with a home of their own and none of their settings in
# the environment: the defaults, as a new user installs them. hookhost's
# event cache goes to the cache directory too. (Go builds above, with the
# user's own home and module cache.)
ccsn="$cache/npm/node_modules/.bin/cc-safety-net"
echo "hookhost $(cd "$root" && git describe --always --dirty), cc-safety-net $version, node $(node --version)"
env -u SAFETY_NET_STRICT -u SAFETY_NET_PARANOID -u SAFETY_NET_PARANOID_RM \
	-u SAFETY_NET_PARANOID_INTERPRETERS -u SAFETY_NET_WORKTREE -u SAFETY_NET_LEVEL \
	HOME="$cache/home" XDG_CACHE_HOME="$cache/home/.cache" XDG_CONFIG_HOME="$cache/home/.config" \
	"$cache/peers" -cwd "$cache/ws/project" \
	-tool "hookhost=$cache/hookhost claude --dir $root/hooks.d" \
	-tool "cc-safety-net=$ccsn hook --claude-code"
