#!/usr/bin/env python3
"""Label noise against cost: each labeller of a grid labels the same
positions; each label is compared with a long full rollout of the same net
(the reference, --ref), which is what a rollout label estimates.

    python3 noise.py --gammon target/release/gammon --positions P.txt --ref REF.gds [--out table.md]

For each labeller: CPU-seconds per position (one thread), the mean standard
error the labeller reports for win and for the equity's parts, and the error
against the reference: root mean square over the positions of (label - ref)
for win and for the cubeless equity, with the reference's own noise (its
standard errors) subtracted in quadrature. Lookahead labels (`analyse
--cubeless --ply N`) are measured the same way."""
import argparse, json, math, os, subprocess, tempfile, time

GRID = [  # (trials, truncate or None = full, variance reduction)
    (36, 2, True), (36, 4, True), (36, 7, True), (36, 11, True), (72, 7, True),
    (144, 7, True), (36, None, True), (144, 11, True), (36, 7, False), (144, 7, False),
]


def equity(p):
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]


def show(gammon, path):
    out = subprocess.run([gammon, "label", "show", path], check=True, capture_output=True, text=True).stdout
    lines = [json.loads(l) for l in out.splitlines()]
    return lines[0], {l["position"]: (l["label"], l["standard_error"]) for l in lines[1:]}


def errors(labels, ref):
    dw, de, nw, ne = [], [], [], []
    for pos, (lab, _) in labels.items():
        if pos not in ref:
            continue
        r, rse = ref[pos]
        dw.append((lab[0] - r[0]) ** 2)
        de.append((equity(lab) - equity(r)) ** 2)
        nw.append(rse[0] ** 2)
        # The equity's standard error is not stored; its parts' in quadrature
        # (win counts twice) bound it from above.
        ne.append(4 * rse[0] ** 2 + sum(s * s for s in rse[1:]))
    n = len(dw)
    rms = lambda d, noise: math.sqrt(max(0.0, sum(d) / n - sum(noise) / n))
    return rms(dw, nw), rms(de, ne), math.sqrt(sum(dw) / n), math.sqrt(sum(de) / n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gammon", required=True)
    ap.add_argument("--positions", required=True)
    ap.add_argument("--ref", required=True)
    ap.add_argument("--out")
    a = ap.parse_args()
    ref_head, ref = show(a.gammon, a.ref)
    ids = [l.strip() for l in open(a.positions) if l.strip() and not l.startswith("#")]
    # Only the positions the reference holds (a partial reference is fine).
    ids = [i for i in ids if i in ref]
    positions = os.path.join(tempfile.mkdtemp(), "positions.txt")
    with open(positions, "w") as f:
        f.write("".join(i + "\n" for i in ids))
    a.positions = positions
    rows = []
    tmp = tempfile.mkdtemp()
    for ply in (0, 1, 2):
        t0 = time.process_time()
        start = time.time()
        labels = {}
        cpu = 0.0
        for pid in ids:
            t = os.times()
            j = json.loads(subprocess.run([a.gammon, "analyse", pid, "--ply", str(ply), "--cubeless", "--json"],
                                          check=True, capture_output=True, text=True).stdout)
            t2 = os.times()
            cpu += (t2.children_user - t.children_user) + (t2.children_system - t.children_system)
            p = j["probabilities"]
            labels[pid] = ([p["win"], p["win_gammon"], p["win_backgammon"], p["lose_gammon"], p["lose_backgammon"]], None)
        e = errors(labels, ref)
        rows.append((f"{ply}-ply lookahead (analyse --cubeless; includes process start)", cpu / len(ids), None, e))
    for trials, trunc, vr in GRID:
        out = os.path.join(tmp, f"l{trials}-{trunc}-{vr}.gds")
        args = [a.gammon, "label", "rollout", "--positions", a.positions, "--trials", str(trials), "--seed", "1",
                "--threads", "1", "--chunk", "1000", "--out", out]
        args += ["--full"] if trunc is None else ["--truncate", str(trunc)]
        if not vr:
            args.append("--no-variance-reduction")
        t = os.times()
        subprocess.run(args, check=True, capture_output=True)
        t2 = os.times()
        cpu = (t2.children_user - t.children_user) + (t2.children_system - t.children_system)
        head, labels = show(a.gammon, out)
        se = head["mean_standard_errors"]
        name = f"rollout {trials} trials, {'full' if trunc is None else f'truncated at {trunc}'}, VR {'on' if vr else 'off'}"
        rows.append((name, cpu / len(ids), se[0], errors(labels, ref)))
    lines = [f"Reference: {ref_head['labeller']} ({ref_head['positions']} positions; mean SE of win {ref_head['mean_standard_errors'][0]:.4f}).",
             "", "| labeller | CPU s / position | mean SE (win) | RMS error vs reference: win | equity | (raw: win, equity) |",
             "|---|---|---|---|---|---|"]
    for name, cpu, se, (w, e, rw, re) in rows:
        lines.append(f"| {name} | {cpu:.3f} | {'' if se is None else f'{se:.4f}'} | {w:.4f} | {e:.4f} | {rw:.4f}, {re:.4f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        open(a.out, "w").write(text)


if __name__ == "__main__":
    main()
