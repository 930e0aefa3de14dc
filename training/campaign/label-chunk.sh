#!/usr/bin/env bash
# Labels chunk N of the own-rollout campaign (issue 25), resuming where it
# stopped. Usage: training/campaign/label-chunk.sh N [threads]
#
# The positions of chunk N come from `gammon label sample` seeded by N, so
# they are regenerated identically in any session (by the net that sampled
# them), with the groups file saying which positions are results of the
# same roll (what `gammon fit --ranking` and `gammon label choice` need);
# the labels go to
# training/work/cNNN.gds (resumed if it is there), and a finished or
# partial chunk is kept by `training/campaign/keep.sh` as
# training/data/cNNN.gds.gz with its SHA-256.
set -euo pipefail
cd "$(dirname "$0")/../.."
. training/campaign/wait.sh
n=${1:?chunk number}
threads=${2:-2}
# SERIES=b labels the back-game series instead: chunk bNNN holds only
# positions of back games (`label sample --kind back-game`, about 5% of an
# ordinary chunk, where the net is worst), seeded 35000+N. SERIES=x: crashed
# boards (`label sample --only crashed`, the crashed net's positions, about
# 9% of an ordinary chunk, the next worst against the chunks' own labels),
# seeded 45000+N. SERIES=d: rolls the net's 2-ply search decides otherwise
# than its 0-ply choice (`label sample --disagree 2`: every result kept of
# such a roll, the choices a fit most needs), seeded 55000+N. SERIES=a:
# attacks, blitzes (`label sample --kind blitz`, about 15% of an ordinary
# chunk), where the net under-predicts its own labels' backgammon
# losses (the issue's "positions where backgammons happen"), seeded 65000+N.
# SERIES=y: crashed boards in back games (`--only crashed --kind back-game`,
# about 4% of a back-game chunk), where the net is furthest from its own
# rollouts (about 0.1 equity, against 0.02 in the other back-game
# positions), seeded 75000+N. SERIES=w: back games with wider choices, the
# 8 best results of a roll within 0.2 of the best (the other series keep 4
# within 0.1): the net plays the back-game side worse than gnubg 0-ply and
# its search does not mend it (training/runs/label-audit/backgame-sides.md),
# so its rollouts meet more of the moves it now rates lower, seeded 85000+N.
series=${SERIES:-c}
choices=(--afterstates 4 --window 0.1)
case "$series" in
  c) kind=() seed=$((25000 + n)) ;;
  b) kind=(--kind back-game) seed=$((35000 + n)) ;;
  x) kind=(--only crashed) seed=$((45000 + n)) ;;
  d) kind=(--disagree 2) seed=$((55000 + n)) ;;
  a) kind=(--kind blitz) seed=$((65000 + n)) ;;
  y) kind=(--only crashed --kind back-game) seed=$((75000 + n)) ;;
  w) kind=(--kind back-game) seed=$((85000 + n)) choices=(--afterstates 8 --window 0.2) ;;
  *) echo "error: SERIES must be c (the ordinary chunks), b (back games), x (crashed boards), d (2-ply disagrees), a (blitzes), y (crashed back games) or w (back games, wider choices), not $series" >&2; exit 2 ;;
esac
c=$(printf '%s%03d' "$series" "$n")
# This shell's pid is the labeller's (exec, below): keep.sh reads the CPU
# time of both steps from it, so that a run stopped with its session still
# counts (run.sh).
mkdir -p training/work
echo $$ > "training/work/$c.pid"
gammon=${GAMMON:-target/release/gammon}
# The chunk's own net (chunk-nets.txt), else the shipped one; WEIGHTS= overrides.
listed=$(awk -v n="$n" -v s="$series" '!/^#/ && NF >= 4 && $1 == s && n >= $2 && n <= $3 { w = $4 } END { print w }' \
  training/campaign/chunk-nets.txt)
weights=${WEIGHTS:-${listed:-weights/gammon.net}}
mkdir -p training/work
# The campaign settings (training/campaign/README.md says why).
count=10000
pos=training/work/$c.positions
groups=training/work/$c.groups
# A kept groups file is the chunk's (sampling again with another net than
# the one that sampled it would give other positions).
# Unpacked under another name and renamed: keep.sh (run.sh runs it every
# half hour) must never copy a half-written file over the kept one.
unpack() {
  gunzip -c "$1" > "$2.unpacking"
  mv -f "$2.unpacking" "$2"
}
if [ ! -e "$groups" ] && [ -e training/data/$c.groups.gz ]; then
  unpack training/data/$c.groups.gz "$groups"
fi
if [ ! -s "$pos" ] || [ ! -s "$groups" ]; then
  # In the background, so that a stop asked of this script (run.sh sends
  # it to this pid) reaches the sampler instead of leaving it orphaned.
  "$gammon" label sample --weights "$weights" --count $count "${choices[@]}" \
    --explore 0.1 "${kind[@]}" --seed $seed --threads "$threads" --out "$pos" --groups "$groups" &
  sampler=$!
  trap 'kill -TERM "$sampler" 2>/dev/null || true' TERM INT
  wait_for "$sampler"
  trap - TERM INT
  [ "$status" = 0 ] || exit "$status"
fi
# A kept partial chunk is where the labelling resumes.
if [ ! -e training/work/$c.gds ] && [ -e training/data/$c.gds.gz ]; then
  unpack training/data/$c.gds.gz training/work/$c.gds
fi
# c001-c013 were truncated after 7 half-moves (the first choice); from c014
# every trial is played to the end: the label audit's 72-to-the-end is
# closer to the yardstick (0.026 against 0.033 on pr) and is the only
# labeller whose backgammon values are alive. A chunk keeps its settings so
# that it resumes.
if [ "$series" = c ] && [ "$n" -le 13 ]; then depth=(--truncate 7); else depth=(--full); fi
# From c041 the ordinary chunks take 36 trials a label, half the CPU: a fit
# loses nothing on pr or a held-out chunk when its labels carry two or four
# times their noise, and the yardstick gains with every ordinary value
# label (training/runs/c-fit14, "Fewer trials a label"). The other series
# keep 72: the back-game sets lost 0.001-0.002 with the noisier labels.
trials=72
if [ "$series" = c ] && [ "$n" -ge 41 ]; then trials=36; fi
exec "$gammon" label rollout --weights "$weights" --positions "$pos" --trials $trials "${depth[@]}" \
  --seed $seed --chunk 200 --threads "$threads" --out training/work/$c.gds
