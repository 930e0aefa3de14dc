#!/usr/bin/env bash
# Labels campaign chunks one after another (each resumable) at the lowest
# priority:
#   nohup nice -n 19 training/campaign/run.sh N &        chunks cN, cN+1, ... (SERIES=b: bN, ...)
#   nohup nice -n 19 training/campaign/run.sh c39 b2 x1 & c039, b002, x001, c040, b003, x002, ...
#   nohup nice -n 19 training/campaign/run.sh b3 c40 b x2 & a bare series letter is one more turn
#                                            for it: b003, c040, b004, x002, b005, c041, ...
# Stop it with SIGTERM to this script, or SIGTERM or SIGINT to the labeller
# (its pid is in training/work/NAME.pid; a script started with nohup from a
# non-interactive shell ignores SIGINT): the labeller finishes the positions in
# hand and keeps every label. Pause it with SIGSTOP/SIGCONT on the labeller
# while benchmarking. Each run's CPU time goes to training/work/cpu.log; a
# run killed with its session (which writes nothing) is added there from
# the last snapshot keep.sh took (training/work/cpu-running.log) when this
# starts again. Labels are kept in training/data every half hour (KEEP_EVERY).
set -euo pipefail
cd "$(dirname "$0")/../.."
. training/campaign/wait.sh
mkdir -p training/work
[ $# -ge 1 ] || { echo "error: name the first chunk: N (SERIES=b for bN), or cN bN xN dN aN yN wN to take turns (a bare letter: one more turn)" >&2; exit 2; }
# The turns (a series letter each) and each series' next chunk.
turns=()
declare -A next
for t in "$@"; do
  case $t in
    [0-9]*) s=${SERIES:-c} n=$((10#$t)) ;;
    [abcdwxy][0-9]*) s=${t:0:1} n=$((10#${t:1})) ;;
    [abcdwxy]) s=$t n='' ;;
    *) echo "error: $t is not a chunk (N, cN, bN, xN, dN, aN, yN or wN) or a series letter" >&2; exit 2 ;;
  esac
  if [ -n "$n" ]; then
    [ -z "${next[$s]:-}" ] || { echo "error: series $s is given a first chunk twice" >&2; exit 2; }
    next[$s]=$n
  fi
  turns+=("$s")
done
for s in "${turns[@]}"; do
  [ -n "${next[$s]:-}" ] || { echo "error: series $s has no first chunk (give it as ${s}N)" >&2; exit 2; }
done
# Whether `pid` is still labelling chunk `c` (pids are reused).
labelling() {
  { tr '\0' ' ' < "/proc/$2/cmdline"; } 2>/dev/null | grep -Eq "label rollout.*$1\.gds|campaign/label-chunk\.sh"
}
# Runs killed with their session: their CPU up to the last keep.
if [ -e training/work/cpu-running.log ]; then
  while read -r c pid user _ sys _ _ when; do
    if labelling "$c" "$pid"; then
      echo "error: $c is still being labelled by pid $pid; stop it first" >&2
      exit 1
    fi
    if [ -e "training/work/$c.pid" ] && [ "$(cat "training/work/$c.pid")" = "$pid" ]; then
      echo "$c $user user-s $sys sys-s (a run stopped with its session: its CPU at the last keep, $when)" >> training/work/cpu.log
      rm -f "training/work/$c.pid"
    fi
  done < training/work/cpu-running.log
  rm -f training/work/cpu-running.log
fi
# Every KEEP_EVERY seconds (default 1800) the labels so far are copied into
# training/data by keep.sh, where a lost machine's uncommitted work can
# still be recovered; training/work is not (session 44 lost about 5,200
# labels that were only there). Committing them stays the session's job.
# And once more when this script ends.
keep_every=${KEEP_EVERY:-1800}
case $keep_every in ''|*[!0-9]*) keep_every=0 ;; esac
[ "$((10#$keep_every))" -gt 0 ] || { echo "error: KEEP_EVERY must be a whole number of seconds above 0, not '${KEEP_EVERY:-}'" >&2; exit 2; }
# ($$ is this script's pid in the loop too: the loop ends with the script
# even when the script is killed past its EXIT trap.)
keep_loop() {
  sleeper=''
  trap '[ -z "$sleeper" ] || kill "$sleeper" 2>/dev/null || true; exit 0' TERM
  while kill -0 $$ 2>/dev/null; do
    sleep "$((10#$keep_every))" &
    sleeper=$!
    wait "$sleeper" || true
    sleeper=''
    kill -0 $$ 2>/dev/null || break
    training/campaign/keep.sh > /dev/null || echo "warning: keep.sh failed at $(date -u +%FT%TZ)" >&2
  done
}
keep_loop &
keeper=$!
trap 'kill "$keeper" 2>/dev/null || true; wait "$keeper" 2>/dev/null || true; training/campaign/keep.sh > /dev/null || echo "warning: keep.sh failed" >&2' EXIT
# A stop asked of this script goes to the labeller, which ends cleanly.
c='' stopping=0
trap 'stopping=1; pid=$(cat "training/work/$c.pid" 2>/dev/null || true); [ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null || true' TERM INT
while true; do
  for s in "${turns[@]}"; do
    n=${next[$s]}
    c=$(printf '%s%03d' "$s" "$n")
    start=$(date +%s)
    SERIES=$s /usr/bin/time -f "$c %U user-s %S sys-s %e wall-s" -a -o training/work/cpu.log \
      training/campaign/label-chunk.sh "$n" "${THREADS:-2}" &
    wait_for $!
    # This run is in cpu.log whole (stopped or not): its snapshot no longer counts.
    if [ -e "training/work/$c.pid" ]; then
      pid=$(cat "training/work/$c.pid")
      if [ -e training/work/cpu-running.log ]; then
        tmp=$(mktemp training/work/.cpu-running.XXXXXX)
        grep -v "^$c $pid " training/work/cpu-running.log > "$tmp" || true
        mv "$tmp" training/work/cpu-running.log
      fi
      rm -f "training/work/$c.pid"
    fi
    if [ "$stopping" = 1 ] || [ "$status" != 0 ]; then
      exit "$status"
    fi
    echo "$c finished $(date -u +%FT%TZ) after $(( $(date +%s) - start )) s" >> training/work/cpu.log
    next[$s]=$((n + 1))
  done
done
