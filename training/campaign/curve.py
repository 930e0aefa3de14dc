#!/usr/bin/env python3
"""The campaign's learning curve (issue 25): the yardstick error of each
campaign fit against the number of own-rollout labels it was fitted to.

Each net is measured afresh (`gammon benchmark --json` on its weights, 0-ply,
the whole public yardstick), and its labels are counted from its
fit-report.json (the campaign chunks it names: cNNN, bNNN, xNNN, dNNN, aNNN, yNNN and wNNN files), with
the CPU time that labelling them took as training/data/cpu.log records it
(user + system seconds of each labelling run, summed per chunk: a lower
bound, since a run stopped with its session records nothing). The
fits also differ in recipe (plain descent, the ranking term, Adam, the rate
schedule): the `recipe` column says which, so that a step of the curve is
not read as the labels' alone.

    python3 training/campaign/curve.py [--gammon target/release/gammon]

writes training/campaign/learning-curve.csv and, where matplotlib is
installed, learning-curve.svg.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

# The runs, in order: folder under training/runs and what the fit report
# does not say.
RUNS = [
    ("v3-fit", "before the campaign: 100,000 2-ply and 33,500 rollout labels"),
    ("c-fit1", ""),
    ("c-fit2", ""),
    ("c-fit3", ""),
    ("c-fit4", ""),
    ("c-fit5", ""),
    ("c-fit5/rank4", ""),
    ("c-fit6", ""),
    ("c-fit7", "race-fresh's race net"),
    ("c-fit8", "race-fresh's race net"),
    ("c-fit9-r2", "race-fresh's race net"),
    ("c-fit10r", "race-fresh's race net"),
    ("c-fit11", "race-fresh's race net"),
    ("c-fit12", "race-fresh's race net"),
    ("c-fit13", "race-fresh's race net"),
    ("c-fit14", "race-fresh's race net"),
    ("c-fit15", "race-fresh's race net"),
]
FILES = ["pr.tsv", "backgame-player.tsv", "backgame-opponent.tsv"]
CHUNK = re.compile(r"(?:^|/)([abcdwxy])(\d{3})\.gds$")


def campaign_labels(report):
    """The campaign labels a fit used: the positions of its chunk files."""
    chunks, total = [], 0
    for d in report.get("data", []):
        m = CHUNK.search(d.get("path", ""))
        if not m:
            continue
        n = re.match(r"(\d+) positions", d.get("about", ""))
        if not n:
            sys.exit(f"error: {d.get('path')}: the report does not say how many positions it holds")
        chunks.append(m.group(1) + m.group(2))
        total += int(n.group(1))
    return total, chunks


def recipe(report):
    """How the fit ran, from its settings."""
    s = report.get("settings", {})
    parts = [f"{s.get('optimizer') or 'sgd'} rate {s.get('rate', 0):.4g}", str(s.get("loss", "?")).lower()]
    if report.get("ranking_weight"):
        parts.append(f"ranking {report['ranking_weight']:g}")
    if s.get("halve_after", 1) != 1:
        parts.append(f"halve after {s['halve_after']}")
    repeated = [d["path"].rsplit("/", 1)[-1] + f" x{d['repeat']}" for d in report.get("data", []) if d.get("repeat", 1) != 1]
    if repeated:
        parts.append("repeat " + " ".join(repeated))
    rank_only = [d["path"] for d in report.get("data", []) if d.get("rank_only")]
    if rank_only:
        chunks = [m.group(1) + m.group(2) for m in map(CHUNK.search, rank_only) if m]
        others = [p.rsplit("/", 1)[-1] for p in rank_only if not CHUNK.search(p)]
        parts.append("ranking term only on " + ", ".join(([span(chunks)] if chunks else []) + others))
    return ", ".join(parts)


def chunk_cpu_seconds(path="training/data/cpu.log"):
    """User + system CPU seconds per chunk, summed over its labelling runs."""
    cpu = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 5 and w[2] == "user-s" and w[4] == "sys-s":
                cpu[w[0]] = cpu.get(w[0], 0.0) + float(w[1]) + float(w[3])
    return cpu


def span(chunks):
    """c001-c036 + b001 from a list of chunk names (gaps kept: c001-c038, c040)."""
    out = []
    for series in "cbxdayw":
        nums = sorted({int(c[1:]) for c in chunks if c[0] == series})
        runs = []
        for n in nums:
            if runs and n == runs[-1][1] + 1:
                runs[-1][1] = n
            else:
                runs.append([n, n])
        if runs:
            out.append(", ".join(f"{series}{a:03d}-{series}{b:03d}" if b > a else f"{series}{a:03d}" for a, b in runs))
    return " + ".join(out) or "none"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gammon", default="target/release/gammon")
    ap.add_argument("--yardstick", default="../shared/yardstick")
    a = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    os.chdir(root)
    cpu = chunk_cpu_seconds()
    rows = []
    for run, note in RUNS:
        folder = os.path.join("training/runs", run)
        with open(os.path.join(folder, "fit-report.json")) as f:
            report = json.load(f)
        labels, chunks = campaign_labels(report)
        out = subprocess.run(
            [a.gammon, "benchmark", "--json", "--weights", os.path.join(folder, "weights.gnn")]
            + [os.path.join(a.yardstick, n) for n in FILES],
            check=True, capture_output=True, text=True).stdout
        figures = {os.path.basename(f["file"]): f["equity"]["mean_abs_error"] for f in json.loads(out)["files"]}
        hours = sum(cpu.get(c, 0.0) for c in chunks) / 3600
        rows.append({"net": run, "campaign_labels": labels, "label_cpu_hours_at_least": f"{hours:.1f}", "chunks": span(chunks),
                     **{n.removesuffix(".tsv"): f"{figures[n]:.4f}" for n in FILES},
                     "recipe": "; ".join(x for x in (recipe(report), note) if x)})
        print(f"{run:14} {labels:7} labels  pr {figures['pr.tsv']:.4f}  back games "
              f"{figures['backgame-player.tsv']:.4f} / {figures['backgame-opponent.tsv']:.4f}")
    with open("training/campaign/learning-curve.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    try:
        import matplotlib
        matplotlib.use("svg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: learning-curve.svg not drawn")
        return
    plt.rcParams["svg.hashsalt"] = "gammon"  # the same SVG for the same figures
    fig, ax = plt.subplots(figsize=(8, 4.5))
    x = [r["campaign_labels"] / 1000 for r in rows]
    for n, bar in [("pr", 0.040), ("backgame-player", 0.070), ("backgame-opponent", 0.070)]:
        ax.plot(x, [float(r[n]) for r in rows], marker="o", label=f"{n} (bar {bar})")
    ax.axhline(0.040, ls=":", c="grey")
    ax.axhline(0.070, ls=":", c="grey")
    ax.axhline(0.028, ls="--", c="black", lw=0.8, label="gnubg 0-ply on pr (0.028)")
    ax.set_xlabel("campaign labels fitted (thousands)")
    ax.set_ylabel("mean |equity error|, 0-ply")
    ax.set_title("gammon: yardstick error against own-rollout labels")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig("training/campaign/learning-curve.svg", metadata={"Date": None})


if __name__ == "__main__":
    main()
