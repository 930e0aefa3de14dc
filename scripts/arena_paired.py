#!/usr/bin/env python3
"""The paired difference of two arena runs on the same dice (same --seed and
--pairs, the same opponent): per pair, A's points in run 2 minus A's points
in run 1, with the standard error of those differences. Several seeds pool:
give the files two by two (run 1 of a seed, then run 2 of the same seed).

    python3 scripts/arena_paired.py base.jsonl new.jsonl
    python3 scripts/arena_paired.py base-A.jsonl new-A.jsonl base-B.jsonl new-B.jsonl
"""
import json, math, sys
from collections import defaultdict


def per_pair(path):
    pairs = defaultdict(float)
    for line in open(path):
        g = json.loads(line)
        pairs[g["pair"]] += g["points"]
    return pairs


def main():
    files = sys.argv[1:]
    if not files or len(files) % 2:
        sys.exit("error: give the runs two by two: run 1 of a seed, then run 2 of the same seed")
    d, first, second = [], [], []
    for one, two in zip(files[::2], files[1::2]):
        a, b = per_pair(one), per_pair(two)
        common = sorted(set(a) & set(b))
        if not common:
            sys.exit(f"error: {one} and {two} share no pair")
        # Points per game: a pair is two games.
        d += [(b[p] - a[p]) / 2 for p in common]
        first += [a[p] / 2 for p in common]
        second += [b[p] / 2 for p in common]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    print(f"{n} pairs: run 1 {sum(first) / n:+.4f} ppg, run 2 {sum(second) / n:+.4f} ppg; "
          f"difference {mean:+.4f} +- {sd / math.sqrt(n):.4f} ppg")


if __name__ == "__main__":
    main()
