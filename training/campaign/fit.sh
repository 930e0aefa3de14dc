#!/usr/bin/env bash
# A campaign fit in one command: the kept chunks FIRST..LAST (labels and
# their groups, unpacked from training/data into training/work/fit-data/),
# fitted from the shipped net with the ranking term, then measured on the
# yardstick and, by its choice between the results of a roll, on the
# held-out chunks against the shipped net (the figure that decides whether
# the fit goes to the arena: training/campaign/README.md).
#
#   training/campaign/fit.sh NAME FIRST LAST WEIGHT HOLDOUT...
#   e.g. training/campaign/fit.sh c-fit7 1 37 8 38
#
# writes training/runs/NAME/ (weights.gnn, fit-report.json,
# learning-curve.csv, fit.log, time.txt, benchmark.txt, choice.txt). FROM=path starts from
# another net than weights/gammon.net. c-fit4's settings otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
name=${1:?run name} first=${2:?first chunk} last=${3:?last chunk} weight=${4:?ranking weight}
shift 4
[ $# -ge 1 ] || { echo "error: name one or more held-out chunks" >&2; exit 2; }
gammon=${GAMMON:-target/release/gammon}
from=${FROM:-weights/gammon.net}
out=training/runs/$name
[ ! -e "$out/weights.gnn" ] || { echo "error: $out/weights.gnn exists: choose another name" >&2; exit 2; }
data=training/work/fit-data
mkdir -p "$data" "$out"
(cd training/data && sha256sum -c SHA256SUMS --quiet)
# The chunk's labels and groups, unpacked once (a kept chunk only grows).
unpack() {
  local c=$1
  for kind in gds groups; do
    [ -e "training/data/$c.$kind.gz" ] || { echo "error: training/data/$c.$kind.gz is not kept" >&2; exit 2; }
    if [ ! -e "$data/$c.$kind" ] || [ "training/data/$c.$kind.gz" -nt "$data/$c.$kind" ]; then
      gunzip -c "training/data/$c.$kind.gz" > "$data/$c.$kind"
    fi
  done
}
args=()
for n in $(seq "$first" "$last"); do
  c=$(printf 'c%03d' "$n")
  unpack "$c"
  args+=(--data "$data/$c.gds" --groups "$data/$c.groups")
done
held=()
for n in "$@"; do
  c=$(printf 'c%03d' "$n")
  unpack "$c"
  held+=(--labels "$data/$c.gds" --groups "$data/$c.groups")
done
/usr/bin/time -f "%U user-s %e wall-s" -o "$out/time.txt" \
  "$gammon" fit --from "$from" "${args[@]}" --ranking "$weight" --out "$out" --max-epochs 60 --validation 0.1 \
  --loss cross-entropy --rate 0.1 --patience 4 --seed 3 \
  --name "gammon $name: fitted (cross-entropy with a ranking term, weight $weight) to chunks $first-$last (training/runs/$name)" \
  > "$out/fit.log" 2>&1 || { tail -3 "$out/fit.log" >&2; exit 1; }
"$gammon" benchmark ../shared/yardstick/*.tsv --weights "$out/weights.gnn" > "$out/benchmark.txt"
"$gammon" label choice "${held[@]}" --weights "$out/weights.gnn" --baseline weights/gammon.net > "$out/choice.txt"
echo "yardstick pr: $(grep -A2 "pr.tsv" "$out/benchmark.txt" | tail -1)"
grep "paired" "$out/choice.txt"
