#!/usr/bin/env bash
# Labels campaign chunks one after another (each resumable) at the lowest
# priority:
#   nohup nice -n 19 training/campaign/run.sh N &        chunks cN, cN+1, ... (SERIES=b: bN, ...)
#   nohup nice -n 19 training/campaign/run.sh c39 b2 x1 & c039, b002, x001, c040, b003, x002, ...
# Stop it with SIGTERM or SIGINT to the labeller (the chunk in hand keeps
# every saved label); pause it with SIGSTOP/SIGCONT while benchmarking.
# Each run's CPU time goes to training/work/cpu.log; a run stopped with
# its session (killed, so it wrote nothing) is added there from the last
# snapshot keep.sh took (training/work/cpu-running.log) when this starts.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "error: name the first chunk: N (SERIES=b for bN), or cN bN xN dN to take turns" >&2; exit 2; }
series=() next=()
for t in "$@"; do
  case $t in
    [0-9]*) series+=("${SERIES:-c}") next+=("$((10#$t))") ;;
    [cbxd][0-9]*) series+=("${t:0:1}") next+=("$((10#${t:1}))") ;;
    *) echo "error: $t is not a chunk (N, cN, bN, xN or dN)" >&2; exit 2 ;;
  esac
done
# Runs killed with their session: their CPU up to the last keep.
if [ -e training/work/cpu-running.log ]; then
  while read -r c pid user _ sys _ _ when; do
    if [ -e "training/work/$c.pid" ] && [ "$(cat "training/work/$c.pid")" = "$pid" ]; then
      echo "$c $user user-s $sys sys-s (a run stopped with its session: its CPU at the last keep, $when)" >> training/work/cpu.log
      rm -f "training/work/$c.pid"
    fi
  done < training/work/cpu-running.log
  rm -f training/work/cpu-running.log
fi
while true; do
  for k in "${!series[@]}"; do
    s=${series[$k]} n=${next[$k]}
    c=$(printf '%s%03d' "$s" "$n")
    start=$(date +%s)
    status=0
    SERIES=$s /usr/bin/time -f "$c %U user-s %S sys-s %e wall-s" -a -o training/work/cpu.log \
      training/campaign/label-chunk.sh "$n" "${THREADS:-2}" || status=$?
    # This run is in cpu.log whole (stopped or not): its snapshot no longer counts.
    if [ -e "training/work/$c.pid" ]; then
      pid=$(cat "training/work/$c.pid")
      if [ -e training/work/cpu-running.log ]; then
        grep -v "^$c $pid " training/work/cpu-running.log > training/work/cpu-running.tmp || true
        mv training/work/cpu-running.tmp training/work/cpu-running.log
      fi
      rm -f "training/work/$c.pid"
    fi
    [ "$status" = 0 ] || exit "$status"
    echo "$c finished $(date -u +%FT%TZ) after $(( $(date +%s) - start )) s" >> training/work/cpu.log
    next[$k]=$((n + 1))
  done
done
