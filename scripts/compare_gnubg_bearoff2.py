"""Compare gammon's two-sided bearoff database with GNU Backgammon 1.07's.

Runs inside gnubg's embedded Python (not a plain interpreter):

  cargo run --release -p gammon-eval --example bearoff2_dump -- /tmp/bearoff2.jsonl
  BEAROFF2_DUMP=/tmp/bearoff2.jsonl gnubg -t -q -p scripts/compare_gnubg_bearoff2.py

Two comparisons:

1. Every pair of the dump against gnubg's file `gnubg_ts0.bd` (6 checkers on
   6 points, `BEAROFF2_BD`, default /var/lib/gnubg/gnubg_ts0.bd), read
   directly: a 40-byte header `gnubg-TS-06-06-1...` (1 = cubeful), then per
   pair four little-endian u16 `v`, value `v / 32767.5 - 1`, at
   `40 + 8 * (i_roller * 924 + i_opponent)` with gnubg's own layout index
   (`gnubg.positionbearoff(points, 6, 6)`): the cubeless equity `2W - 1`
   and the no-double cubeful equities, owned, centred, opponent-owned,
   which is what gammon stores too (the side on roll's cube decision is
   made after reading them). Both the order and the meaning are checked by
   the comparison itself.
2. `BEAROFF2_API` (default 3000) pairs spread over the dump against gnubg's
   evaluator: `gnubg.evaluate` (0-ply cubeless P(win)) and
   `gnubg.cfevaluate` (0-ply cubeful money, the optimal equity, against
   ours: max(nd, min(2 * nd_opponent_owns, 1)) where the roller may double).

3. The same pairs: gnubg's stored value against the recursion of gammon's
   module documentation applied to gnubg's own stored values of the pairs
   after each roll (the cause of the differences in 1: gnubg builds on its
   rounded 16-bit values, so their rounding accumulates).

Prints the largest and mean absolute differences and exits non-zero if any
of 1 or 2 exceeds `BEAROFF2_TOL` (default 2.5e-4: gnubg stores 16 bits,
steps of 3.05e-5, built on its own rounded-down values level by level, so the
differences grow to a few steps; a double/take doubles them), or 3 exceeds
two steps.
Not part of CI (it needs gnubg).
"""

import json
import os
import struct
import sys

import gnubg

DUMP = os.environ.get("BEAROFF2_DUMP", "/tmp/bearoff2.jsonl")
BD = os.environ.get("BEAROFF2_BD", "/var/lib/gnubg/gnubg_ts0.bd")
API = int(os.environ.get("BEAROFF2_API", "3000"))
TOL = float(os.environ.get("BEAROFF2_TOL", "2.5e-4"))
STEP = 1.0 / 32767.5  # one step of gnubg's 16-bit values
MAX_DUMP_BYTES = 256 * 1024 * 1024
N = 924


class Stat:
    def __init__(self):
        self.n, self.sum, self.max, self.at = 0, 0.0, 0.0, None

    def add(self, ours, theirs, where):
        d = abs(ours - theirs)
        self.n += 1
        self.sum += d
        if d > self.max:
            self.max, self.at = d, (where, ours, theirs)

    def line(self, name):
        mean = self.sum / max(self.n, 1)
        return f"  {name:28s} n={self.n:7d} mean |d|={mean:.2e} max |d|={self.max:.2e} at {self.at}"


def single_steps(points, die):
    """Layouts after one step of `die` (as gammon's bearoff::single_steps)."""
    highest = max(i for i, n in enumerate(points) if n > 0)
    for p in range(highest, -1, -1):
        if points[p] == 0:
            continue
        nxt = list(points)
        nxt[p] -= 1
        if p + 1 > die:
            nxt[p - die] += 1
        elif p + 1 < die and p != highest:
            continue
        yield tuple(nxt)


def successors(points, d1, d2):
    """Distinct layouts after the roll d1-d2 in a pure bearoff."""
    orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    out = set()
    for order in orders:
        level = {tuple(points)}
        for die in order:
            level = {m for x in level for m in ([x] if sum(x) == 0 else single_steps(x, die))}
        out |= level
    return out


def board(points):
    return list(points) + [0] * 19


