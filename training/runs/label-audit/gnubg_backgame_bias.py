"""gnubg 1.07's 0-ply on the yardstick's back-game sets: its mean |equity
error| and its bias (measurement only: nothing here is a training target or
chooses a training position). Run inside gnubg from this folder:

    /usr/games/gnubg -t -q -p gnubg_backgame_bias.py

with the yardstick at ../../../../shared/yardstick (YARDSTICK overrides).
Prints one line per file.
"""
import os
import statistics

import gnubg  # noqa: F401 (gnubg's embedded module)

YARDSTICK = os.environ.get("YARDSTICK", "../../../../shared/yardstick")
FILES = ("backgame-player.tsv", "backgame-opponent.tsv")


def equity(p):
    w, wg, wb, lg, lb = p
    return 2 * w - 1 + wg - lg + wb - lb


cubeless = gnubg.evalcontext(0, 0, 0, 1, 0.0)
centred = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)
for name in FILES:
    errors = []
    with open(os.path.join(YARDSTICK, name)) as f:
        for line in f:
            if not line.strip():
                continue
            pid, probs = line.rstrip("\n").split("\t")
            ours = gnubg.evaluate(gnubg.positionfromid(pid), centred, cubeless)[:5]
            errors.append(equity(ours) - equity([float(x) for x in probs.split()]))
    print(f"{name}: {len(errors)} positions, gnubg 0-ply mean |equity error| "
          f"{statistics.mean(map(abs, errors)):.4f}, bias {statistics.mean(errors):+.4f}")
