#!/usr/bin/env bash
# The flaky check (issue 20; docs/RELIABILITY.md, "The flaky check"): the browser group and the real-time
# group, back to back, ROUNDS times in a row (default 5), each with 2 workers, while two `yes > /dev/null`
# keep both cores busy — what a loaded CI machine does to timing. Stops at the first failure and says which
# log to read. Run it with `make flaky` (ROUNDS=n to change the count).
set -u
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
PYTHON=${PYTHON:-.venv/bin/python}
LOGS=${LOGS:-$(mktemp -d -t mft-flaky-XXXXXX)}
mkdir -p "$LOGS"
export CI=${CI:-true}
export TEST_POSTGRES_URL=${TEST_POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/test}
export TEST_REDIS_URL=${TEST_REDIS_URL:-redis://127.0.0.1:6379/15}
export CHROMIUM_PATH=${CHROMIUM_PATH:-/usr/bin/chromium}
REALTIME=(
  tests/tournament/realtime tests/reliability/test_crash_recovery.py tests/reliability/test_lost_pushes.py
  tests/reliability/test_several_servers.py tests/reliability/test_slow_spectator.py
  tests/reliability/test_no_leaks_live.py tests/reliability/test_exactly_once.py
  tests/reliability/test_driver_lease.py tests/reliability/test_carried_versions.py tests/gamenight/test_sockets.py
  tests/infra/test_channel_layer_redis.py
)
yes > /dev/null & load1=$!
yes > /dev/null & load2=$!
trap 'kill $load1 $load2 2>/dev/null' EXIT
echo "flaky check: $ROUNDS rounds, logs in $LOGS, started $(date -u '+%Y-%m-%d %H:%M UTC')"
for round in $(seq 1 "$ROUNDS"); do
  for group in browser realtime; do
    if [ "$group" = browser ]; then args=(-m chromium tests); else args=("${REALTIME[@]}"); fi
    log="$LOGS/round-$round-$group.log"
    start=$SECONDS
    "$PYTHON" -m pytest -n 2 -q -p no:cacheprovider "${args[@]}" > "$log" 2>&1
    rc=$?
    echo "round $round, $group group: $(tail -n 1 "$log") [$((SECONDS - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg)]"
    if [ "$rc" -ne 0 ]; then echo "FAILED: read $log"; exit 1; fi
  done
done
echo "all $ROUNDS rounds passed, $(date -u '+%Y-%m-%d %H:%M UTC')"
