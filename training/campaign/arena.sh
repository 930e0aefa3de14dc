#!/bin/sh
# Play a net against gnubg 0-ply in ../shared/arena: cubeless money,
# duplicate dice, 10,000 games (5,000 pairs) per seed, two workers.
#   training/campaign/arena.sh NAME WEIGHTS SEED...
# writes training/work/arena/NAME-SEED.jsonl (and .summary.json). Compare two
# nets on the same seeds with
#   python3 scripts/arena_paired.py training/work/arena/base-A.jsonl training/work/arena/NAME-A.jsonl
# Seeds used by the campaign: A B C D E F G H (80,000 games).
set -eu
cd "$(dirname "$0")/../.."
name=$1 weights=$2
shift 2
mkdir -p training/work/arena
# gnubg makes ~/.gnubg when it first starts; two workers starting at once
# on a fresh machine race for it and one exits ("File exists").
mkdir -p "$HOME/.gnubg"
root=$(pwd)
for seed in "$@"; do
    out="$root/training/work/arena/$name-$seed.jsonl"
    if [ -s "$out.summary.json" ] || [ -s "${out%.jsonl}.summary.json" ]; then
        echo "$name-$seed: done already"; continue
    fi
    (cd ../shared/arena && python3 arena.py \
        --a "ubgi:$root/target/release/gammon ubgi --weights $root/$weights" \
        --b gnubg:0 --pairs 5000 --seed "$seed" --jobs 2 --out "$out")
done
