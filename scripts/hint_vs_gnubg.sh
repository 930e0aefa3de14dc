#!/bin/bash
# Back-to-back 2-ply analysis of a roll against gnubg 1.07's default hint
# (2-ply, its normal move filter): 20 contact positions of wildbg's benchmark
# set (lines 100-119 of shared/bench/contact-1000.txt) with 31. gnubg
# answers all 20 in one process (`set threads 1`; its start-up, an empty
# command file, is measured and subtracted); gammon runs one fresh process
# per position (`gammon analyse POS --dice 31 --ply 2`), start-up included.
#
# usage: scripts/hint_vs_gnubg.sh GAMMON [ROUNDS] [GAMMON2 ...]
# prints per run: program, wall seconds for 20, milliseconds per position.
set -euo pipefail
gammon=${1:?usage: hint_vs_gnubg.sh GAMMON [ROUNDS] [GAMMON2 ...]}
rounds=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
others=("$@")
gnubg=${GNUBG:-/usr/games/gnubg}
here=$(cd "$(dirname "$0")/.." && pwd)
positions=$(sed -n 100,119p "$here/../shared/bench/contact-1000.txt")
cmds=$(mktemp)
empty=$(mktemp)
trap 'rm -f "$cmds" "$empty"' EXIT
{
    echo "set threads 1"
    for p in $positions; do
        printf 'new game\nset board %s\nset turn 0\nset dice 3 1\nhint\n' "$p"
    done
} > "$cmds"
echo "set threads 1" > "$empty"
seconds() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }'; }
for ((r = 1; r <= rounds; r++)); do
    start_up=$(seconds sh -c "$gnubg -t -q < $empty")
    total=$(seconds sh -c "$gnubg -t -q < $cmds")
    awk -v t="$total" -v s="$start_up" 'BEGIN { printf "%-12s %6.2f s (start-up %.2f s) %6.1f ms/position\n", "gnubg", t, s, (t - s) * 50 }'
    for g in "$gammon" "${others[@]}"; do
        t=$(seconds sh -c "for p in $(echo $positions); do $g analyse \$p --dice 31 --ply 2; done")
        awk -v n="$(basename "$g")" -v t="$t" 'BEGIN { printf "%-12s %6.2f s %6.1f ms/position\n", n, t, t * 50 }'
    done
done