def main():
    if os.path.getsize(DUMP) > MAX_DUMP_BYTES:
        sys.exit(f"error: {DUMP} is larger than {MAX_DUMP_BYTES} bytes")
    with open(BD, "rb") as f:
        data = f.read(40 + 8 * N * N + 1)
    header = data[:40].decode("ascii", "replace")
    if not header.startswith("gnubg-TS-06-06-1") or len(data) != 40 + 8 * N * N:
        sys.exit(f"error: {BD} is not gnubg's cubeful 6x6 two-sided database (header {header!r}, {len(data)} bytes)")
    index = {}

    def gnubg_index(points):
        key = tuple(points)
        if key not in index:
            index[key] = gnubg.positionbearoff(board(points), 6, 6)
        return index[key]

    def stored(us, them):
        k = gnubg_index(us) * N + gnubg_index(them)
        return [v / 32767.5 - 1.0 for v in struct.unpack_from("<4H", data, 40 + 8 * k)]

    names = ("win", "owned", "centred", "opponent_owns")
    file_stats = {k: Stat() for k in names}
    rows = []
    with open(DUMP) as f:
        for line in f:
            r = json.loads(line)
            rows.append(r)
            cubeless, nd_own, nd_centre, nd_opp = stored(r["us"], r["them"])
            theirs = {"win": (cubeless + 1.0) / 2.0, "owned": nd_own, "centred": nd_centre, "opponent_owns": nd_opp}
            where = (r["us"], r["them"])
            for k in names:
                file_stats[k].add(r[k], theirs[k], where)
    print(f"{len(rows)} pairs from {DUMP} against {BD}:")
    for k in names:
        print(file_stats[k].line(k))

    api_stats = {k: Stat() for k in names}
    ctx = gnubg.evalcontext(1, 0, 0, 1, 0.0)
    cubeless_ctx = gnubg.evalcontext(0, 0, 0, 1, 0.0)
    step = max(1, len(rows) // max(API, 1))
    owners = {"owned": 1, "centred": -1, "opponent_owns": 0}
    for r in rows[::step][:API]:
        # gnubg's board: (opponent, side on roll); the side on roll is player 1.
        b = (board(r["them"]), board(r["us"]))
        where = (r["us"], r["them"])
        centred = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)
        api_stats["win"].add(r["win"], gnubg.evaluate(b, centred, cubeless_ctx)[0], where)
        double = min(2.0 * r["opponent_owns"], 1.0)
        for k, owner in owners.items():
            ours = r[k] if k == "opponent_owns" else max(r[k], double)
            ci = gnubg.cubeinfo(1, owner, 1, 0, (0, 0), 0, 0)
            api_stats[k].add(ours, gnubg.cfevaluate(b, ci, ctx)[0], where)
    print(f"{api_stats['win'].n} pairs against gnubg's 0-ply evaluator (evaluate, cfevaluate optimal):")
    for k in names:
        print(api_stats[k].line(k))
    # Why the two differ: gnubg's stored value of a pair is the same
    # recursion applied to gnubg's own stored (16-bit) values of the pairs
    # after each roll, so its rounding accumulates along the recursion.
    own_stats = {k: Stat() for k in names}
    for r in rows[::step][:API]:
        us, them = tuple(r["us"]), tuple(r["them"])
        total = [0.0] * 4
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                w = (1.0 if d1 == d2 else 2.0) / 36.0
                best = [-9.0] * 4
                for nxt in successors(us, d1, d2):
                    if sum(nxt) == 0:
                        mine = [1.0] * 4
                    else:
                        e, own, centre, opp = stored(them, nxt)
                        double = min(2.0 * opp, 1.0)
                        mine = [-e, -opp, -max(centre, double), -max(own, double)]
                    best = [max(b, m) for b, m in zip(best, mine)]
                total = [t + w * b for t, b in zip(total, best)]
        theirs = stored(us, them)
        total[0], theirs[0] = (total[0] + 1.0) / 2.0, (theirs[0] + 1.0) / 2.0
        for k, t, g in zip(names, total, theirs):
            own_stats[k].add(t, g, (r["us"], r["them"]))
    print(f"{own_stats['win'].n} pairs: gnubg's stored value against the recursion over gnubg's own stored successors:")
    for k in names:
        print(own_stats[k].line(k))
    worst = max(s.max for s in list(file_stats.values()) + list(api_stats.values()))
    own_worst = max(s.max for s in own_stats.values())
    print(f"largest difference {worst:.2e} (tolerance {TOL:.1e}); gnubg against its own recursion {own_worst:.2e}"
          f" ({own_worst / STEP:.2f} steps of its 16-bit values, tolerance 2)")
    if worst > TOL or own_worst > 2 * STEP:
        sys.exit(1)


main()
