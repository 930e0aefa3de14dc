"""The time of a Python call against the same work in Rust
(benches/python_call.rs, `cargo bench -p gammon-benches --bench
python_call`): a 0-ply analysis of the opening 31, and the same call
through the package. Run with the release build installed (pip install
./crates/gammon-py) on an otherwise idle machine.

    python crates/gammon-py/benches/call_overhead.py
"""

import timeit

import gammon


def main() -> None:
    engine = gammon.Engine(threads=1)
    engine.analyse("4HPwATDgc/ABMA", dice="31", ply=0)
    for name, stmt in (
        ("analyse 0-ply", lambda: engine.analyse("4HPwATDgc/ABMA", dice="31", ply=0)),
        ("moves", lambda: gammon.moves("4HPwATDgc/ABMA", "31")),
        ("evaluate", lambda: engine.evaluate("4HPwATDgc/ABMA")),
    ):
        runs = timeit.repeat(stmt, number=2000, repeat=7)
        best = min(runs) / 2000
        print(f"{name}: {best * 1e6:.1f} us a call (best of 7 x 2000)")


if __name__ == "__main__":
    main()
