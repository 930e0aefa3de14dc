#!/usr/bin/env python3
"""Does a stronger rollout player give labels closer to the yardstick? Rolls
out the audit's 399 positions (audit.py's) with `gammon rollout --ply N`
(played to the end, luck-adjusted, seed 31), one position per process, and
reports each file's mean |error|, bias and root mean square error less the
rollout's own noise; with --base, the paired difference of |error| with
another run of this script.

    cd training/runs/label-audit
    python3 rollout_player.py --gammon ../../../target/release/gammon --yardstick ../../../../shared/yardstick \
        --weights ../c-fit8/weights.gnn --ply 1 --games 72 --out ply1.jsonl [--base ply0.jsonl]
"""
import argparse, json, math, os, subprocess, sys, time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from audit import equity, load


def roll(a, position):
    fname, pid, ref = position
    t0 = time.time()
    cmd = [a.gammon, "rollout", pid, "--games", str(a.games), "--ply", str(a.ply), "--threads", "1",
           "--seed", "31", "--weights", a.weights, "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: {pid}: {done.stderr.strip()}")
    r = json.loads(done.stdout)["rollout"]
    return {"file": fname, "id": pid, "ref": equity(ref), "eq": r["equity"]["mean"],
            "se": r["equity"]["standard_error"], "s": time.time() - t0}


def report(rows, base):
    by = defaultdict(list)
    for x in rows.values():
        by[x["file"]].append(x)
    for fname, xs in sorted(by.items()):
        n = len(xs)
        err = [x["eq"] - x["ref"] for x in xs]
        excess = sum(e * e - x["se"] ** 2 for e, x in zip(err, xs)) / n
        line = (f"{fname} n={n} mean|error|={sum(map(abs, err)) / n:.4f} bias={sum(err) / n:+.4f} "
                f"rms-less-noise={math.sqrt(max(0.0, excess)):.4f} wall-s/position={sum(x['s'] for x in xs) / n:.2f}")
        if base:
            d = [abs(x["eq"] - x["ref"]) - abs(base[x["id"]]["eq"] - x["ref"]) for x in xs]
            m = sum(d) / n
            line += f" paired |error| diff {m:+.4f} ± {math.sqrt(sum((v - m) ** 2 for v in d) / (n - 1) / n):.4f}"
        print(line)


def main():
    ap = argparse.ArgumentParser()
    for flag in ("--gammon", "--yardstick", "--weights", "--out"):
        ap.add_argument(flag, required=True)
    ap.add_argument("--ply", type=int, required=True)
    ap.add_argument("--games", type=int, default=72)
    ap.add_argument("--base")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    rows = {}
    if os.path.exists(a.out):
        rows = {x["id"]: x for x in map(json.loads, open(a.out))}
    todo = [p for p in load(a.yardstick) if p[1] not in rows]
    with open(a.out, "a") as out, ThreadPoolExecutor(a.workers) as pool:
        for x in pool.map(lambda p: roll(a, p), todo):
            rows[x["id"]] = x
            out.write(json.dumps(x) + "\n")
            out.flush()
    base = {x["id"]: x for x in map(json.loads, open(a.base))} if a.base else None
    report(rows, base)


if __name__ == "__main__":
    sys.exit(main())
