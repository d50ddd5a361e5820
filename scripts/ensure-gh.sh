#!/usr/bin/env bash
# Makes sure Debian's gh is installed: the sandbox client tests drive it, and it is the agent_direct
# mode's tool. Installs it with apt-get when running as root (CI, fresh machines); otherwise says how.
set -euo pipefail
if command -v gh >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing gh (apt-get install -y gh)" >&2
  apt-get install -y gh >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y gh >/dev/null; }
  exit 0
fi
echo "gh (GitHub CLI) is required: install it with 'sudo apt-get install gh' or from https://cli.github.com" >&2
exit 1
