#!/usr/bin/env python3
"""The crashed positions of the back-game sets: how far the net is from the
yardstick there, and how far its own labels (72 trials played to the end,
luck-adjusted, 0-ply, seed 31: the campaign's labeller) are. Measurement
only: nothing here chooses a training position.

    cd training/runs/label-audit
    python3 crashed_backgames.py --gammon ../../../target/release/gammon --yardstick ../../../../shared/yardstick \
        --weights ../c-fit10r/weights.gnn --out c-fit10r-crashed.jsonl
"""
import argparse, json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

from audit import equity

FILES = ("backgame-player.tsv", "backgame-opponent.tsv")


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def main():
    ap = argparse.ArgumentParser()
    for flag in ("--gammon", "--yardstick", "--weights", "--out"):
        ap.add_argument(flag, required=True)
    a = ap.parse_args()
    rows = {}
    if os.path.exists(a.out):
        rows = {x["id"]: x for x in map(json.loads, open(a.out))}
    with open(a.out, "a") as out, ThreadPoolExecutor(2) as pool:
        for name in FILES:
            with open(os.path.join(a.yardstick, name)) as f:
                lines = [l.split("\t") for l in f.read().splitlines() if l.strip()]
            evals = pool.map(lambda l: run([a.gammon, "eval", l[0], "--json", "--weights", a.weights]), lines)
            crashed = [(l, e) for l, e in zip(lines, evals) if e["class"].startswith("crashed") and l[0] not in rows]

            def roll(le):
                l, e = le
                r = run([a.gammon, "rollout", l[0], "--games", "72", "--ply", "0", "--threads", "1",
                         "--seed", "31", "--weights", a.weights, "--json"])["rollout"]
                return {"file": name, "id": l[0], "ref": equity([float(x) for x in l[1].split()]),
                        "net": e["equity"], "roll": r["equity"]["mean"], "se": r["equity"]["standard_error"]}

            for x in pool.map(roll, crashed):
                rows[x["id"]] = x
                out.write(json.dumps(x) + "\n")
                out.flush()
    for name in FILES:
        xs = [x for x in rows.values() if x["file"] == name]
        n = len(xs)
        for key, what in (("net", "the net, 0-ply"), ("roll", "its own rollouts")):
            err = [x[key] - x["ref"] for x in xs]
            print(f"{name} n={n} {what}: mean|error| {sum(map(abs, err)) / n:.4f} bias {sum(err) / n:+.4f}")
        gap = [x["net"] - x["roll"] for x in xs]
        print(f"{name} n={n} the net against its own rollouts: mean|diff| {sum(map(abs, gap)) / n:.4f} "
              f"bias {sum(gap) / n:+.4f} (rollout SE {sum(x['se'] for x in xs) / n:.4f})")


if __name__ == "__main__":
    sys.exit(main())
