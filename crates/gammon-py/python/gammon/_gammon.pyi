"""Type stubs of the compiled module: every answer is the dict of the CLI's --json."""

import os
from typing import Any, Dict, Literal, Optional, Tuple, Union, final


__all__ = ["Engine", "__version__", "moves", "position"]
__version__: str

_Json = Dict[str, Any]
"""A JSON document as the CLI prints it (with ``schema_version``)."""

_Score = Union[Tuple[int, int], str]
"""Points already won, player on roll first: ``(2, 4)`` or ``"2-4"``."""

_Owner = Literal["me", "opponent", "centre", "center", "centred", "centered", "none", "x", "o", "opp", "him", "player", "on-roll"]

def moves(position: str, dice: Optional[str] = None) -> _Json:
    """The legal moves of a roll: ``gammon moves POSITION DICE --json``."""

def position(position: str, dice: Optional[str] = None) -> _Json:
    """The position's IDs, board, pips and context: ``gammon position POSITION --json``."""

@final
class Engine:
    """A net, a match equity table and a worker pool (see the module docs)."""

    def __new__(
        cls,
        weights: Union[str, "os.PathLike[str]", None] = None,
        threads: Optional[int] = None,
        met: Union[str, "os.PathLike[str]", None] = None,
    ) -> "Engine": ...
    @property
    def name(self) -> str:
        """The evaluator's name."""
    @property
    def met(self) -> str:
        """The match equity table's name."""
    def evaluate(self, position: str) -> _Json:
        """``gammon eval POSITION --json``."""
    def analyse(
        self,
        position: str,
        dice: Optional[str] = None,
        ply: int = 2,
        cubeless: bool = False,
        prune: int = 8,
        *,
        cube: Optional[int] = None,
        owner: Optional[_Owner] = None,
        match: Optional[int] = None,
        score: Optional[_Score] = None,
        crawford: Optional[bool] = None,
        jacoby: Optional[bool] = None,
        beaver: Optional[bool] = None,
    ) -> _Json:
        """``gammon analyse POSITION [--dice D] --json`` with the same options."""
    def cube(
        self,
        position: str,
        ply: int = 2,
        matrix: Optional[int] = None,
        *,
        cube: Optional[int] = None,
        owner: Optional[_Owner] = None,
        match: Optional[int] = None,
        score: Optional[_Score] = None,
        crawford: Optional[bool] = None,
        jacoby: Optional[bool] = None,
        beaver: Optional[bool] = None,
    ) -> _Json:
        """``gammon cube POSITION [--matrix N] --json`` with the same options."""
    def rollout(
        self,
        position: str,
        dice: Optional[str] = None,
        games: int = 1296,
        ply: int = 0,
        truncate: Optional[int] = None,
        cubeful: bool = False,
        cubeless: bool = False,
        cube_decision: bool = False,
        seed: int = 1,
        target_se: Optional[float] = None,
        variance_reduction: bool = True,
        quasi_random: bool = True,
        bearoff_exact: bool = True,
        moves: int = 8,
        threads: Optional[int] = None,
        *,
        cube: Optional[int] = None,
        owner: Optional[_Owner] = None,
        match: Optional[int] = None,
        score: Optional[_Score] = None,
        crawford: Optional[bool] = None,
        jacoby: Optional[bool] = None,
        beaver: Optional[bool] = None,
    ) -> _Json:
        """``gammon rollout POSITION --json`` with the same options; Ctrl-C raises
        ``KeyboardInterrupt`` whose ``partial`` is the dict of the games finished."""
    def review(
        self,
        match: Union[str, bytes, bytearray, "os.PathLike[str]"],
        ply: int = 2,
        cube_ply: int = 2,
        filter: Literal["normal", "large"] = "normal",
        prune: int = 8,
        keep_going: bool = False,
        threads: Optional[int] = None,
    ) -> _Json:
        """``gammon review FILE --json``: ``match`` is a path, the text of a match or a file's bytes."""
