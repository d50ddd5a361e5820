#!/usr/bin/env bash
# Makes sure Debian's gh is installed: the sandbox client tests drive it, and it is the agent_direct
# mode's tool. Installs it with apt-get when running as root (CI, fresh machines); otherwise says how.
# As root it also installs Debian's chromium, which the HTML report's browser test drives headless;
# chromium stays optional: where /usr/bin/chromium is absent that test is skipped with one line.
# And libxml2-utils, whose xmllint validates junit.xml against the JUnit schema in a test; optional
# too: without xmllint that test is skipped with one line.
# And tmux, the pseudo-terminal in which test/e2e/tty.test.ts watches the live progress view; optional
# too: without tmux that test is skipped with one line.
set -euo pipefail
as_root() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }
apt_install() {
  apt-get install -y "$@" >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y "$@" >/dev/null; }
}
if ! command -v gh >/dev/null 2>&1; then
  if ! as_root; then
    echo "gh (GitHub CLI) is required: install it with 'sudo apt-get install gh' or from https://cli.github.com" >&2
    exit 1
  fi
  echo "installing gh (apt-get install -y gh)" >&2
  apt_install gh
fi
if [ ! -x /usr/bin/chromium ] && as_root; then
  echo "installing chromium (apt-get install -y chromium)" >&2
  apt_install chromium || echo "could not install chromium: the HTML report's browser test will be skipped" >&2
fi
if ! command -v xmllint >/dev/null 2>&1 && as_root; then
  echo "installing libxml2-utils (apt-get install -y libxml2-utils)" >&2
  apt_install libxml2-utils || echo "could not install libxml2-utils: the JUnit schema test will be skipped" >&2
fi
if ! command -v tmux >/dev/null 2>&1 && as_root; then
  echo "installing tmux (apt-get install -y tmux)" >&2
  apt_install tmux || echo "could not install tmux: the terminal test will be skipped" >&2
fi
exit 0
