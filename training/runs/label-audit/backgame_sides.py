#!/usr/bin/env python3
"""Which side of a back game does gammon's 0-ply play worse than gnubg's
0-ply? Measurement only: the positions are gammon's own (a back-game
chunk's, `gammon label sample --kind back-game`), gnubg only plays.

From each position, with the same dice, four cubeless games to the end:
the back-game side and the front side each played by gammon (G) or gnubg
0-ply (N). The result, in points for the back-game side, of
(back, front) = GG is what gammon's rollout labels estimate, NN what a
gnubg-like player's would. The mixed games say which side's play makes the
difference. The back-game side is the one with more checkers in its
opponent's home board (and on the bar).

    cd training/runs/label-audit
    python3 backgame_sides.py --arena ../../../../shared/arena \
        --gammon "../../../target/release/gammon ubgi --weights ../../../weights/gammon.net" \
        --labels ../../work/fit-data/b005.gds --show "../../../target/release/gammon label show" \
        --positions 400 --dice 8 --seed S1 --out sides.jsonl

Writes one JSON line per game and prints the four means and their paired
differences with standard errors (the unit: one position with one dice
sequence). `--base OTHER.jsonl`, another net's run on the same positions
and seed, pairs each kind of game with it: with gnubg in front, the back-game
side's play of one net against the other's.
"""
import argparse
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor

import backgames

CONFIGS = ("GG", "NN", "GN", "NG")  # (back-game side, front side)
MAX_TURNS = 5000


def play(bgcore, movers, board, rng):
    """Play to the end; movers[0] is on roll. Points for movers[0]'s side."""
    for t in range(MAX_TURNS):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        legal = bgcore.legal_moves(board, d1, d2)
        if len(legal) > 1:
            res = movers[t % 2].move(board, d1, d2, legal)
        elif legal:
            res = next(iter(legal))
        else:
            res = board
        pts = bgcore.game_result(res)
        if pts:
            return pts if t % 2 == 0 else -pts
        board = bgcore.swap(res)
    raise RuntimeError("a game did not finish")


def worker(job):
    bgcore, players = backgames.arena(job["arena"])
    gammon = players.make_player("ubgi:" + job["gammon"])
    gnubg = players.make_player("gnubg:0")
    out = []
    try:
        for index, pid in job["positions"]:
            board = bgcore.board_from_id(pid)
            # board[1] is on roll; the back-game side is whichever holds more back.
            back_on_roll = backgames.back_game_side_on_roll(board)
            for k in range(job["dice"]):
                for config in job["configs"]:
                    back, front = (gammon if c == "G" else gnubg for c in config)
                    movers = (back, front) if back_on_roll else (front, back)
                    for p in movers:
                        p.new_game("%s:%d:%d:%s" % (job["seed"], index, k, config))
                    rng = random.Random("sides:%s:%d:%d" % (job["seed"], index, k))
                    pts = play(bgcore, movers, board, rng)
                    out.append({"index": index, "position": pid, "dice": k, "config": config,
                                "back_points": pts if back_on_roll else -pts})
    finally:
        gammon.close()
        gnubg.close()
    return out


def mean_se(xs):
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / max(len(xs) - 1, 1)
    return m, math.sqrt(var / len(xs))


def main():
    ap = argparse.ArgumentParser()
    backgames.add_arguments(ap)
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--dice", type=int, default=8)
    ap.add_argument("--seed", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--configs", default=",".join(CONFIGS),
                    help="the kinds of game to play, (back-game side, front side) as G or N: e.g. GN")
    ap.add_argument("--out", required=True)
    ap.add_argument("--base", help="another run's --out on the same positions and seed: "
                    "print each game kind's paired difference, this run's minus that one's")
    a = ap.parse_args()
    ids = backgames.positions(a.show, a.labels)
    step = max(1, len(ids) // a.positions)
    picked = list(enumerate(ids[::step][:a.positions]))
    configs = a.configs.split(",")
    if not configs or any(c not in CONFIGS for c in configs):
        sys.exit(f"error: --configs {a.configs!r}: each kind of game is one of {', '.join(CONFIGS)}")
    jobs = [{"arena": a.arena, "gammon": a.gammon, "seed": a.seed, "dice": a.dice, "configs": configs,
             "positions": picked[j::a.jobs]} for j in range(a.jobs)]
    games = []
    with ProcessPoolExecutor(a.jobs) as pool:
        for part in pool.map(worker, jobs):
            games.extend(part)
    with open(a.out, "w") as f:
        for g in games:
            f.write(json.dumps(g) + "\n")
    units = {}
    for g in games:
        units.setdefault((g["index"], g["dice"]), {})[g["config"]] = g["back_points"]
    units = list(units.values())
    print(f"{len(units)} positions x dice, {len(games)} games; points for the back-game side")
    for c in configs:
        m, se = mean_se([u[c] for u in units])
        print(f"  back {c[0]}, front {c[1]}: {m:+.4f} +- {se:.4f}")
    for label, x, y in (("gnubg both sides - gammon both sides (NN - GG)", "NN", "GG"),
                        ("gnubg on the back-game side (NG - GG)", "NG", "GG"),
                        ("gnubg on the front side (GN - GG)", "GN", "GG"),
                        ("gnubg on the back-game side, gnubg in front (NN - GN)", "NN", "GN"),
                        ("gnubg on the front side, gnubg at the back (NN - NG)", "NN", "NG")):
        if x not in configs or y not in configs:
            continue
        m, se = mean_se([u[x] - u[y] for u in units])
        print(f"  {label}: {m:+.4f} +- {se:.4f}")
    if a.base:
        # Paired by the position's index in the run (files from before the
        # index was written: by Position ID).
        base = {}
        for g in map(json.loads, open(a.base)):
            base[(g.get("index", g["position"]), g["dice"], g["config"])] = g["back_points"]
        by_index = any(isinstance(k[0], int) for k in base)
        print(f"paired with {a.base} (this run minus that one), points for the back-game side:")
        for c in CONFIGS:
            diffs = [g["back_points"] - base[k] for g in games if g["config"] == c
                     for k in [(g["index"] if by_index else g["position"], g["dice"], c)] if k in base]
            if diffs:
                m, se = mean_se(diffs)
                print(f"  back {c[0]}, front {c[1]}: {m:+.4f} +- {se:.4f} ({len(diffs)} games)")


if __name__ == "__main__":
    main()
