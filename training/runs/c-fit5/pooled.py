#!/usr/bin/env python3
"""The paired difference of two nets' arena runs pooled over several seeds
(scripts/arena_paired.py's formula on all the pairs together):

    python3 training/runs/c-fit5/pooled.py base cfit5r4 A B C D E F G H
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
    if len(sys.argv) < 4:
        sys.exit("error: give two run names and one or more seeds")
    first, second, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
    d, a_pts, b_pts = [], [], []
    for s in seeds:
        a = per_pair(f"training/work/arena/{first}-{s}.jsonl")
        b = per_pair(f"training/work/arena/{second}-{s}.jsonl")
        for p in sorted(set(a) & set(b)):
            d.append((b[p] - a[p]) / 2)
            a_pts.append(a[p] / 2)
            b_pts.append(b[p] / 2)
    n = len(d)
    if n < 2:
        sys.exit("error: the runs share fewer than two pairs")
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    print(f"{n} pairs: {first} {sum(a_pts) / n:+.4f} ppg, {second} {sum(b_pts) / n:+.4f} ppg; "
          f"difference {mean:+.4f} +- {sd / math.sqrt(n):.4f} ppg")


if __name__ == "__main__":
    main()
