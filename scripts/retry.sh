#!/usr/bin/env bash
# Runs a command up to N times, waiting longer after each failure: the npm registry sometimes drops a
# download mid-body (EIDLETIMEOUT), and npm's own fetch retries do not cover a body cut short.
# Usage: retry.sh <attempts> <command> [args...]
set -uo pipefail
attempts=$1
shift
for attempt in $(seq 1 "$attempts"); do
  "$@" && exit 0
  status=$?
  [ "$attempt" -lt "$attempts" ] || exit "$status"
  echo "retry.sh: '$1' failed (exit $status), attempt $attempt of $attempts; trying again in $((attempt * 15)) s" >&2
  sleep $((attempt * 15))
done
