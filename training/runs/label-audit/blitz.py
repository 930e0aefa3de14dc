#!/usr/bin/env python3
"""Blitzes with the side on the bar to roll: the net's static value and its
72-trial rollout against the yardstick, and the net against its own labels
(blitz.md). Measurement only: no position chosen here is trained on.

    cd training/runs/label-audit
    python3 blitz.py --gammon ../../../target/release/gammon --yardstick ../../../../shared/yardstick \
        --chunks ../../../training/work/fit-data/c037.gds ../../../training/work/fit-data/c038.gds ../../../training/work/fit-data/c039.gds
"""
import argparse, base64, json, math, os, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

from audit import equity


def decode(pid):
    """A Position ID's checkers: (opponent, player on roll), 25 counts each, index 24 the bar."""
    bits = [(b >> i) & 1 for b in base64.b64decode(pid + "==") for i in range(8)]
    sides, s, p = [[0] * 25, [0] * 25], 0, 0
    for bit in bits:
        if s == 2:
            break
        if bit:
            sides[s][p] += 1
        else:
            p += 1
            if p == 25:
                s, p = s + 1, 0
    return sides


def pips(side):
    return sum((i + 1) * n for i, n in enumerate(side))


def back_game(side, other):
    """kind.rs: two or more points held in the other's home board, 30 or more pips behind."""
    return sum(1 for i in range(18, 24) if side[i] >= 2) >= 2 and pips(side) - pips(other) >= 30


def defender_on_roll(pid):
    """gammon benchmark's blitz (crates/gammon-train/src/benchmark/kind.rs: not a back game, the
    attacked checker on the bar against a 3-point board and 5 of pressure) with the attacked side to roll."""
    attacker, me = decode(pid)
    if back_game(me, attacker) or back_game(attacker, me):
        return False
    home = sum(1 for i in range(6) if attacker[i] >= 2)
    anchor = any(me[i] >= 2 for i in range(18, 24))
    trouble = me[24] + sum(1 for i in range(18, 24) if me[i] == 1)
    return me[24] > 0 and home >= 3 and not anchor and home + trouble >= 5


def benchmark(gammon, lines):
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.write("".join(lines))
    try:
        out = subprocess.run([gammon, "benchmark", f.name], check=True, capture_output=True, text=True).stdout
    finally:
        os.remove(f.name)
    lines = out.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("  equity"))
    return lines[start:start + 6]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gammon", required=True)
    ap.add_argument("--yardstick", required=True)
    ap.add_argument("--chunks", nargs="+", required=True)
    a = ap.parse_args()
    with open(os.path.join(a.yardstick, "pr.tsv")) as f:
        pr = [l for i, l in enumerate(f) if i % 3 == 0 and l.strip()]
    blitz = [l for l in pr if defender_on_roll(l.split("\t")[0])]
    print(f"pr.tsv, every third line: {len(pr)} positions, {len(blitz)} blitzes with the side on the bar to roll")
    print("\n".join(benchmark(a.gammon, blitz)))

    def roll(line):
        pid, probs = line.rstrip("\n").split("\t")
        out = subprocess.run([a.gammon, "rollout", pid, "--games", "72", "--threads", "1", "--seed", "31", "--json"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"error: {pid}: {out.stderr.strip()}")
        r = json.loads(out.stdout)["rollout"]["equity"]
        return r["mean"] - equity([float(x) for x in probs.split()]), r["standard_error"]

    with ThreadPoolExecutor(2) as pool:
        res = list(pool.map(roll, blitz))
    e = [x for x, _ in res]
    n, m = len(e), sum(e) / len(e)
    sd = math.sqrt(sum((x - m) ** 2 for x in e) / (n - 1) / n)
    print(f"72-trial rollouts (to the end, luck-adjusted, seed 31) of the same {n}: mean |error| "
          f"{sum(map(abs, e)) / n:.4f}, bias {m:+.4f} ± {sd:.4f}, mean standard error {sum(s for _, s in res) / n:.4f}")
    own = []
    for c in a.chunks:
        shown = subprocess.run([a.gammon, "label", "show", c], check=True, capture_output=True, text=True).stdout
        for line in shown.splitlines()[1:]:
            d = json.loads(line)
            if defender_on_roll(d["position"]):
                own.append(d["position"] + "\t" + " ".join(f"{x:.6f}" for x in d["label"]) + "\n")
    print(f"own labels ({', '.join(os.path.basename(c) for c in a.chunks)}): {len(own)} blitzes with the side on the bar to roll")
    print("\n".join(benchmark(a.gammon, own)))


if __name__ == "__main__":
    sys.exit(main())
