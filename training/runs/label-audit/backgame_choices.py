#!/usr/bin/env python3
"""Where gammon's 0-ply move for the back-game side differs from gnubg
0-ply's, what differs: blots, checkers back, in the outfield, at home.
Measurement only: the positions are gammon's own (a back-game chunk's),
gnubg only plays; nothing here chooses a training position.

    cd training/runs/label-audit
    python3 backgame_choices.py --arena ../../../../shared/arena \
        --gammon "../../../target/release/gammon ubgi --weights ../../../weights/gammon.net" \
        --labels ../../work/fit-data/b004.gds --show "../../../target/release/gammon label show" \
        --every 2 --limit 5000 --seed 7

For each picked position with the back-game side on roll (more checkers in
the opponent's home board and on the bar) and a roll with a choice, both
engines move; where their moves differ, each measure of the back-game
side's board after gammon's move minus after gnubg's, with how often
gammon's is the larger and the smaller.
"""
import argparse
import json
import os
import random
import shlex
import subprocess
import sys


def measures(me):
    """The mover's board after its move: own points 1-24 at 0-23, the bar at 24."""
    return {
        "blots": sum(1 for i in range(24) if me[i] == 1),
        "checkers back (opponent's home board, bar)": sum(me[18:25]),
        "anchors (opponent's home board)": sum(1 for i in range(18, 24) if me[i] >= 2),
        "checkers in the outfield (own 7-18)": sum(me[6:18]),
        "checkers at home (own 1-6)": sum(me[0:6]),
        "home points made": sum(1 for i in range(6) if me[i] >= 2),
        "checkers on own 1-3 points": sum(me[0:3]),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arena", required=True)
    ap.add_argument("--gammon", required=True, help="the UBGI command of gammon")
    ap.add_argument("--labels", required=True, help="a gammon dataset whose positions to use")
    ap.add_argument("--show", required=True, help="the `gammon label show` command")
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--limit", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    sys.path.insert(0, os.path.abspath(a.arena))
    import bgcore
    import players
    shown = subprocess.run(shlex.split(a.show) + [a.labels], capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in shown.stdout.splitlines()[1:] if line.strip()]
    gammon = players.make_player("ubgi:" + a.gammon)
    gnubg = players.make_player("gnubg:0")
    rng = random.Random(a.seed)
    diffs, decisions, differ = {}, 0, 0
    try:
        for r in rows[::a.every][:a.limit]:
            board = bgcore.board_from_id(r["position"])
            if sum(board[1][18:25]) < sum(board[0][18:25]):
                continue
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            legal = bgcore.legal_moves(board, d1, d2)
            if len(legal) < 2:
                continue
            decisions += 1
            ours, theirs = gammon.move(board, d1, d2, legal), gnubg.move(board, d1, d2, legal)
            if ours == theirs:
                continue
            differ += 1
            mo, mt = measures(ours[1]), measures(theirs[1])
            for k in mo:
                diffs.setdefault(k, []).append(mo[k] - mt[k])
    finally:
        gammon.close()
        gnubg.close()
    print(f"{decisions} decisions of the back-game side; gammon's move differs from gnubg 0-ply's in {differ}")
    for k, v in diffs.items():
        more, fewer = sum(1 for x in v if x > 0), sum(1 for x in v if x < 0)
        z = (more - fewer) / (more + fewer) ** 0.5 if more + fewer else 0.0
        print(f"  {k}: gammon minus gnubg {sum(v) / len(v):+.3f} a differing move; "
              f"gammon's more {more}, fewer {fewer} (sign test z {z:+.1f})")


if __name__ == "__main__":
    main()
