#!/bin/bash
# The same questions to two gammon binaries (say, before and after a
# refactoring), and which answers differ. Times and file metadata are left
# out; everything else must be the same bytes.
#
#   scripts/compare_versions.sh OLD_BIN NEW_BIN [WORKDIR]
#
# Asks both: the legal moves of every oracle movegen position and roll
# (7,329), `eval --json` of 200 oracle positions, 0-ply analysis of 40
# positions x 4 rolls and 1-ply x 2 rolls, `cube --json` at 0 and 1 ply,
# two rollouts, a 2,000-game duel, 80 UBGI `go`s, the start of 20 `play`
# games (opening roll, the engine's moves, a hint), and a 400-game training run at 1 and 2
# threads (compared by the trained nets' evaluations of 50 positions, since
# a weights file records when it was written). Needs ../shared/oracle.
set -euo pipefail
old=$(realpath "$1"); new=$(realpath "$2")
work=${3:-$(mktemp -d)}
oracle=$(realpath "$(dirname "$0")/../../shared/oracle")
mkdir -p "$work"
cd "$work"
export GAMMON_CACHE_DIR=$work/cache

python3 - "$oracle" <<'PY'
import json, random, sys
oracle = sys.argv[1]
pos = [json.loads(l)["pos"] for l in open(f"{oracle}/eval.jsonl")]
random.Random(5).shuffle(pos)
open("pos200.txt", "w").write("\n".join(pos[:200]) + "\n")
open("pos40.txt", "w").write("\n".join(pos[:40]) + "\n")
lines = []
for l in open(f"{oracle}/movegen_full.jsonl"):
    d = json.loads(l)
    dice = d["dice"] if isinstance(d["dice"], str) else "".join(map(str, d["dice"]))
    lines.append(f"{d['pos']} {dice}")
open("moves-in.txt", "w").write("\n".join(lines) + "\n")
PY
cat >tiny.toml <<'TOML'
name = "tiny"
games = 400
seed = 5
threads = 2
lambda = 0.0
contact_hidden = 8
race_hidden = 8
init_scale = 0.1
round_games = 2
checkpoint_every = 1000
benchmark_every = 1000
benchmark_pairs = 1

[[learning_rate]]
from = 0
rate = 0.1
TOML
sed 's/threads = 2/threads = 1/' tiny.toml >tiny1.toml
{
    echo ubgi
    while read -r p; do for d in "3 1" "6 4"; do printf 'position gnubgid %s\ndice %s\ngo\n' "$p" "$d"; done; done <pos40.txt
    echo quit
} >ubgi-in.txt

untimed() { grep -vE '"seconds"|games_per_second|games/s$' || true; }

ask() {
    local bin=$1 out=$2
    mkdir -p "$out"
    "$bin" moves --stdin <moves-in.txt >"$out/moves.txt" 2>&1 || true
    while read -r p; do "$bin" eval "$p" --json; done <pos200.txt >"$out/eval.json"
    while read -r p; do for d in 31 64 22 51; do "$bin" analyse "$p" --dice $d --ply 0 --json; done; done <pos40.txt >"$out/analyse0.json"
    while read -r p; do for d in 31 64; do "$bin" analyse "$p" --dice $d --ply 1 --json; done; done <pos40.txt >"$out/analyse1.json"
    while read -r p; do "$bin" cube "$p" --json; "$bin" cube "$p" --ply 1 --json; done <pos40.txt >"$out/cube.json"
    "$bin" rollout 4HPwATDgc/ABMA --games 144 --seed 3 --threads 2 --json | untimed >"$out/rollout.json"
    "$bin" rollout 4HPwATDgc/ABMA --dice 31 --games 72 --seed 3 --threads 2 --json | untimed >"$out/rollout31.json"
    "$bin" duel --a net --b pubeval --games 2000 --seed 11 --threads 2 | untimed >"$out/duel.txt"
    "$bin" ubgi <ubgi-in.txt 2>/dev/null | grep -E '^(bestmove|error)' >"$out/ubgi.txt"
    # The opening roll, the engine's first moves and a hint, for 20 seeds.
    for seed in $(seq 1 20); do printf 'hint\nquit\n' | "$bin" play --seed "$seed" 2>&1 || true; done >"$out/play.txt"
    for t in tiny tiny1; do
        rm -rf "$out/$t"
        "$bin" train --config $t.toml --out "$out/$t" >/dev/null 2>&1
        head -n 50 pos200.txt | while read -r p; do "$new" eval "$p" --weights "$out/$t/weights.gnn" --json; done >"$out/$t.json"
    done
}

ask "$old" old
ask "$new" new
status=0
for f in moves.txt eval.json analyse0.json analyse1.json cube.json rollout.json rollout31.json duel.txt ubgi.txt play.txt tiny.json tiny1.json; do
    if cmp -s "old/$f" "new/$f"; then
        echo "same       $f ($(wc -l <"old/$f") lines)"
    else
        echo "DIFFERENT  $f"
        status=1
    fi
done
cmp -s new/tiny.json new/tiny1.json && echo "same       training at 1 and 2 threads (new)" || { echo "DIFFERENT  training at 1 and 2 threads"; status=1; }
echo "answers in $work"
exit $status
