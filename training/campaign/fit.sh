#!/usr/bin/env bash
# A campaign fit in one command: the kept chunks FIRST..LAST (labels and
# their groups, unpacked from training/data into training/work/fit-data/),
# fitted from the shipped net with the ranking term, then measured on the
# yardstick and, by its choice between the results of a roll, on the
# held-out chunks against the shipped net (the figure that decides whether
# the fit goes to the arena: training/campaign/README.md).
#
#   training/campaign/fit.sh NAME FIRST LAST WEIGHT HOLDOUT...
#   e.g. training/campaign/fit.sh c-fit7 1 35 4 36
#
# Chunks are numbers (cNNN), bN (the back-game chunk bNNN), xN (the
# crashed-board chunk xNNN), dN (the 2-ply-disagrees chunk dNNN), aN (the
# blitz chunk aNNN), yN (the chunk yNNN of crashed boards in back games)
# or wN (the back-game chunk wNNN with wider choices).
# EXTRA="b1 b2 x1" adds chunks to the training set beyond FIRST..LAST; HALVE_AFTER=N and
# MAX_EPOCHS=N change the rate schedule (defaults 1 and 100: c-fit7's);
# FIT_ARGS="--hidden 160" adds options to both steps' `gammon fit`;
# REPEAT_B=N meets each back-game chunk's positions N times an epoch
# (REPEAT_A=N each blitz chunk's, REPEAT_Y=N each y chunk's, REPEAT_W=N each w chunk's)
# (`gammon fit --repeat`); FIT_DATA=DIR reads the chunks from DIR as they are there;
# RANK_ONLY="1 2 3" fits those chunks (fitted
# chunks, as FIRST..LAST or EXTRA) by the ranking term only
# (`gammon fit --rank-only`: c001-c013, truncated by a net with dead
# backgammon outputs, have labels whose level is off).
#
# writes training/runs/NAME/ (weights.gnn, fit-report.json,
# learning-curve.csv, fit.log, time.txt, benchmark.txt, choice.txt,
# held-out.txt: the held-out chunks' values by this net and the shipped one; the
# contact step's files in NAME/contact/). FROM=path starts from another net
# than weights/gammon.net: on a few more labels than the shipped net was
# fitted to, start from the net before it (from the shipped net the fit
# keeps its starting point: training/runs/c-fit11). The recipe (c-fit7's, training/runs/c-fit7): Adam
# at rate 0.0003 from the shipped net, the contact net first, then the
# crashed net, starting from that step's file (`--only`), the race net left as it is (its own
# labels: training/runs/race-fresh). c-fit1 to c-fit6 used plain descent
# (`--rate 0.1 --patience 4 --max-epochs 60`, all nets at once).
set -euo pipefail
cd "$(dirname "$0")/../.."
name=${1:?run name} first=${2:?first chunk} last=${3:?last chunk} weight=${4:?ranking weight}
shift 4
[ $# -ge 1 ] || { echo "error: name one or more held-out chunks" >&2; exit 2; }
gammon=${GAMMON:-target/release/gammon}
from=${FROM:-weights/gammon.net}
out=training/runs/$name
[ ! -e "$out/weights.gnn" ] || { echo "error: $out/weights.gnn exists: choose another name" >&2; exit 2; }
# FIT_DATA=DIR reads the chunks from DIR instead, as they are there (never
# unpacked over): copies made for an experiment (label_noise, c-fit14).
data=${FIT_DATA:-training/work/fit-data}
mkdir -p "$data" "$out"
(cd training/data && sha256sum -c SHA256SUMS --quiet)
# The chunk's labels and groups, unpacked once (a kept chunk only grows).
# A chunk token (37, b1) as its file name (c037, b001).
chunk() {
  case $1 in
    [abcdwxy][0-9]*) printf '%s%03d' "${1:0:1}" "$((10#${1:1}))" ;;
    [0-9]*) printf 'c%03d' "$((10#$1))" ;;
    *) echo "error: $1 is not a chunk (N or cN, bN, xN, dN, aN, yN, wN)" >&2; exit 2 ;;
  esac
}
unpack() {
  local c=$1
  for kind in gds groups; do
    [ -e "training/data/$c.$kind.gz" ] || { echo "error: training/data/$c.$kind.gz is not kept" >&2; exit 2; }
    if [ -n "${FIT_DATA:-}" ]; then
      [ -e "$data/$c.$kind" ] || { echo "error: $data/$c.$kind is not there (FIT_DATA)" >&2; exit 2; }
    elif [ ! -e "$data/$c.$kind" ] || [ "training/data/$c.$kind.gz" -nt "$data/$c.$kind" ]; then
      gunzip -c "training/data/$c.$kind.gz" > "$data/$c.$kind"
    fi
  done
}
args=()
for n in $(seq "$first" "$last") ${EXTRA:-}; do
  c=$(chunk "$n")
  unpack "$c"
  args+=(--data "$data/$c.gds" --groups "$data/$c.groups")
  if [ "${c:0:1}" = b ] && [ -n "${REPEAT_B:-}" ]; then args+=(--repeat "$data/$c.gds=$REPEAT_B"); fi
  if [ "${c:0:1}" = a ] && [ -n "${REPEAT_A:-}" ]; then args+=(--repeat "$data/$c.gds=$REPEAT_A"); fi
  if [ "${c:0:1}" = y ] && [ -n "${REPEAT_Y:-}" ]; then args+=(--repeat "$data/$c.gds=$REPEAT_Y"); fi
  if [ "${c:0:1}" = w ] && [ -n "${REPEAT_W:-}" ]; then args+=(--repeat "$data/$c.gds=$REPEAT_W"); fi
