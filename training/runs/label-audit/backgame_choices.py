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

import backgames


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
    backgames.add_arguments(ap)
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--limit", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    bgcore, players = backgames.arena(a.arena)
    ids = backgames.positions(a.show, a.labels)[::a.every][:a.limit]
    gammon = players.make_player("ubgi:" + a.gammon)
    gnubg = players.make_player("gnubg:0")
    diffs, decisions, differ = {}, 0, 0
    try:
        for _, _, ours, theirs in backgames.decisions(bgcore, gammon, gnubg, ids, a.seed):
            decisions += 1
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
