#!/usr/bin/env bash
# npm run lint: formatting, then ESLint and the type check side by side (each is one
# single-threaded process, and CI has two cores); fails if any of them fails.
set -uo pipefail
cd "$(dirname "$0")/.."
npx prettier --check . || exit 1
npx eslint . --max-warnings 0 &
eslint=$!
npm run typecheck &
typecheck=$!
status=0
wait "$eslint" || status=1
wait "$typecheck" || status=1
exit "$status"
