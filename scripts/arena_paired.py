#!/usr/bin/env python3
"""The paired difference of two arena runs on the same dice (same --seed and
--pairs, the same opponent): per pair, A's points in run 2 minus A's points
in run 1, with the standard error of those differences.

    python3 scripts/arena_paired.py base.jsonl new.jsonl
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
    a, b = per_pair(sys.argv[1]), per_pair(sys.argv[2])
    common = sorted(set(a) & set(b))
    if not common:
        sys.exit("error: the two runs share no pair")
    # Points per game: a pair is two games.
    d = [(b[p] - a[p]) / 2 for p in common]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    base = sum(a[p] for p in common) / (2 * n)
    new = sum(b[p] for p in common) / (2 * n)
    print(f"{n} pairs: run 1 {base:+.4f} ppg, run 2 {new:+.4f} ppg; difference {mean:+.4f} +- {sd / math.sqrt(n):.4f} ppg")


if __name__ == "__main__":
    main()
