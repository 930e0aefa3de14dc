#!/usr/bin/env python3
"""The per-player table and the pooled figures of several comparisons with gnubg.

Reads the files `scripts/compare_gnubg_review.py ... --json-out M.cmp.json` wrote and
prints a Markdown table (per player: overall, chequer and cube error rates, ours beside
gnubg's) and the figures over all matches: the mean absolute and the mean signed
difference of the overall error rates, the mean absolute difference of the per-move
losses, very-bad recall and precision (pooled counts), proper cube action agreement
(pooled decisions), against the goals of issue 10. Standard library only.

  scripts/gnubg_review_table.py /tmp/gnubg-ref/*.cmp.json
"""

import json
import os
import sys

GOAL_RATE, GOAL_VB, GOAL_CUBE = 2.0, 0.85, 0.97


def f(x, d=1):
    return "n/a" if x is None else f"{x:.{d}f}"


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    rows, diffs = [], []
    vb_g = vb_o = vb_both = 0
    cube_n = cube_same = cube_coarse = 0
    loss_sum = loss_n = 0.0
    moves = 0
    for p in paths:
        with open(p) as fh:
            res = json.load(fh)
        name = os.path.basename(p).split(".")[0]
        m, c = res["moves"], res["cube"]
        for pl in res["players"]:
            g, o = pl["gnubg"], pl["ours"]
            go, oo = g.get("overall_error_rate"), o.get("overall_error_rate")
            d = oo - go if go is not None and oo is not None else None
            if d is not None:
                diffs.append(d)
            rows.append(f"| {name} | {pl['name']} | {g.get('unforced_moves')} | {g.get('close_cube_decisions')}"
                        f"/{o.get('close_cube_decisions')} | {f(go)} | {f(oo)} | {f(d)} |"
                        f" {f(g.get('chequer_error_rate'))} | {f(o.get('chequer_error_rate'))} |"
                        f" {f(g.get('cube_error_rate'))} | {f(o.get('cube_error_rate'))} |")
        vb_g += m["very_bad_gnubg"]
        vb_o += m["very_bad_ours"]
        vb_both += m["very_bad_both"]
        if m["loss_mad_unforced"] is not None:
            n_unforced = sum(pl["gnubg"].get("unforced_moves") or 0 for pl in res["players"])
            loss_sum += m["loss_mad_unforced"] * n_unforced
            loss_n += n_unforced
        moves += m["matched"]
        n = c["decisions_both"]
        cube_n += n
        cube_same += round((c["proper_agreement"] or 0) * n)
        cube_coarse += round((c["double_or_not_agreement"] or 0) * n)
    print("| match | player | unforced moves | close cube (gnubg/ours) | overall gnubg | overall ours | diff |"
          " chequer gnubg | chequer ours | cube gnubg | cube ours |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    mad = sum(abs(d) for d in diffs) / len(diffs) if diffs else None
    bias = sum(diffs) / len(diffs) if diffs else None
    within = sum(abs(d) <= GOAL_RATE for d in diffs)
    recall = vb_both / vb_g if vb_g else None
    precision = vb_both / vb_o if vb_o else None
    agree = cube_same / cube_n if cube_n else None
    ok = (lambda good: "met" if good else "missed")
    print()
    print(f"- matches {len(paths)}, moves {moves}, players {len(diffs)}")
    print(f"- overall error rate, |ours - gnubg|: mean {f(mad, 2)} mEMG (goal {GOAL_RATE}: "
          f"{ok(mad is not None and mad <= GOAL_RATE)}); mean signed {f(bias, 2)}; within {GOAL_RATE} for "
          f"{within} of {len(diffs)} players")
    print(f"- per-move loss, mean |ours - gnubg| over unforced moves: {f(loss_sum / loss_n if loss_n else None, 4)}")
    print(f"- very bad (loss > 0.12): gnubg {vb_g}, ours {vb_o}, both {vb_both}; recall {f(recall, 3)}, "
          f"precision {f(precision, 3)} (goal {GOAL_VB}: recall {ok(recall is not None and recall > GOAL_VB)},"
          f" precision {ok(precision is not None and precision > GOAL_VB)})")
    print(f"- proper cube action: {cube_same} of {cube_n} the same, {f(agree and 100 * agree, 1)}% (goal "
          f"{100 * GOAL_CUBE:.0f}%: {ok(agree is not None and agree > GOAL_CUBE)}); double or not "
          f"{f(cube_n and 100 * cube_coarse / cube_n, 1)}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
