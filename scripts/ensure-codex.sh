#!/usr/bin/env bash
# Makes sure the Codex CLI is available for the end-to-end tests that drive it against the scripted
# models (test/e2e/codex.test.ts): pinned, in a cache folder outside the repository. Prints the
# binary's path; $CODEX_BIN overrides.
set -euo pipefail
VERSION=0.171.0
exec bash "$(dirname "$0")/ensure-pinned-cli.sh" @openai/codex "$VERSION" codex codex CODEX_BIN Codex
