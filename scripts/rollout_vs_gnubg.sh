#!/bin/bash
# Back-to-back rollout speed against gnubg 1.07: the starting position,
# cubeless, 0-ply chequer play, quasi-random dice, full games (both programs
# take their bearoff databases' values), 2 threads, with and without
# variance reduction; the programs alternate, ROUNDS times each.
#
# usage: scripts/rollout_vs_gnubg.sh GAMMON [TRIALS] [ROUNDS] [GAMMON2 ...]
# prints one line per run: program, vr on/off, wall seconds, games/s.
set -euo pipefail
gammon=${1:?usage: rollout_vs_gnubg.sh GAMMON [TRIALS] [ROUNDS] [GAMMON2 ...]}
trials=${2:-1296}
rounds=${3:-3}
shift $(( $# < 3 ? $# : 3 ))
others=("$@")
gnubg=${GNUBG:-/usr/games/gnubg}
cmds=$(mktemp)
trap 'rm -f "$cmds"' EXIT
run() { # name vr command...
    local name=$1 vr=$2
    shift 2
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s.%N)
    awk -v n="$name" -v v="$vr" -v s="$start" -v e="$end" -v t="$trials" \
        'BEGIN { printf "%-12s vr %-3s %7.2f s %7.1f games/s\n", n, v, e - s, t / (e - s) }'
}
for ((r = 1; r <= rounds; r++)); do
    for vr in on off; do
        printf 'set threads 2\nset rollout trials %s\nset rollout chequerplay plies 0\nset rollout cubedecision plies 0\nset rollout cubeful off\nset rollout varredn %s\nset rollout quasirandom on\nset rollout truncation enable off\nset rollout seed 5\nnew game\nset board 4HPwATDgc/ABMA\nset turn 0\nrollout\n' \
            "$trials" "$vr" > "$cmds"
        flag=()
        [ "$vr" = off ] && flag=(--no-vr)
        run gnubg "$vr" sh -c "$gnubg -t -q < $cmds"
        for g in "$gammon" "${others[@]}"; do
            run "$(basename "$g")" "$vr" "$g" rollout start --games "$trials" --threads 2 --seed 5 "${flag[@]}"
        done
    done
done
