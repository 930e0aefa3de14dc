"""gammon: a backgammon engine.

Every call returns the dict that the command line's ``--json`` prints for
the same request (the same keys, numbers and ``schema_version``):

    >>> import gammon
    >>> len(gammon.moves("4HPwATDgc/ABMA", "31")["moves"])
    16
    >>> engine = gammon.Engine()
    >>> engine.analyse("4HPwATDgc/ABMA", dice="31")["moves"][0]["move"]
    '8/5 6/5'

Bad input raises ``ValueError`` with the command line's message; a missing
file ``FileNotFoundError``. See docs/python.md.
"""

from gammon._gammon import Engine, __version__, moves, position

__all__ = ["Engine", "__version__", "moves", "position"]
