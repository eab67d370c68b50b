#!/usr/bin/env bash
# `npm test` beside two CPU-bound processes (see test-under-load.mjs); exits with the test command's status.
exec node "$(dirname "$0")/test-under-load.mjs" "$@"
