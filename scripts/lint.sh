#!/usr/bin/env bash
# npm run lint: formatting, ESLint and the type check side by side; fails if any of them fails.
# Each is one single-threaded process and CI has two cores: ESLint (type-aware, the longest, about
# 3.5 min of CPU) has one core, and Prettier (about 40 s) then the type check share the other, so
# Prettier no longer runs alone first while a core waits.
set -uo pipefail
cd "$(dirname "$0")/.."
npx prettier --check . &
prettier=$!
npx eslint . --max-warnings 0 &
eslint=$!
npm run typecheck &
typecheck=$!
status=0
wait "$prettier" || status=1
wait "$eslint" || status=1
wait "$typecheck" || status=1
exit "$status"
