#!/usr/bin/env python3
"""Compare `gammon review FILE --json` with gnubg 1.07's analysis of the same match.

The gnubg side is a JSON file written by scripts/gnubg_reference.py (gnubg's embedded
Python: it generates matches of gnubg against itself with noise, or takes a .mat file,
and dumps gnubg's `analyse match`): records in file order with the loss, mark, cube
numbers and luck of each, plus gnubg's statistics.

Reports, per player, our error rates beside gnubg's; the mean absolute difference
of the per-move losses (moves matched by game, move number and player); the recall
and precision of very bad moves (loss > 0.12) both ways; the agreement on the
proper cube action over the decisions both sides analysed; and the time taken.

Standard library only.  Examples:
  scripts/gnubg_reference.py --out /tmp/gnubg-ref     # M.mat and M.json for each match
  scripts/compare_gnubg_review.py /tmp/gnubg-ref/M.mat --gnubg-json /tmp/gnubg-ref/M.json
  scripts/compare_gnubg_review.py M.mat --gnubg-json REF.json --gammon-json OURS.json
  scripts/compare_gnubg_review.py M.mat --gnubg-json REF.json --self-check
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time

VERY_BAD = 0.12
MAX_JSON_BYTES = 256 * 1024 * 1024
CUBE_ACTIONS = ("move", "double", "take", "drop", "beaver", "raccoon")
MARKS = ("doubtful", "bad", "very bad")
RATE_KEYS = (
    "chequer_error_rate",
    "cube_error_rate",
    "overall_error_rate",
    "snowie_error_rate",
    "pr",
    "luck_rate",
)


class CompareError(Exception):
    """A bad input file or a failed `gammon review` run."""


def read_json(path, what):
    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise CompareError(f"{what} {path}: {e.strerror}") from e
    if size > MAX_JSON_BYTES:
        raise CompareError(f"{what} {path}: {size} bytes, over the {MAX_JSON_BYTES} limit")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise CompareError(f"{what} {path}: {e}") from e


def run_gammon(binary, match_file, extra):
    """Run the review; return (parsed JSON, wall seconds, CPU seconds of the child)."""
    cmd = [binary, "review", match_file, "--json"] + extra
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, check=False)
    except OSError as e:
        raise CompareError(f"cannot run {binary}: {e.strerror}") from e
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise CompareError(f"{' '.join(cmd)} exited with {proc.returncode}: {err[-2000:]}")
    if len(proc.stdout) > MAX_JSON_BYTES:
        raise CompareError("gammon review --json output over the size limit")
    try:
        return json.loads(proc.stdout), wall, cpu
    except ValueError as e:
        raise CompareError(f"gammon review --json printed invalid JSON: {e}") from e


# ---------------------------------------------------------------- normalising


def norm_mark(m):
    """'very bad' / 'very_bad' / 'VeryBad' / '??' -> 'very bad'; unmarked -> None."""
    if m is None:
        return None
    s = str(m).strip().lower().replace("_", " ").replace("-", " ")
    s = {"??": "very bad", "?": "bad", "?!": "doubtful", "verybad": "very bad"}.get(s, s)
    return s if s in MARKS else None


def norm_proper(p):
    """A proper cube action in one of: no double, double take, double pass, too good."""
    if p is None:
        return None
    s = str(p).strip().lower()
    for ch in "_-/,":
        s = s.replace(ch, " ")
    s = " ".join(s.split()).replace("redouble", "double")
    if "too good" in s or s.startswith("tg"):
        return "too good"
    if s.startswith("no double") or s.startswith("nd") or s == "no":
        return "no double"
    if "pass" in s or "drop" in s or s in ("dp", "d p"):
        return "double pass"
    if "take" in s or "beaver" in s or s in ("dt", "d t"):
        return "double take"
    return s


def coarse(p):
    """Double or not: the decision the player on roll makes."""
    return None if p is None else ("double" if p.startswith("double") else "no double")


def num(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


# ---------------------------------------------------------------- matching


def with_move_numbers(records):
    """Give each record the line number it has in a .mat file: player 0 writes in the left
    slot, player 1 in the right one; a double and its take or drop take a slot each, but the
    take of a beaver or raccoon is not written (the .mat goes on with the next move)."""
    out = []
    slot = None
    prev = None
    for idx, r in enumerate(records):
        player = r.get("player")
        action = r.get("action")
        n = None
        implied_take = action == "take" and prev in ("beaver", "raccoon")
        if action in CUBE_ACTIONS and player in (0, 1) and not implied_take:
            slot = player if slot is None else slot + 1
            if slot % 2 != player:
                slot += 1
            n = slot // 2 + 1
        if action is not None:
            prev = action
        out.append((n, idx, r))
    return out


def keyed_records(doc, player_map):
    """{(game, move number, player, action): record} with players mapped to gnubg's order."""
    table = {}
    for gi, game in enumerate(doc.get("games") or []):
        gnum = game.get("number", gi + 1)
        # the .mat columns are gnubg's players, so map the players before numbering the slots
        recs = [dict(r, player=player_map.get(r.get("player"), r.get("player"))) for r in game.get("records") or []]
        for n, _idx, r in with_move_numbers(recs):
            if n is None:
                continue
            action = "beaver" if r.get("action") == "raccoon" else r.get("action")
            table[(gnum, n, r["player"], action)] = r
    return table


