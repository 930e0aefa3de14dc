#!/usr/bin/env python3
"""Pool backgame_sides.py runs of two nets over several seeds: per game
(position, dice sequence, kind of game) the second net's points for the
back-game side minus the first's, with the standard error. Give the --out
files two by two, the first net's run of a seed, then the second net's of
the same seed (the same positions, --dice and seed):

    python3 sides_paired.py base-61.jsonl new-61.jsonl base-62.jsonl new-62.jsonl
"""
import json
import sys

from backgame_sides import mean_se


def games(path):
    return {(g["index"], g["dice"], g["config"]): g["back_points"] for g in map(json.loads, open(path))}


def main():
    files = sys.argv[1:]
    if not files or len(files) % 2:
        sys.exit("error: give the runs two by two (base, new) for each seed")
    diffs = {}
    for base_path, new_path in zip(files[::2], files[1::2]):
        base, new = games(base_path), games(new_path)
        if base.keys() != new.keys():
            sys.exit(f"error: {base_path} and {new_path} are not the same games (positions, dice or seed differ)")
        for k, v in new.items():
            diffs.setdefault(k[2], []).append(v - base[k])
    for config, d in sorted(diffs.items()):
        m, se = mean_se(d)
        print(f"back {config[0]}, front {config[1]}: new - base {m:+.4f} +- {se:.4f} ({len(d)} games)")


if __name__ == "__main__":
    main()
