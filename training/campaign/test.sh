#!/usr/bin/env bash
# Tests of the campaign scripts (run.sh, label-chunk.sh, keep.sh, arena_keep.py) with a
# stand-in for gammon, in a scratch copy: never in the checkout, whose
# training/work and training/data hold the campaign. About 15 s.
#   training/campaign/test.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d /tmp/campaign-test.XXXXXX)
trap 'pkill -KILL -f "$scratch/" 2>/dev/null || true; rm -rf "$scratch"' EXIT
mkdir -p "$scratch/training/campaign" "$scratch/training/data" "$scratch/weights"
cp "$here"/*.sh "$here"/*.py "$here/chunk-nets.txt" "$scratch/training/campaign/"
cd "$scratch"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# The stand-in: `label sample` writes one position and its group;
# `label rollout` notes what it resumed from, then saves FAKE_STEPS
# growing label files (by rename, as gammon does), one every 0.5 s, and
# ends with 130 on SIGTERM (gammon keeps its labels and says so).
cat > "$scratch/gammon" <<'EOF'
#!/usr/bin/env bash
out='' groups=''
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in --out) out=${args[i + 1]} ;; --groups) groups=${args[i + 1]} ;; esac
done
echo "$*" >> calls.log
if [ "$1 $2" = "label sample" ]; then
  echo P > "$out"
  printf '0\tP\n' > "$groups"
  exit 0
fi
trap 'exit 130' TERM
start=0
if [ -e "$out" ]; then start=$(wc -l < "$out"); echo "resumed from $start" >> calls.log; fi
for ((k = start + 1; k <= start + ${FAKE_STEPS:-6}; k++)); do
  seq "$k" > "$out.saving"
  mv "$out.saving" "$out"
  sleep 0.5 &
  wait $!
done
EOF
chmod +x "$scratch/gammon"
export GAMMON=$scratch/gammon
kept() { { gunzip -c training/data/y001.gds.gz 2>/dev/null || true; } | wc -l; }
# Polls CONDITION (a command) up to 20 s: a slow machine fails no test.
wait_until() {
  local k
  for ((k = 0; k < 100; k++)); do
    if eval "$1"; then return 0; fi
    sleep 0.2
  done
  return 1
}

# 1. Series y: crashed boards in back games, seeded 75000+N, played to the end.
SERIES=y "$scratch"/training/campaign/label-chunk.sh 1 > /dev/null 2>&1 || true
grep -q -- "label sample .*--only crashed --kind back-game --seed 75001" calls.log \
  && grep -q -- "label rollout .*--full --seed 75001 .*--out training/work/y001.gds" calls.log \
  && pass "series y samples and labels with its own settings" || fail "series y: $(cat calls.log)"
rm -rf training/work calls.log

# 1b. Series w: back games with wider choices (8 results within 0.2), seeded 85000+N.
SERIES=w "$scratch"/training/campaign/label-chunk.sh 2 > /dev/null 2>&1 || true
grep -q -- "label sample .*--afterstates 8 --window 0.2 .*--kind back-game --seed 85002" calls.log \
  && grep -q -- "label rollout .*--full --seed 85002 .*--out training/work/w002.gds" calls.log \
  && ! grep -q -- "--afterstates 4" calls.log \
  && pass "series w samples with wider choices" || fail "series w: $(cat calls.log)"
rm -rf training/work calls.log
KEEP_EVERY=1 FAKE_STEPS=40 "$scratch"/training/campaign/run.sh w3 > run.log 2>&1 &
wait_until '[ -e training/data/w003.gds.gz ]' \
  && grep -q -- "--seed 85003 .*--out training/work/w003.gds" calls.log \
  && pass "run.sh labels and keeps series w" || fail "run.sh w3: $(cat run.log calls.log)"
pkill -TERM -f "^bash $scratch/training/campaign/run.sh w3" 2>/dev/null || true
wait_until '! pgrep -f "$scratch/" > /dev/null' || fail "run.sh w3 did not stop: $(pgrep -af "$scratch/")"
rm -rf training/work training/data/w003.* calls.log run.log
(cd training/data && { sha256sum [abcdwxy][0-9][0-9][0-9].gds.gz [abcdwxy][0-9][0-9][0-9].groups.gz 2>/dev/null || true; } > SHA256SUMS)

# 1c. The ordinary chunks take 72 trials a label up to c040, 36 from c041.
"$scratch"/training/campaign/label-chunk.sh 40 > /dev/null 2>&1 || true
"$scratch"/training/campaign/label-chunk.sh 41 > /dev/null 2>&1 || true
grep -q -- "label rollout .*--trials 72 --full --seed 25040 .*--out training/work/c040.gds" calls.log \
  && grep -q -- "label rollout .*--trials 36 --full --seed 25041 .*--out training/work/c041.gds" calls.log \
  && pass "c041 on take 36 trials, c040 72" || fail "trials of c040, c041: $(cat calls.log)"
rm -rf training/work calls.log

# 2. run.sh keeps the labels so far every KEEP_EVERY seconds, and at a stop.
KEEP_EVERY=1 FAKE_STEPS=40 "$scratch"/training/campaign/run.sh y1 > run.log 2>&1 &
runner=$!
wait_until '[ "$(kept)" -ge 2 ]' && pass "labels kept while labelling" || fail "nothing kept while labelling"
kill -TERM "$runner" 2>/dev/null || true
status=0
wait "$runner" || status=$?
[ "$status" = 130 ] && pass "a stop ends run.sh with the labeller's status" || fail "run.sh ended with $status, not 130: $(cat run.log calls.log)"
[ "$(kept)" = "$(wc -l < training/work/y001.gds)" ] && pass "the last labels kept at the stop" \
  || fail "kept $(kept), labelled $(wc -l < training/work/y001.gds)"
(cd training/data && sha256sum -c SHA256SUMS --quiet) && pass "SHA256SUMS matches" || fail "SHA256SUMS"
ls -A training/data | grep -q '^\.' && fail "temporary files left in training/data: $(ls -A training/data)" \
  || pass "no temporary file left"
grep -q '^y001 ' training/data/cpu.log && pass "the run's CPU time recorded" || fail "cpu.log: $(cat training/data/cpu.log)"
pgrep -f "$scratch/" > /dev/null && fail "processes left: $(pgrep -af "$scratch/")" || pass "nothing left running"

# 3. A fresh checkout (no training/work) resumes from the kept labels.
before=$(kept)
rm -rf training/work calls.log
FAKE_STEPS=1 "$scratch"/training/campaign/run.sh y1 > run.log 2>&1 &
runner=$!
wait_until 'grep -q resumed calls.log 2>/dev/null'
kill -TERM "$runner" 2>/dev/null || true
wait "$runner" || true
grep -q "resumed from $before" calls.log && pass "resumed from the $before kept labels" || fail "resume: $(cat calls.log)"

# 4. The keep loop ends with run.sh even when run.sh is killed outright.
# (in a subshell: not a job of this shell, which would report its killing)
(KEEP_EVERY=1 FAKE_STEPS=4 setsid "$scratch"/training/campaign/run.sh y1 > run.log 2>&1 &)
wait_until '[ "$(pgrep -fc "^bash $scratch/training/campaign/run.sh y1")" = 2 ]' || fail "run.sh and its keep loop did not start"
pkill -KILL -of "^bash $scratch/training/campaign/run.sh y1"
wait_until '! pgrep -f "$scratch/training/campaign/run.sh" > /dev/null' && pass "the keep loop ends with run.sh" \
  || fail "the keep loop outlived run.sh"

# 5. Bad settings are refused with one error line.
status=0
KEEP_EVERY=00 "$scratch"/training/campaign/run.sh y1 2> err.txt || status=$?
[ "$status" = 2 ] && grep -q "^error: KEEP_EVERY" err.txt && pass "KEEP_EVERY=00 refused" || fail "KEEP_EVERY=00: $status $(cat err.txt)"
status=0
"$scratch"/training/campaign/run.sh q1 2> err.txt || status=$?
[ "$status" = 2 ] && grep -q "^error: q1 is not a chunk" err.txt && pass "an unknown series refused" || fail "q1: $status $(cat err.txt)"

# 6. wait_for gives the child's own status when the child ends before the
# trap that stopped it returns (the race that made run.sh end with 143).
cat > race.sh <<'EOF'
. training/campaign/wait.sh
trap 'kill -TERM "$child"; sleep 0.3' TERM
bash -c 'trap "exit 130" TERM; sleep 5 > /dev/null & wait' &
child=$!
(sleep 0.3; kill -TERM $$) &
wait_for "$child"
echo "$status"
EOF
got=$(bash race.sh)
[ "$got" = 130 ] && pass "wait_for keeps a stopped child's status" || fail "wait_for: $got"

# 7. arena_keep.py: kept arena runs come back with the same points in every
# game and the same summary; unfinished runs and runs elsewhere are refused.
mkdir -p training/work/arena
python3 - <<'PY'
import json
games = [{"type": "game", "pair": p, "game": g, "first": "AB"[g], "points": (p * 7 + g * 3) % 7 - 3, "turns": 50}
         for p in range(5) for g in (0, 1)]
games.reverse()  # the arena's workers write pairs in any order
for name, rows, complete in (("n-A", games, True), ("part-A", games[:6], False)):
    with open(f"training/work/arena/{name}.jsonl", "w") as f:
        f.writelines(json.dumps(x) + "\n" for x in rows)
    with open(f"training/work/arena/{name}.summary.json", "w") as f:
        json.dump({"seed": "A", "pairs": [0, 5], "complete": complete, "stats": {"ppg": 0.1}}, f)
PY
ak=training/campaign/arena_keep.py
{ python3 $ak keep kept.jsonl.gz training/work/arena/n-A.jsonl && mv training/work/arena arena.orig \
  && python3 $ak restore kept.jsonl.gz; } > /dev/null || fail "arena_keep.py keep and restore"
python3 - <<'PY' && pass "arena_keep.py restores a run's points and summary" || fail "arena_keep.py round trip"
import json
def points(path):
    return sorted((g["pair"], g["game"], g["points"]) for g in map(json.loads, open(path)))
assert points("arena.orig/n-A.jsonl") == points("training/work/arena/n-A.jsonl")
assert json.load(open("arena.orig/n-A.summary.json")) == json.load(open("training/work/arena/n-A.summary.json"))
PY
status=0
python3 $ak keep kept2.jsonl.gz arena.orig/part-A.jsonl 2> err.txt || status=$?
[ "$status" = 1 ] && grep -q "^error: .*not under training/work" err.txt && pass "arena_keep.py refuses a run outside training/work" \
  || fail "a run outside training/work: $status $(cat err.txt)"
mv arena.orig/part-A.* training/work/arena/
status=0
python3 $ak keep kept2.jsonl.gz training/work/arena/part-A.jsonl 2> err.txt || status=$?
[ "$status" = 1 ] && grep -q "^error: .*not a complete run" err.txt && [ ! -e kept2.jsonl.gz ] \
  && pass "arena_keep.py refuses an unfinished run" || fail "an unfinished run: $status $(cat err.txt)"

[ "$failures" = 0 ] || { echo "$failures campaign script test(s) failed" >&2; exit 1; }
echo "campaign scripts: all passed"
