#!/usr/bin/env python3
"""gammon's review against XG's stored analysis on real .xg files.

For every .xg file given (or every one in ../shared/matches/xg), runs
`gammon review FILE --json --keep-going` (gammon's own analysis, with XG's
stored beside it in each record's `xg` object) and compares, over the
unforced moves that both analysed:

- how many of gammon's very bad moves (loss > 0.12) XG calls very bad too,
  and how many of XG's very bad moves gammon calls very bad;
- the mean of gammon's loss minus XG's, and the mean absolute difference;
- the same for cube decisions (gammon's error against XG's, on the close or
  actual decisions both analysed).

    python3 scripts/compare_xg.py [--gammon target/release/gammon] [--ply 2] [FILE.xg ...]
"""
import argparse, glob, json, os, subprocess, sys

VERY_BAD = 0.12


def review(gammon, path, ply):
    out = subprocess.run(
        [gammon, "review", path, "--json", "--keep-going", "--ply", str(ply), "--cube-ply", str(ply)],
        capture_output=True, text=True)
    if out.returncode != 0:
        # A file whose first game does not replay has nothing to compare.
        print(f"{os.path.basename(path):32} not reviewed: {out.stderr.strip().splitlines()[-1]}")
        return None
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gammon", default="target/release/gammon")
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(os.path.dirname(__file__), "../../shared/matches/xg/*.xg")))
    moves, cubes = [], []
    print(f"{'file':32} {'moves':>6} {'cube':>5} {'g vb':>5} {'x vb':>5} {'both':>5} {'mean g-x':>9} {'mean |g-x|':>10}")
    for path in files:
        doc = review(args.gammon, path, args.ply)
        if doc is None:
            continue
        m, c = [], []
        for game in doc["games"]:
            for r in game["records"]:
                x = r.get("xg")
                if not x:
                    continue
                if r["forced"] is False and r["loss"] is not None and x["loss"] is not None:
                    m.append((r["loss"], x["loss"]))
                cube = r["cube"]
                if cube and cube["close"] and x["cube_error"] is not None:
                    c.append((cube["error"], x["cube_error"]))
        moves += m
        cubes += c
        gvb = sum(g > VERY_BAD for g, _ in m)
        xvb = sum(x > VERY_BAD for _, x in m)
        both = sum(g > VERY_BAD and x > VERY_BAD for g, x in m)
        diff = sum(g - x for g, x in m) / max(len(m), 1)
        adiff = sum(abs(g - x) for g, x in m) / max(len(m), 1)
        print(f"{os.path.basename(path):32} {len(m):6} {len(c):5} {gvb:5} {xvb:5} {both:5} {diff:+9.4f} {adiff:10.4f}")
    gvb = sum(g > VERY_BAD for g, _ in moves)
    xvb = sum(x > VERY_BAD for _, x in moves)
    both = sum(g > VERY_BAD and x > VERY_BAD for g, x in moves)
    n = max(len(moves), 1)
    print()
    print(f"unforced moves analysed by both: {len(moves)}")
    print(f"gammon's very bad moves (loss > {VERY_BAD}): {gvb}; XG's: {xvb}; both: {both}")
    if gvb:
        print(f"  of gammon's very bad moves, XG's very bad too: {both}/{gvb} = {100 * both / gvb:.0f}%")
    if xvb:
        print(f"  of XG's very bad moves, gammon's very bad too: {both}/{xvb} = {100 * both / xvb:.0f}%")
    print(f"move loss, gammon - XG: mean {sum(g - x for g, x in moves) / n:+.4f}, "
          f"mean |difference| {sum(abs(g - x) for g, x in moves) / n:.4f}")
    same_best = sum(abs(g) < 1e-9 and abs(x) < 1e-9 for g, x in moves)
    print(f"moves both call best (loss 0): {same_best}/{len(moves)}")
    if cubes:
        k = len(cubes)
        print(f"close or actual cube decisions analysed by both: {k}; error, gammon - XG: mean "
              f"{sum(g - x for g, x in cubes) / k:+.4f}, mean |difference| {sum(abs(g - x) for g, x in cubes) / k:.4f}")


if __name__ == "__main__":
    main()
