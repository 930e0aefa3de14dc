#!/usr/bin/env bash
# Labels chunks FIRST, FIRST+1, ... one after another (each resumable), at the
# lowest priority: nohup nice -n 19 training/campaign/run.sh FIRST &
# Stop it with SIGTERM (the chunk in hand keeps every saved label); pause it
# with SIGSTOP/SIGCONT while benchmarking. Each chunk's CPU time goes to
# training/work/cpu.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:?first chunk}
# SERIES=b: the back-game chunks bNNN (label-chunk.sh).
while true; do
  c=$(printf '%s%03d' "${SERIES:-c}" "$n")
  start=$(date +%s)
  /usr/bin/time -f "$c %U user-s %S sys-s %e wall-s" -a -o training/work/cpu.log \
    training/campaign/label-chunk.sh "$n" "${THREADS:-2}"
  echo "$c finished $(date -u +%FT%TZ) after $(( $(date +%s) - start )) s" >> training/work/cpu.log
  n=$((n + 1))
done