def player_map_for(ours, ref):
    """Our player index -> gnubg's, by name when both name the same two players."""
    a, b = list(ours.get("players") or []), list(ref.get("players") or [])
    if len(a) == 2 and sorted(a) == sorted(b) and a[0] != a[1]:
        return {0: b.index(a[0]), 1: b.index(a[1])}
    return {0: 0, 1: 1}


# ---------------------------------------------------------------- metrics


def mean(xs):
    return sum(xs) / len(xs) if xs else None


def recall_precision(ref_set, our_set):
    both = len(ref_set & our_set)
    recall = both / len(ref_set) if ref_set else None
    precision = both / len(our_set) if our_set else None
    return recall, precision


RATINGS = ("Awful!", "Beginner", "Casual player", "Intermediate", "Advanced", "Expert",
           "World class", "Supernatural")


def gnubg_summary(ref, p):
    """gnubg's per-player figures: its own statistics where it reports them, else the
    figures re-derived from its records (gnubg_reference.py writes both; they agree)."""
    derived = (ref.get("summary") or [{}, {}])[p]
    official = (ref.get("gnubg_stats") or [{}, {}])[p]
    out = dict(derived)
    for k in RATE_KEYS:
        if num(official.get(k)) is not None:
            out[k] = official[k]
    if num(out.get("overall_error_rate")) is not None:
        out["pr"] = out["overall_error_rate"] / 2
    raw = official.get("raw") or {}
    moves, cube = raw.get("moves") or {}, raw.get("cube") or {}
    if num(moves.get("unforced-moves")) is not None:
        out["unforced_moves"] = moves["unforced-moves"]
    if num(cube.get("close-cube")) is not None:
        out["close_cube_decisions"] = cube["close-cube"]
    if isinstance(moves.get("marked"), dict):
        out["marks"] = {m: moves["marked"].get(m, 0) for m in MARKS}
    code = official.get("rating_code")
    if isinstance(code, int) and 0 <= code < len(RATINGS):
        out["rating"] = RATINGS[code]
    return out


