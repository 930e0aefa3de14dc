"""What the back-game measurements share (backgame_sides.py,
backgame_choices.py, backgame_choice_rollouts.py): their arguments, gammon's
own back-game positions, and the decisions of the back-game side that
gammon and gnubg 0-ply both play. Measurement only."""
import json
import os
import random
import shlex
import subprocess
import sys


def add_arguments(ap, gammon_help="the UBGI command of gammon", show=True):
    ap.add_argument("--arena", required=True, help="../shared/arena (its bgcore and players)")
    ap.add_argument("--gammon", required=True, help=gammon_help)
    ap.add_argument("--labels", required=True, help="a gammon dataset (.gds) or positions file whose positions to use")
    if show:
        ap.add_argument("--show", required=True, help="the `gammon label show` command")


def arena(path):
    """The arena's modules: bgcore (boards, moves, IDs) and players."""
    sys.path.insert(0, os.path.abspath(path))
    import bgcore
    import players
    return bgcore, players


def positions(show, labels):
    """The Position IDs of a gammon dataset, in its order, or of a positions
    file (`gammon label sample --out`: one ID a line, `#` comments)."""
    if not labels.endswith(".gds"):
        with open(labels) as f:
            return [line.strip() for line in f if line.strip() and not line.startswith("#")]
    shown = subprocess.run(shlex.split(show) + [labels], capture_output=True, text=True, check=True)
    return [json.loads(line)["position"] for line in shown.stdout.splitlines()[1:] if line.strip()]


def back_checkers(side):
    """Checkers in the opponent's home board (own points 19-24) and on the bar."""
    return sum(side[18:25])


def back_game_side_on_roll(board):
    """Whether the side on roll (board[1]) is the one holding the back game."""
    return back_checkers(board[1]) >= back_checkers(board[0])


def decisions(bgcore, gammon, gnubg, ids, seed):
    """For each position with the back-game side on roll, a random roll with
    a choice: (board, legal results, gammon's result, gnubg's result)."""
    rng = random.Random(seed)
    for pid in ids:
        board = bgcore.board_from_id(pid)
        if not back_game_side_on_roll(board):
            continue
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        legal = bgcore.legal_moves(board, d1, d2)
        if len(legal) < 2:
            continue
        yield board, legal, gammon.move(board, d1, d2, legal), gnubg.move(board, d1, d2, legal)
