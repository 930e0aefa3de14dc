#!/usr/bin/env python3
"""The label audit of issue 25: how far each labeller's value of a position is
from the yardstick's 1,296-trial rollout (an independent engine's), and what
it costs in CPU.

Positions: every 23rd line of pr.tsv and every 52nd of each back-game file
(fixed, so any rerun audits the same ones). Each labeller is a
`gammon label rollout` run at the settings given (36 trials truncated after
0, 1 and 2 half-moves, luck-adjusted and quasi-random, are the net's 0-, 1-
and 2-ply values exactly); its CPU time is that of the child process.

    python3 audit.py --gammon target/release/gammon --yardstick ../shared/yardstick \
        --work /tmp/audit --out training/runs/label-audit/table.md
"""
import argparse, json, os, resource, subprocess, sys, time

FILES = [("pr.tsv", 23), ("backgame-player.tsv", 52), ("backgame-opponent.tsv", 52)]
# (name, trials, truncate or None for full, variance reduction)
LABELLERS = [
    ("0-ply", 36, 0, True),
    ("1-ply", 36, 1, True),
    ("2-ply", 36, 2, True),
    ("rollout 36 trials, trunc 4", 36, 4, True),
    ("rollout 72 trials, trunc 5", 72, 5, True),
    ("rollout 72 trials, trunc 7", 72, 7, True),
    ("rollout 144 trials, trunc 7", 144, 7, True),
    ("rollout 144 trials, trunc 11", 144, 11, True),
    ("rollout 288 trials, trunc 11", 288, 11, True),
    ("rollout 288 trials, trunc 17", 288, 17, True),
    ("rollout 72 trials, to the end", 72, None, True),
    ("rollout 144 trials, trunc 7, no luck adj.", 144, 7, False),
]


def equity(p):
    w, wg, wb, lg, lb = p
    return 2 * w - 1 + wg - lg + wb - lb


def load(ys):
    pos = []
    for name, step in FILES:
        with open(os.path.join(ys, name)) as f:
            lines = [l.split("\t") for l in f.read().splitlines() if l.strip()]
        for i in range(0, len(lines), step):
            pid, probs = lines[i]
            pos.append((name, pid, [float(x) for x in probs.split()]))
    return pos


def label(gammon, work, positions, name, trials, trunc, vr, threads):
    tag = name.replace(" ", "_").replace(",", "").replace(".", "")
    pfile = os.path.join(work, "positions.txt")
    out = os.path.join(work, tag + ".gds")
    if os.path.exists(out):
        os.remove(out)
    cmd = [gammon, "label", "rollout", "--positions", pfile, "--trials", str(trials), "--seed", "31",
           "--threads", str(threads), "--chunk", "100000", "--out", out]
    cmd += ["--full"] if trunc is None else ["--truncate", str(trunc)]
    if not vr:
        cmd.append("--no-variance-reduction")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.time() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    shown = subprocess.run([gammon, "label", "show", out], check=True, capture_output=True, text=True).stdout
    rows = [json.loads(l) for l in shown.splitlines()[1:]]
    return {r["position"]: r for r in rows}, cpu, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gammon", required=True)
    ap.add_argument("--yardstick", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", help="comma-separated labeller names")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    positions = load(a.yardstick)
    with open(os.path.join(a.work, "positions.txt"), "w") as f:
        f.write("".join(p[1] + "\n" for p in positions))
    results = []
    for name, trials, trunc, vr in LABELLERS:
        if a.only and name not in a.only.split(","):
            continue
        got, cpu, wall = label(a.gammon, a.work, positions, name, trials, trunc, vr, a.threads)
        errs = {}
        ses = []
        for fname, pid, ref in positions:
            r = got[pid]
            errs.setdefault(fname, []).append(equity(r["label"]) - equity(ref))
            if r.get("standard_error"):
                ses.append(r["standard_error"][0])
        row = {"name": name, "cpu_per_position": cpu / len(positions), "wall": wall,
               "mean_se_win": sum(ses) / len(ses) if ses else None,
               "files": {f: (sum(abs(e) for e in v) / len(v), sum(v) / len(v), len(v)) for f, v in errs.items()}}
        results.append(row)
        print(json.dumps(row), flush=True)
    with open(a.out, "w") as f:
        f.write("| labeller | CPU s / position | " + " | ".join(
            f"{n} (n={results[0]['files'][n][2]}) mean abs / bias" for n, _ in FILES) + " | mean SE of win |\n")
        f.write("|---|---:|" + "---:|" * len(FILES) + "---:|\n")
        for r in results:
            cells = [f"{r['files'][n][0]:.4f} / {r['files'][n][1]:+.4f}" for n, _ in FILES]
            se = "" if r["mean_se_win"] is None else f"{r['mean_se_win']:.4f}"
            f.write(f"| {r['name']} | {r['cpu_per_position']:.3f} | " + " | ".join(cells) + f" | {se} |\n")
    with open(a.out.replace(".md", ".jsonl"), "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in results))


if __name__ == "__main__":
    sys.exit(main())