def compare(ours, ref):
    pmap = player_map_for(ours, ref)
    ours_t = keyed_records(ours, pmap)
    ref_t = keyed_records(ref, {0: 0, 1: 1})

    moves = []
    pos_mismatch = 0
    for key, g in ref_t.items():
        if key[3] != "move":
            continue
        o = ours_t.get(key)
        if o is None:
            continue
        if g.get("position_id") and o.get("position_id") and g["position_id"] != o["position_id"]:
            pos_mismatch += 1
        moves.append((key, g, o))
    ref_moves = sum(1 for k in ref_t if k[3] == "move")
    our_moves = sum(1 for k in ours_t if k[3] == "move")

    diffs, diffs_unforced, luck_diffs = [], [], []
    ref_vb, our_vb, ref_vb_mark, our_vb_mark = set(), set(), set(), set()
    same_mark = marked_pairs = 0
    for key, g, o in moves:
        gl, ol = num(g.get("loss")), num(o.get("loss"))
        if gl is not None and ol is not None:
            diffs.append(abs(gl - ol))
            if not g.get("forced"):
                diffs_unforced.append(abs(gl - ol))
            if gl > VERY_BAD:
                ref_vb.add(key)
            if ol > VERY_BAD:
                our_vb.add(key)
        if norm_mark(g.get("mark")) == "very bad":
            ref_vb_mark.add(key)
        if norm_mark(o.get("mark")) == "very bad":
            our_vb_mark.add(key)
        if not g.get("forced"):
            marked_pairs += 1
            same_mark += norm_mark(g.get("mark")) == norm_mark(o.get("mark"))
        gk, ok = num(g.get("luck")), num(o.get("luck"))
        if gk is not None and ok is not None:
            luck_diffs.append(abs(gk - ok))

    cube_pairs = []
    for key, g in ref_t.items():
        o = ours_t.get(key)
        if o is None or not isinstance(g.get("cube"), dict) or not isinstance(o.get("cube"), dict):
            continue
        if key[3] in ("take", "drop"):
            continue  # the doubler's decision, counted once on the double
        cube_pairs.append((key, g["cube"], o["cube"]))
    exact = sum(norm_proper(g.get("proper")) == norm_proper(o.get("proper")) for _, g, o in cube_pairs)
    coarse_ok = sum(
        coarse(norm_proper(g.get("proper"))) == coarse(norm_proper(o.get("proper"))) for _, g, o in cube_pairs
    )
    cube_err = [
        abs(g["error"] - o["error"])
        for _, g, o in cube_pairs
        if num(g.get("error")) is not None and num(o.get("error")) is not None
    ]
    disagreements = [
        {"key": list(k), "gnubg": g.get("proper"), "ours": o.get("proper")}
        for k, g, o in cube_pairs
        if norm_proper(g.get("proper")) != norm_proper(o.get("proper"))
    ]

    players = []
    our_summary = ours.get("summary") or []
    inverse = {v: k for k, v in pmap.items()}
    for p in (0, 1):
        ours_p = our_summary[inverse[p]] if len(our_summary) == 2 else {}
        players.append(
            {
                "name": (ref.get("players") or ["?", "?"])[p],
                "gnubg": gnubg_summary(ref, p),
                "ours": ours_p,
            }
        )

    r_loss, p_loss = recall_precision(ref_vb, our_vb)
    r_mark, p_mark = recall_precision(ref_vb_mark, our_vb_mark)
    return {
        "players": players,
        "moves": {
            "gnubg": ref_moves,
            "ours": our_moves,
            "matched": len(moves),
            "position_id_mismatches": pos_mismatch,
            "loss_mad": mean(diffs),
            "loss_mad_unforced": mean(diffs_unforced),
            "luck_mad": mean(luck_diffs),
            "same_mark_unforced": same_mark / marked_pairs if marked_pairs else None,
            "very_bad_gnubg": len(ref_vb),
            "very_bad_ours": len(our_vb),
            "very_bad_both": len(ref_vb & our_vb),
            "very_bad_recall": r_loss,
            "very_bad_precision": p_loss,
            "very_bad_mark_recall": r_mark,
            "very_bad_mark_precision": p_mark,
        },
        "cube": {
            "decisions_both": len(cube_pairs),
            "proper_agreement": exact / len(cube_pairs) if cube_pairs else None,
            "double_or_not_agreement": coarse_ok / len(cube_pairs) if cube_pairs else None,
            "error_mad": mean(cube_err),
            "disagreements": disagreements[:50],
        },
    }


# ---------------------------------------------------------------- self check


def gammon_doc_from_gnubg(ref):
    """The gnubg reference recast in the `gammon review --json` schema (issue 10): comparing
    it with the reference must give full agreement, which checks this script's own plumbing."""
    games = []
    for g in ref.get("games") or []:
        recs = []
        for r in g.get("records") or []:
            rec = {k: r.get(k) for k in ("player", "action", "position_id", "match_id", "dice", "move")}
            rec.update({k: r.get(k) for k in ("forced", "best", "equity_played", "equity_best", "loss",
                                               "loss_mwc", "mark", "luck")})
            if isinstance(r.get("cube"), dict):
                c = r["cube"]
                rec["cube"] = {k: c.get(k) for k in ("nd", "dt", "dp", "proper", "error", "close", "mark")}
            recs.append(rec)
        games.append({"number": g.get("number"), "score": g.get("score"), "crawford": g.get("crawford"),
                      "winner": g.get("winner"), "points": g.get("points"), "records": recs})
    summary = []
    for p in (0, 1):
        s = gnubg_summary(ref, p)
        summary.append({k: s.get(k) for k in RATE_KEYS + ("unforced_moves", "close_cube_decisions",
                                                           "marks", "rating")})
    return {"players": ref.get("players"), "match_length": ref.get("match_length"),
            "settings": {"source": "self-check"}, "games": games, "summary": summary}


# ---------------------------------------------------------------- report


def fmt(x, width=9, digits=2):
    if x is None:
        return "n/a".rjust(width)
    if isinstance(x, float):
        return f"{x:{width}.{digits}f}"
    return str(x).rjust(width)


