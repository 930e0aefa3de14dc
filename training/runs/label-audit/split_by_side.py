#!/usr/bin/env python3
"""Split a gammon dataset by which side is on roll in each back game: the
positions with the back-game side on roll and those with the front side,
each written as a yardstick TSV (Position ID, then the label's five
probabilities of the side on roll) for `gammon benchmark`. Measurement only.

    cd training/runs/label-audit
    python3 split_by_side.py --arena ../../../../shared/arena \
        --show "../../../target/release/gammon label show" ../../work/fit-data/b006.gds b006
    ../../../target/release/gammon benchmark b006-back.tsv b006-front.tsv --weights W
"""
import argparse
import json
import shlex
import subprocess

import backgames


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arena", required=True, help="../shared/arena (its bgcore)")
    ap.add_argument("--show", required=True, help="the `gammon label show` command")
    ap.add_argument("labels", help="a gammon dataset (.gds)")
    ap.add_argument("out", help="writes OUT-back.tsv and OUT-front.tsv")
    a = ap.parse_args()
    bgcore, _ = backgames.arena(a.arena)
    shown = subprocess.run(shlex.split(a.show) + [a.labels], capture_output=True, text=True, check=True)
    counts = {"back": 0, "front": 0}
    with open(a.out + "-back.tsv", "w") as back, open(a.out + "-front.tsv", "w") as front:
        for line in shown.stdout.splitlines()[1:]:
            if not line.strip():
                continue
            row = json.loads(line)
            side = "back" if backgames.back_game_side_on_roll(bgcore.board_from_id(row["position"])) else "front"
            (back if side == "back" else front).write(
                row["position"] + "\t" + " ".join(f"{p:.6f}" for p in row["label"]) + "\n")
            counts[side] += 1
    print(f"{counts['back']} positions with the back-game side on roll, {counts['front']} with the front side")


if __name__ == "__main__":
    main()
