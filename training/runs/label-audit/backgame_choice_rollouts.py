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
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def run_json(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arena", required=True)
    ap.add_argument("--gammon", required=True, help="the gammon binary")
    ap.add_argument("--weights", required=True)
    ap.add_argument("--labels", required=True)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--limit", type=int, default=200, help="the most differing decisions")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--games", type=int, default=72)
    a = ap.parse_args()
    sys.path.insert(0, os.path.abspath(a.arena))
    import bgcore
    import players
    shown = subprocess.run([a.gammon, "label", "show", a.labels], capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in shown.stdout.splitlines()[1:] if line.strip()]
    gammon = players.make_player(f"ubgi:{a.gammon} ubgi --weights {a.weights}")
    gnubg = players.make_player("gnubg:0")
    rng = random.Random(a.seed)
    pairs = []
    try:
        for r in rows[::a.every]:
            if len(pairs) >= a.limit:
                break
            board = bgcore.board_from_id(r["position"])
            if sum(board[1][18:25]) < sum(board[0][18:25]):
                continue
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            legal = bgcore.legal_moves(board, d1, d2)
            if len(legal) < 2:
                continue
            ours, theirs = gammon.move(board, d1, d2, legal), gnubg.move(board, d1, d2, legal)
            if ours != theirs:
                # The results with the front side on roll, and all the roll's.
                ids = sorted({bgcore.position_id(bgcore.swap(b)) for b in legal})
                pairs.append((bgcore.position_id(bgcore.swap(ours)), bgcore.position_id(bgcore.swap(theirs)), ids))
    finally:
        gammon.close()
        gnubg.close()

    def back_equity(pid, rollout):
        if rollout:
            cmd = [a.gammon, "rollout", pid, "--games", str(a.games), "--seed", str(a.seed),
                   "--threads", "1", "--weights", a.weights, "--json"]
            return -run_json(cmd)["rollout"]["equity"]["mean"]
        return -run_json([a.gammon, "eval", pid, "--weights", a.weights, "--json"])["equity"]

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
