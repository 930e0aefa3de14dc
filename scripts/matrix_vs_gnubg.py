#!/usr/bin/env python3
"""The score matrix (`gammon cube POSITION --matrix N`) against gnubg 1.07.

For positions of the public oracle (`../shared/oracle/cube_match.jsonl`, the
first of each category), asks gammon for the cube decision at every score of
an N-point match where both sides need 2 to N (one `--matrix` call each), and
gnubg for the same decisions with `gnubg.cfevaluate` at the same depth
(`evalcontext(cubeful=1, plies, reduced=0, deterministic=1, noise=0)`, the
Kazaross-XG2 table, gnubg's default, or both given `--met FILE`), one score
at a time. Prints how often the
proper actions agree (the exact verdict, and the double / no-double and
take / pass halves), the mean and largest differences of the no-double and
double/take equities (EMG), and the disagreements.

  scripts/matrix_vs_gnubg.py --gammon target/debug/gammon [--length 7] [--ply 2] [--positions 10]
      [--met /usr/share/gnubg/met/woolsey.xml]

Standard library only; needs gnubg (apt-get install -y gnubg).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
ORACLE = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "oracle", "cube_match.jsonl")

# Run inside gnubg (-p): reads JOB (positions, length, plies), writes OUT.
GNUBG_SIDE = r"""
import gnubg, json, os
job = json.load(open(os.environ["MATRIX_JOB"]))
if job["met"]:
    gnubg.command("set matchequitytable " + job["met"])
n, ctx = job["length"], gnubg.evalcontext(1, job["ply"], 0, 1, 0.0)
with open(os.environ["MATRIX_OUT"], "w") as out:
    for pos, cube, owner in job["positions"]:
        board = gnubg.positionfromid(pos)
        for a in range(2, n + 1):
            for b in range(2, n + 1):
                # Player 1 is on roll (board[1]); score = (player 0, player 1).
                ci = gnubg.cubeinfo(cube, owner, 1, n, (n - b, n - a), 0, 0)
                opt, nd, dt, dp, code, text = gnubg.cfevaluate(board, ci, ctx)
                out.write(json.dumps({"pos": pos, "away": [a, b], "nd": nd, "dt": dt, "dp": dp,
                                      "code": code, "action": text}) + "\n")
"""


def positions(count):
    seen, out = set(), []
    with open(ORACLE) as f:
        for line in f:
            r = json.loads(line)
            if r["cat"] in seen:
                continue
            seen.add(r["cat"])
            out.append(r["pos"])
    return out[:count]


def gnubg_side(poss, length, ply, met=None):
    with tempfile.TemporaryDirectory() as d:
        job, out, script = (os.path.join(d, x) for x in ("job.json", "out.jsonl", "side.py"))
        json.dump({"positions": [[p, 1, -1] for p in poss], "length": length, "ply": ply, "met": met},
                  open(job, "w"))
        open(script, "w").write(GNUBG_SIDE)
        env = dict(os.environ, MATRIX_JOB=job, MATRIX_OUT=out)
        subprocess.run([GNUBG, "-t", "-q", "-p", script], env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return {(r["pos"], tuple(r["away"])): r for r in map(json.loads, open(out))}


def halves(action):
    """(doubles, takes) of a verdict text."""
    a = action.lower()
    doubles = a.startswith(("double", "redouble", "optional"))
    return doubles, "take" in a or "beaver" in a


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gammon", default="target/debug/gammon")
    ap.add_argument("--length", type=int, default=7)
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--met", help="a gnubg XML match equity table for both programs")
    args = ap.parse_args()
    poss = positions(args.positions)
    ours = {}
    for p in poss:
        cmd = [args.gammon, "cube", p, "--matrix", str(args.length), "--ply", str(args.ply), "--json"]
        cmd += ["--met", args.met] if args.met else []
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        for e in json.loads(out)["matrix"]:
            ours[(p, tuple(e["settings"]["away"]))] = e
    theirs = gnubg_side(poss, args.length, args.ply, args.met)
    table = next(iter(ours.values()))["settings"]["met"]
    n = same = same_double = same_take = 0
    dnd, ddt, bad = [], [], []
    for key, g in sorted(theirs.items()):
        e = ours[key]
        n += 1
        same += e["action"] == g["action"]
        (od, ot), (gd, gt) = halves(e["action"]), halves(g["action"])
        same_double += od == gd
        same_take += ot == gt
        dnd.append(abs(e["no_double"] - g["nd"]))
        ddt.append(abs(e["double_take"] - g["dt"]))
        if e["action"] != g["action"]:
            bad.append((key, e, g))
    print(f"{len(poss)} positions x {(args.length - 1) ** 2} scores of a {args.length}-point match, "
          f"{args.ply}-ply, centred cube, {table}: {n} decisions")
    print(f"  same verdict:            {same}/{n} ({100.0 * same / n:.1f}%)")
    print(f"  same double / no double: {same_double}/{n} ({100.0 * same_double / n:.1f}%)")
    print(f"  same take / pass:        {same_take}/{n} ({100.0 * same_take / n:.1f}%)")
    print(f"  no double EMG:  mean |diff| {sum(dnd) / n:.4f}, max {max(dnd):.4f}")
    print(f"  double/take EMG: mean |diff| {sum(ddt) / n:.4f}, max {max(ddt):.4f}")
    for (p, away), e, g in bad:
        print(f"  {p} {away[0]}-away {away[1]}-away: gammon {e['action']!r} (nd {e['no_double']:+.3f} "
              f"dt {e['double_take']:+.3f}), gnubg {g['action']!r} (nd {g['nd']:+.3f} dt {g['dt']:+.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