done
rank_only=''
for n in ${RANK_ONLY:-}; do
  c=$(chunk "$n")
  fitted=0
  for a in "${args[@]}"; do [ "$a" != "$data/$c.gds" ] || fitted=1; done
  [ "$fitted" = 1 ] || { echo "error: RANK_ONLY names $c, which is not fitted" >&2; exit 2; }
  args+=(--rank-only "$data/$c.gds")
  rank_only="$rank_only $c"
done
held=() held_data=()
for n in "$@"; do
  c=$(chunk "$n")
  unpack "$c"
  held+=(--labels "$data/$c.gds" --groups "$data/$c.groups")
  held_data+=("$data/$c.gds")
  # A held-out chunk must not be fitted too.
  for a in "${args[@]}"; do
    [ "$a" != "$data/$c.gds" ] || { echo "error: $c is both fitted and held out" >&2; exit 2; }
  done
done
extra=${EXTRA:+ and ${EXTRA}}
ranked=${rank_only:+; ranking term only on${rank_only}}
label="gammon $name: fitted (Adam, cross-entropy with a ranking term, weight $weight) to chunks $first-$last$extra$ranked (training/runs/$name)"
fit() {
  local net=$1 start=$2 dir=$3
  /usr/bin/time -f "$net %U user-s %e wall-s" -a -o "$out/time.txt" \
    "$gammon" fit --from "$start" "${args[@]}" --ranking "$weight" --out "$dir" --only "$net" --max-epochs "${MAX_EPOCHS:-100}" --halve-after "${HALVE_AFTER:-1}" ${FIT_ARGS:-} \
    --validation 0.1 --loss cross-entropy --optimizer adam --rate 0.0003 --patience 6 --seed 3 --name "$label" \
    >> "$out/fit.log" 2>&1 || { tail -3 "$out/fit.log" >&2; exit 1; }
}
rm -f "$out/time.txt" "$out/fit.log"
fit contact "$from" "$out/contact"
fit crashed "$out/contact/weights.gnn" "$out"
"$gammon" benchmark ../shared/yardstick/*.tsv --weights "$out/weights.gnn" > "$out/benchmark.txt"
"$gammon" label choice "${held[@]}" --weights "$out/weights.gnn" --baseline weights/gammon.net > "$out/choice.txt"
# The values on the held-out chunks' own labels, this net's and the shipped one's.
rm -f "$out/held-out.txt"
values=()
for w in "$out/weights.gnn" weights/gammon.net; do
  "$gammon" benchmark "${held_data[@]}" --weights "$w" > "$out/held-out.part"
  cat "$out/held-out.part" >> "$out/held-out.txt"
  # The last equity line: the only file's, or the total of several.
  value=$(grep "^  equity" "$out/held-out.part" | tail -1 | awk '{print $3}' || true)
  [ -n "$value" ] || { echo "error: no equity line in gammon benchmark's output ($out/held-out.txt)" >&2; exit 1; }
  values+=("$value")
done
rm -f "$out/held-out.part"
echo "yardstick pr: $(grep -A2 "pr.tsv" "$out/benchmark.txt" | tail -1)"
echo "held-out chunks' own labels, |equity error|: ${values[0]} (the shipped net ${values[1]})"
grep "paired" "$out/choice.txt"
