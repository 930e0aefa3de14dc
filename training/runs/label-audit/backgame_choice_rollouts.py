#!/usr/bin/env python3
"""Do gammon's own rollouts prefer gammon's move or gnubg's, where the two
differ for the back-game side? Measurement only (gammon's own back-game
positions; gnubg only chooses a move). If the rollouts prefer gnubg's move,
the campaign's labels would teach it once the move is among those labelled
(a wider choice, series w); if they prefer gammon's, the rollouts' own later
play is what holds the labels.

    cd training/runs/label-audit
    python3 backgame_choice_rollouts.py --arena ../../../../shared/arena \
        --gammon ../../../target/release/gammon --weights ../../../weights/gammon.net \
        --labels ../../work/fit-data/b004.gds --every 7 --limit 200 --seed 7

Each differing decision: both results rolled out by gammon 0-ply (72 games
played to the end, luck-adjusted, the same dice seed), the back-game
side's equity of gnubg's move minus gammon's, with its standard error over
decisions; also the net's own 0-ply view of the same difference.
"""
import argparse
import shlex
from concurrent.futures import ThreadPoolExecutor

import backgames
from crashed_backgames import run


def main():
    ap = argparse.ArgumentParser()
    backgames.add_arguments(ap, gammon_help="the gammon binary", show=False)
    ap.add_argument("--weights", required=True)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--limit", type=int, default=200, help="the most differing decisions")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--games", type=int, default=72)
    a = ap.parse_args()
    bgcore, players = backgames.arena(a.arena)
    ids = backgames.positions(f"{shlex.quote(a.gammon)} label show", a.labels)[::a.every]
    gammon = players.make_player(f"ubgi:{a.gammon} ubgi --weights {a.weights}")
    gnubg = players.make_player("gnubg:0")
    pairs = []
    try:
        for _, legal, ours, theirs in backgames.decisions(bgcore, gammon, gnubg, ids, a.seed):
            if len(pairs) >= a.limit:
                break
            if ours != theirs:
                # The results with the front side on roll, and all the roll's.
                results = sorted({bgcore.position_id(bgcore.swap(b)) for b in legal})
                pairs.append((bgcore.position_id(bgcore.swap(ours)), bgcore.position_id(bgcore.swap(theirs)), results))
    finally:
        gammon.close()
        gnubg.close()

    def back_equity(pid, rollout):
        if rollout:
            cmd = [a.gammon, "rollout", pid, "--games", str(a.games), "--seed", str(a.seed),
                   "--threads", "1", "--weights", a.weights, "--json"]
            return -run(cmd)["rollout"]["equity"]["mean"]
        return -run([a.gammon, "eval", pid, "--weights", a.weights, "--json"])["equity"]

    def one(pair):
        ours, theirs, ids = pair
        # gnubg's move among the roll's results by gammon's 0-ply: its rank
        # (0: the best) and how far below the best.
        static = sorted((back_equity(i, False) for i in ids), reverse=True)
        mine = back_equity(theirs, False)
        rank = sum(1 for e in static if e > mine)
        return (back_equity(theirs, True) - back_equity(ours, True),
                mine - back_equity(ours, False), rank, static[0] - mine)

    with ThreadPoolExecutor(2) as pool:
        diffs = list(pool.map(one, pairs))
    n = len(diffs)
    for i, what in ((0, f"gammon's rollouts ({a.games} games)"), (1, "gammon's 0-ply")):
        xs = [d[i] for d in diffs]
        m = sum(xs) / n
        se = (sum((x - m) ** 2 for x in xs) / (n - 1) / n) ** 0.5
        better = sum(1 for x in xs if x > 0)
        print(f"{n} differing decisions; {what}: gnubg's move minus gammon's, back-game side's equity "
              f"{m:+.4f} +- {se:.4f} (gnubg's better in {better})")
    for keep, window in ((4, 0.1), (8, 0.2)):
        kept = sum(1 for d in diffs if d[2] < keep and d[3] <= window)
        print(f"  gnubg's move among the {keep} best within {window} by gammon's 0-ply "
              f"(what `label sample --afterstates {keep} --window {window}` labels): {kept} of {n}")


if __name__ == "__main__":
    main()
