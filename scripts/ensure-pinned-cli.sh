#!/usr/bin/env bash
# Makes sure an agent CLI that the end-to-end tests drive is available: the pinned npm package goes
# into a cache folder outside the repository, once (these CLIs are not dependencies: each is a binary
# of hundreds of MB). Prints the binary's path. A binary named by the override variable is used as it
# is. With no registry it says so and exits 0 printing nothing: the tests that need it skip.
# Usage: ensure-pinned-cli.sh <package> <version> <bin> <cache folder> <override variable> <name>
set -euo pipefail
PACKAGE=$1 VERSION=$2 BIN_NAME=$3 FOLDER=$4 OVERRIDE=$5 NAME=$6
if [ -n "${!OVERRIDE:-}" ] && [ -x "${!OVERRIDE}" ]; then echo "${!OVERRIDE}"; exit 0; fi
DIR="${XDG_CACHE_HOME:-$HOME/.cache}/ghx-bench/$FOLDER-$VERSION"
BIN="$DIR/node_modules/.bin/$BIN_NAME"
# A folder left half installed (an interrupted install) is installed again.
if [ ! -x "$BIN" ] || ! "$BIN" --version >/dev/null 2>&1; then
  echo "installing $PACKAGE@$VERSION into $DIR" >&2
  bash "$(dirname "$0")/retry.sh" 3 npm install --prefix "$DIR" --no-save --no-audit --no-fund "$PACKAGE@$VERSION" >/dev/null 2>&1 \
    || { echo "could not install $PACKAGE@$VERSION (no registry?): the $NAME tests will say so and skip" >&2; exit 0; }
fi
echo "$BIN"
