#!/usr/bin/env bash
# Makes sure the opencode runtime is available for the opencode provider's end-to-end test. It is not
# a dependency (its binary is 354 MB): it goes into a cache folder outside the repository, once.
# Prints the binary's path. An opencode already on PATH or in $OPENCODE_BIN is used as it is.
set -euo pipefail
VERSION=1.18.33
if [ -n "${OPENCODE_BIN:-}" ] && [ -x "$OPENCODE_BIN" ]; then echo "$OPENCODE_BIN"; exit 0; fi
if command -v opencode >/dev/null 2>&1; then command -v opencode; exit 0; fi
DIR="${XDG_CACHE_HOME:-$HOME/.cache}/ghx-bench/opencode"
BIN="$DIR/node_modules/.bin/opencode"
if [ ! -x "$BIN" ]; then
  echo "installing opencode-ai@$VERSION into $DIR" >&2
  bash "$(dirname "$0")/retry.sh" 3 npm install --prefix "$DIR" --no-save --no-audit --no-fund "opencode-ai@$VERSION" >/dev/null 2>&1 \
    || { echo "could not install opencode-ai@$VERSION (no registry?): the opencode test will say so and skip" >&2; exit 0; }
fi
echo "$BIN"