def report_text(res, timing):
    lines = []
    for pl in res["players"]:
        g, o = pl["gnubg"], pl["ours"]
        lines.append(f"{pl['name']}")
        lines.append(f"  {'':22}{'gnubg':>9} {'gammon':>9} {'diff':>9}")
        for k in RATE_KEYS + ("unforced_moves", "close_cube_decisions"):
            gv, ov = num(g.get(k)), num(o.get(k))
            d = ov - gv if gv is not None and ov is not None else None
            lines.append(f"  {k:22}{fmt(gv)} {fmt(ov)} {fmt(d)}")
        gm, om = g.get("marks") or {}, o.get("marks") or {}
        if isinstance(om, dict) and isinstance(om.get("moves"), dict):
            om = om["moves"]  # gammon's summary: marks of moves, cube decisions and rolls
        om_n = {norm_mark(k): v for k, v in om.items() if norm_mark(k)} if isinstance(om, dict) else {}
        lines.append(
            "  marks d/b/vb          "
            + "/".join(str(gm.get(m, 0)) for m in MARKS)
            + "  vs  "
            + "/".join(str(om_n.get(m, "?")) for m in MARKS)
        )
        lines.append(f"  rating                {g.get('rating')}  vs  {o.get('rating')}")
    m, c = res["moves"], res["cube"]
    lines.append(
        f"moves: gnubg {m['gnubg']}, gammon {m['ours']}, matched {m['matched']}"
        f" (position ID differs on {m['position_id_mismatches']})"
    )
    lines.append(f"  loss MAD {fmt(m['loss_mad'], 0, 4)} (unforced {fmt(m['loss_mad_unforced'], 0, 4)}),"
                 f" luck MAD {fmt(m['luck_mad'], 0, 4)}, same mark {fmt(m['same_mark_unforced'], 0, 3)}")
    lines.append(
        f"  very bad (loss > {VERY_BAD}): gnubg {m['very_bad_gnubg']}, gammon {m['very_bad_ours']},"
        f" both {m['very_bad_both']}; recall {fmt(m['very_bad_recall'], 0, 3)},"
        f" precision {fmt(m['very_bad_precision'], 0, 3)}"
        f" (by mark: {fmt(m['very_bad_mark_recall'], 0, 3)} / {fmt(m['very_bad_mark_precision'], 0, 3)})"
    )
    lines.append(
        f"cube: {c['decisions_both']} decisions analysed by both; proper action agreement"
        f" {fmt(c['proper_agreement'], 0, 3)}, double-or-not {fmt(c['double_or_not_agreement'], 0, 3)},"
        f" error MAD {fmt(c['error_mad'], 0, 4)}"
    )
    if timing:
        lines.append("time: " + ", ".join(f"{k} {v}" for k, v in timing.items()))
    return "\n".join(lines)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("match_file", help="the match file (.mat or .sgf) given to gammon review")
    ap.add_argument("--gnubg-json", required=True, help="gnubg reference JSON for the same match")
    ap.add_argument("--gammon", default="target/release/gammon", help="gammon binary (default %(default)s)")
    ap.add_argument("--gammon-json", help="use this `gammon review --json` output instead of running gammon")
    ap.add_argument("--self-check", action="store_true",
                    help="compare the reference with itself recast in gammon's schema (no gammon run)")
    ap.add_argument("--json-out", help="also write the comparison as JSON here")
    # everything after a lone `--` goes to gammon review (e.g. `-- --threads 2`)
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[: argv.index("--")] if "--" in argv else argv)

    try:
        ref = read_json(args.gnubg_json, "gnubg reference")
        timing = {}
        t = ref.get("timing") or {}
        if t:
            timing["gnubg_wall_s"] = t.get("wall_s")
            timing["gnubg_cpu_s"] = t.get("cpu_s")
            timing["gnubg_threads"] = t.get("threads")
        if args.self_check:
            ours = gammon_doc_from_gnubg(ref)
        elif args.gammon_json:
            ours = read_json(args.gammon_json, "gammon review JSON")
        else:
            ours, wall, cpu = run_gammon(args.gammon, args.match_file, extra)
            timing["gammon_wall_s"] = round(wall, 3)
            timing["gammon_cpu_s"] = round(cpu, 3)
            if timing.get("gnubg_wall_s"):
                timing["speedup_vs_gnubg_wall"] = round(timing["gnubg_wall_s"] / max(wall, 1e-9), 2)
        if not isinstance(ours, dict) or not isinstance(ours.get("games"), list):
            raise CompareError("gammon review JSON has no `games` list")
        res = compare(ours, ref)
    except CompareError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError) as e:
        print(f"error: unexpected JSON shape: {e!r}", file=sys.stderr)
        return 2
    res["timing"] = timing
    print(report_text(res, timing))
    if args.json_out:
        tmp = args.json_out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(res, f, indent=1)
        os.replace(tmp, args.json_out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
