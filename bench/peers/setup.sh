#!/usr/bin/env bash
# `npm run bench:setup`: installs the peer tools bench/real-path.ts compares with (Step CI, Newman) into
# bench/peers/node_modules (gitignored), exact versions from bench/peers/package-lock.json, from the npm
# registry. Never run by `npm test` or .ci/run: the benchmark prints "not installed (npm run bench:setup)"
# for a peer that is missing. Idempotent: a second run changes nothing.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # No install scripts: neither tool needs one, and nothing from the registry runs at install time.
  npm ci --no-audit --no-fund --ignore-scripts
fi
for bin in stepci newman; do
  [ -x "node_modules/.bin/$bin" ] || { echo "bench/peers: $bin missing after npm ci" >&2; exit 1; }
done
echo "bench/peers: stepci $(node -p "require('stepci/package.json').version"), newman $(node -p "require('newman/package.json').version") installed"
