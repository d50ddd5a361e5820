#!/usr/bin/env bash
# Makes sure Claude Code is available for the end-to-end tests that drive it against the scripted
# models (test/e2e/claude-code.test.ts): pinned, in a cache folder outside the repository. Prints the
# binary's path; $CLAUDE_CODE_BIN overrides. npm skips the package's postinstall and its Node >= 22
# engine is only declared: the binary is native (the optional dependency @anthropic-ai/claude-code-linux-x64)
# and runs as it is on Node 20's machine.
set -euo pipefail
VERSION=2.1.332
exec bash "$(dirname "$0")/ensure-pinned-cli.sh" @anthropic-ai/claude-code "$VERSION" claude claude-code CLAUDE_CODE_BIN "Claude Code"
