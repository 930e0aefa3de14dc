"""Review every match file of a folder and print a table per player: the
matches played, the decisions that counted, the error rate in mEMG per
decision, PR and luck - a player's last hundred matches in one table.

    python review_folder.py FOLDER [PLY]
"""

from __future__ import annotations

import pathlib
import sys
from dataclasses import dataclass
from typing import Dict

import gammon

MATCH_FILES = {".mat", ".txt", ".sgf", ".xg", ".ogxm"}


@dataclass
class Player:
    """One player's totals across the files."""

    matches: int = 0
    decisions: int = 0  # unforced moves and close cube decisions, as gnubg counts them
    error: float = 0.0  # normalised equity given up (EMG)
    luck: float = 0.0

    @property
    def error_rate(self) -> float:
        """mEMG per decision."""
        return 1000 * self.error / self.decisions if self.decisions else 0.0

    @property
    def pr(self) -> float:
        """500 x the mean error per decision (the review's PR)."""
        return 500 * self.error / self.decisions if self.decisions else 0.0


def review_folder(engine: gammon.Engine, folder: pathlib.Path, ply: int = 2) -> Dict[str, Player]:
    """Each player's totals over the folder's match files (by file name)."""
    players: Dict[str, Player] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in MATCH_FILES:
            continue
        try:
            review = engine.review(path, ply=ply, cube_ply=ply)
        except (ValueError, OSError) as refused:
            print(f"{path.name}: not reviewed: {refused}", file=sys.stderr)
            continue
        for summary in review["summary"]:
            player = players.setdefault(summary["name"], Player())
            player.matches += 1
            player.decisions += summary["unforced_moves"] + summary["close_cube_decisions"]
            player.error += summary["chequer_error_total"] + summary["cube_error_total"]
            player.luck += summary["luck_total"]
    return players


def main() -> None:
    folder = pathlib.Path(sys.argv[1])
    ply = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    players = review_folder(gammon.Engine(), folder, ply)
    print(f"{'player':<20} {'matches':>7} {'decisions':>9} {'mEMG':>7} {'PR':>6} {'luck':>7}")
    for name, p in sorted(players.items(), key=lambda item: item[1].pr):
        print(f"{name:<20} {p.matches:>7} {p.decisions:>9} {p.error_rate:>7.1f} {p.pr:>6.1f} {p.luck:>+7.2f}")


if __name__ == "__main__":
    main()
