#!/usr/bin/env bash
# Kill counts of the race faults on this machine, as it is (issue 13): RUNS times, each fault against the
# scenario that must kill it, on the embedded reference (project sandbox, one worker). A run kills the fault
# when the scenario FAILS on a check (CheckFailure); an errored or passing run does not count.
#   bash scripts/race-kills.sh [RUNS] [fault=scenario ...]
# Default: 20 runs of checkpoint-cas-window-2ms=checkpoints.race and idempotency-window-2ms=idempotency.concurrent-retries.
set -u
cd "$(dirname "$0")/.."
runs=${1:-20}
shift || true
pairs=("$@")
[ ${#pairs[@]} -eq 0 ] && pairs=(checkpoint-cas-window-2ms=checkpoints.race idempotency-window-2ms=idempotency.concurrent-retries)
log=$(mktemp -d)
status=0
for pair in "${pairs[@]}"; do
  fault=${pair%%=*} scenario=${pair#*=} kills=0
  for i in $(seq "$runs"); do
    out="$log/$fault-$i.log"
    FTF_RUN="{\"fault\":\"$fault\"}" npx playwright test -g "$scenario:" --project sandbox --workers 1 --reporter=line >"$out" 2>&1
    if grep -q "CheckFailure" "$out" && grep -qE "^  1 failed" "$out"; then kills=$((kills + 1)); fi
  done
  echo "$fault ($scenario): killed in $kills of $runs runs (load $(cut -d' ' -f1-3 /proc/loadavg))"
  [ "$kills" -eq "$runs" ] || status=1
done
echo "logs: $log"
exit $status
