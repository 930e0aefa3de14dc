"""Score a net on the yardstick: each position's cubeless equity by the net
against a long rollout's (Open Sage's 1,296-trial rollouts in
../shared/yardstick/*.tsv: a Position ID, then win, win gammon, win
backgammon, lose gammon, lose backgammon of the side on roll).

    python yardstick.py TSV [WEIGHTS]
"""

from __future__ import annotations

import pathlib
import sys
from typing import List, Optional, Tuple

import gammon

OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def equity(p: List[float]) -> float:
    """Cubeless money equity of the five probabilities."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = p
    return 2 * win - 1 + win_gammon - lose_gammon + win_backgammon - lose_backgammon


def score(engine: gammon.Engine, tsv: pathlib.Path, limit: Optional[int] = None) -> Tuple[int, float, float]:
    """The positions scored, the mean |equity error| and the equity bias."""
    errors: List[float] = []
    with open(tsv) as lines:
        for line in lines:
            if limit is not None and len(errors) == limit:
                break
            position, numbers = line.split("\t")
            reference = [float(x) for x in numbers.split()]
            evaluation = engine.evaluate(position)
            net = [evaluation[name] for name in OUTPUTS]
            errors.append(equity(net) - equity(reference))
    n = len(errors)
    return n, sum(abs(e) for e in errors) / n, sum(errors) / n


def main() -> None:
    tsv = pathlib.Path(sys.argv[1])
    engine = gammon.Engine(weights=sys.argv[2] if len(sys.argv) > 2 else None)
    n, mean_abs, bias = score(engine, tsv)
    print(f"{tsv.name}: {n} positions, mean |equity error| {mean_abs:.4f}, bias {bias:+.4f} ({engine.name})")


if __name__ == "__main__":
    main()
