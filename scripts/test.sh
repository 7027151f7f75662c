#!/usr/bin/env bash
# npm test: every tier, in stages. Tiers that mostly wait (database fsyncs, PostgreSQL round trips,
# server child processes) run side by side within a stage; CPU-bound ones (lint, the Chromium
# tiers, e2e) run alone, so a loaded machine cannot make a timing-sensitive test flaky. Each
# tier's output is printed whole when it ends; the run fails if any tier fails.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d /tmp/sealvault-test-XXXXXX)
trap 'rm -rf "$logs"' EXIT
status=0

# Runs the named npm scripts side by side and waits for all of them.
stage() {
  local pids=() names=()
  for tier in "$@"; do
    local start=$SECONDS
    (
      npm run --silent "$tier" >"$logs/$tier.log" 2>&1
      echo $? >"$logs/$tier.rc"
      echo $((SECONDS - start)) >"$logs/$tier.s"
    ) &
    pids+=($!)
    names+=("$tier")
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    local tier=${names[$i]}
    cat "$logs/$tier.log"
    local rc
    rc=$(cat "$logs/$tier.rc")
    echo "== $tier: exit $rc, $(cat "$logs/$tier.s") s"
    [ "$rc" = 0 ] || status=1
  done
}

stage lint
stage test:unit
stage test:crypto:browser
stage test:web:browser
stage test:server:sqlite test:server:pg
stage test:faults
stage test:multi
stage test:e2e
exit "$status"
