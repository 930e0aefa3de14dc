#!/usr/bin/env python3
"""Reference analyses by GNU Backgammon 1.07 for scripts/compare_gnubg_review.py.

Generates matches of gnubg playing itself with noise (so that errors happen), exports
each as a .mat file, has gnubg analyse it with its default analysis (2-ply chequer play
and cube, `analyse clear match`, `analyse match`, one thread) and dumps the analysis as
JSON in the layout compare_gnubg_review.py reads: `players` (gnubg's player 0 first, the
left column of the .mat), `match_length`, `games` (each with `number`, `score`,
`crawford`, `winner`, `points` and `records` in file order: `player`, `action`,
`position_id`, `dice`, `move`, `forced`, `best`, `equity_played`, `equity_best`, `loss`,
`loss_mwc`, `mark`, `luck`, and `cube` = `nd`, `dt`, `dp`, `proper`, `error`, `close`,
`mark`), `summary` (per player, re-derived from the records), `gnubg_stats` (gnubg's
own statistics: rates in mEMG, `raw` as gnubg.match() gives them, `rating_code`) and
`timing` (wall and CPU seconds of `analyse match`).

Runs with python3 (standard library only); it starts `gnubg -t -q -p` on itself for each
match (one gnubg process per match) and the embedded Python does the work.

  scripts/gnubg_reference.py                      # the standard set into /tmp/gnubg-ref
  scripts/gnubg_reference.py --out DIR --only m7a,money
  scripts/gnubg_reference.py --analyse FILE.mat --json OUT.json   # an existing file
  scripts/gnubg_reference.py --list

Then, for each match:
  scripts/compare_gnubg_review.py /tmp/gnubg-ref/m7a.mat --gnubg-json /tmp/gnubg-ref/m7a.json \
      --gammon target/release/gammon
"""

import json
import os
import re
import subprocess
import sys
import time

ENV_JOB = "GNUBG_REFERENCE_JOB"
NAMES = ("Alice", "Bob")

# name, match length (0 = money session), games (money only), dice seed,
# chequer-play noise of player 0 and 1, cube noise of player 0 and 1.
# Both players are gnubg at 0 ply (fast); the noise is gnubg's deterministic noise.
MATCHES = [
    ("m7a", 7, 0, 1001, 0.03, 0.06, 0.03, 0.06),
    ("m7b", 7, 0, 1002, 0.05, 0.05, 0.05, 0.05),
    ("m7c", 7, 0, 1003, 0.00, 0.08, 0.00, 0.08),
    ("m7d", 7, 0, 1004, 0.08, 0.02, 0.08, 0.02),
    ("m7e", 7, 0, 1007, 0.02, 0.04, 0.02, 0.04),
    ("m5", 5, 0, 1005, 0.04, 0.04, 0.04, 0.04),
    ("money", 0, 8, 1006, 0.05, 0.03, 0.05, 0.03),
]

CUBE_STRINGS = {
    "DOUBLE_TAKE": "Double, take", "DOUBLE_PASS": "Double, pass",
    "NODOUBLE_TAKE": "No double, take", "TOOGOOD_TAKE": "Too good to double, take",
    "TOOGOOD_PASS": "Too good to double, pass", "DOUBLE_BEAVER": "Double, beaver",
    "NODOUBLE_BEAVER": "No double, beaver", "REDOUBLE_TAKE": "Redouble, take",
    "REDOUBLE_PASS": "Redouble, pass", "NO_REDOUBLE_TAKE": "No redouble, take",
    "TOOGOODRE_TAKE": "Too good to redouble, take", "TOOGOODRE_PASS": "Too good to redouble, pass",
    "NO_REDOUBLE_BEAVER": "No redouble, beaver", "OPTIONAL_DOUBLE_BEAVER": "Optional double, beaver",
    "OPTIONAL_DOUBLE_TAKE": "Optional double, take", "OPTIONAL_REDOUBLE_TAKE": "Optional redouble, take",
    "OPTIONAL_DOUBLE_PASS": "Optional double, pass", "OPTIONAL_REDOUBLE_PASS": "Optional redouble, pass",
}
VERY_BAD, BAD, DOUBTFUL = 0.12, 0.06, 0.03
CLOSE = 0.16


# ====================================================================== outside gnubg


def gnubg_binary():
    for p in ("/usr/games/gnubg", "/usr/bin/gnubg"):
        if os.path.exists(p):
            return p
    return "gnubg"


def run_job(job, log_path):
    """One gnubg process running this file with `job` (a dict) in the environment."""
    env = dict(os.environ, **{ENV_JOB: json.dumps(job)})
    with open(log_path, "w") as log:
        proc = subprocess.run([gnubg_binary(), "-t", "-q", "-p", os.path.abspath(__file__)],
                              stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env)
    out = job["json"]
    if proc.returncode != 0 or not os.path.exists(out):
        sys.exit(f"error: gnubg failed on {job.get('mat')} (exit {proc.returncode}); see {log_path}")
    with open(out) as f:
        doc = json.load(f)
    return doc


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="/tmp/gnubg-ref", help="folder for the .mat and .json files (%(default)s)")
    ap.add_argument("--only", help="comma-separated names of the standard set (see --list)")
    ap.add_argument("--list", action="store_true", help="list the standard set and exit")
    ap.add_argument("--analyse", metavar="FILE", help="only analyse this match file (no generation)")
    ap.add_argument("--json", help="with --analyse: where to write the JSON (default FILE with .json)")
    ap.add_argument("--threads", type=int, default=1, help="gnubg's calculation threads (default 1)")
    args = ap.parse_args(argv)

    if args.list:
        for m in MATCHES:
            print("%-6s %s seed %d noise %.2f/%.2f cube noise %.2f/%.2f" % (
                m[0], f"{m[1]}-point match" if m[1] else f"money session of {m[2]} games", *m[3:]))
        return 0
    if args.analyse:
        mat = os.path.abspath(args.analyse)
        out = os.path.abspath(args.json or os.path.splitext(mat)[0] + ".json")
        job = {"mode": "analyse", "mat": mat, "json": out, "threads": args.threads, "match_length": None}
        t = time.monotonic()
        doc = run_job(job, out + ".log")
        print(f"{mat}: gnubg analyse match {doc['timing']['wall_s']:.1f} s wall, "
              f"{doc['timing']['cpu_s']:.1f} s CPU ({time.monotonic() - t:.1f} s with start-up) -> {out}")
        return 0

    os.makedirs(args.out, exist_ok=True)
    wanted = set(args.only.split(",")) if args.only else None
    for name, length, games, seed, n0, n1, c0, c1 in MATCHES:
        if wanted and name not in wanted:
            continue
        mat = os.path.join(os.path.abspath(args.out), name + ".mat")
        job = {"mode": "generate", "mat": mat, "json": mat[:-4] + ".json", "match_length": length,
               "games": games, "seed": seed, "noise": [n0, n1], "cube_noise": [c0, c1],
               "threads": args.threads}
        doc = run_job(job, mat[:-4] + ".log")
        moves = sum(1 for g in doc["games"] for r in g["records"] if r["action"] == "move")
        print(f"{name}: {len(doc['games'])} games, {moves} rolls; gnubg analyse match "
              f"{doc['timing']['wall_s']:.1f} s wall -> {mat}, {job['json']}", flush=True)
    return 0


# ====================================================================== inside gnubg


def move_text(move, board):
    if not move:
        return ""
    try:
        return gnubg.movetupletostring(tuple(tuple(x) for x in move), board)  # noqa: F821
    except Exception:  # noqa: BLE001 (a move gnubg cannot print: fall back to from/to pairs)
        return " ".join(f"{'bar' if a == 25 else a}/{'off' if b <= 0 else b}" for a, b in move)


def mark_of(loss):
    if loss is None:
        return None
    if loss > VERY_BAD:
        return "very bad"
    if loss > BAD:
        return "bad"
    if loss > DOUBTFUL:
        return "doubtful"
    return None


def best_cube_decision(nd, dt, dp, win_gammon, ci):
    """gnubg's FindBestCubeDecision (eval.c) for an available cube; (verdict, optimal)."""
    owner_c = ci["cubeowner"] == -1
    money = not ci["matchto"]

    def optional(a, b):
        return abs(a - b) <= 1.0e-5

    if dt >= nd and dp >= nd:
        if dp > dt:
            f = optional(dt, nd)
            if money and -2.0 <= dt <= 0.0 and ci.get("beavers"):
                if dt * 2.0 < nd:
                    return "NODOUBLE_BEAVER", dt
                return ("OPTIONAL_DOUBLE_BEAVER" if f else "DOUBLE_BEAVER"), dt
            if f:
                return ("OPTIONAL_DOUBLE_TAKE" if owner_c else "OPTIONAL_REDOUBLE_TAKE"), dt
            return ("DOUBLE_TAKE" if owner_c else "REDOUBLE_TAKE"), dt
        if optional(nd, dp) and win_gammon and (not money or not owner_c or not ci.get("jacoby")):
            return ("OPTIONAL_DOUBLE_PASS" if owner_c else "OPTIONAL_REDOUBLE_PASS"), dp
        return ("DOUBLE_PASS" if owner_c else "REDOUBLE_PASS"), dp
    if nd > dt:
        if dt > dp:
            if win_gammon:
                return ("TOOGOOD_PASS" if owner_c else "TOOGOODRE_PASS"), nd
            return ("DOUBLE_PASS" if owner_c else "REDOUBLE_PASS"), nd
        if nd > dp:
            if win_gammon:
                return ("TOOGOOD_TAKE" if owner_c else "TOOGOODRE_TAKE"), nd
            return ("NODOUBLE_TAKE" if owner_c else "NO_REDOUBLE_TAKE"), nd
        if money and -2.0 <= dt <= 0.0 and ci.get("beavers"):
            return ("NODOUBLE_BEAVER" if owner_c else "NO_REDOUBLE_BEAVER"), nd
        return ("NODOUBLE_TAKE" if owner_c else "NO_REDOUBLE_TAKE"), nd
    if win_gammon:
        return ("TOOGOOD_PASS" if owner_c else "TOOGOODRE_PASS"), nd
    return ("DOUBLE_PASS" if owner_c else "REDOUBLE_PASS"), nd


def cube_numbers(analysis, ci):
    """ND, DT, DP in normalised equity (gnubg's FindCubeDecision), the verdict and optimum."""
    nd, dt = analysis["nd-cubeful-eq"], analysis["dt-cubeful-eq"]
    if ci["matchto"]:
        nd, dt = gnubg.mwc2eq(nd, ci), gnubg.mwc2eq(dt, ci)  # noqa: F821
    dp = 1.0
    probs = analysis.get("probs") or (0, 0, 0, 0, 0)
    verdict, optimal = best_cube_decision(nd, dt, dp, probs[1] > 0.0, ci)
    return {"nd": nd, "dt": dt, "dp": dp, "proper": CUBE_STRINGS[verdict], "optimal": optimal,
            "nd_mwc": analysis["nd-cubeful-eq"] if ci["matchto"] else None,
            "dt_mwc": analysis["dt-cubeful-eq"] if ci["matchto"] else None}


def cube_record(nums, error, close, kind):
    c = {k: nums[k] for k in ("nd", "dt", "dp", "proper", "nd_mwc", "dt_mwc")}
    c.update({"error": max(0.0, error), "close": close, "mark": mark_of(max(0.0, error)), "kind": kind})
    return c


def convert(m, match_length):
    side = {"X": 0, "O": 1}
    players = [m["match-info"]["X"]["name"], m["match-info"]["O"]["name"]]
    length = m["match-info"].get("match-length", match_length) or 0
    games = []
    for gi, g in enumerate(m["games"]):
        info = g["info"]
        score = (info.get("score-X", 0), info.get("score-O", 0))
        crawford = bool(info.get("crawford", False))
        cube, owner = info.get("initial-cube", 1), -1
        recs = []
        last_double = None  # (cube numbers, cubeinfo) of the pending double
        for a in g["game"]:
            act = a.get("action")
            p = side.get(a.get("player"), None)
            an = a.get("analysis") or {}
            r = {"player": p, "action": act, "position_id": a.get("board"), "dice": None, "move": None,
                 "forced": None, "best": None, "equity_played": None, "equity_best": None, "loss": None,
                 "loss_mwc": None, "mark": None, "luck": None, "cube": None}

            def ci_for(mover):
                return gnubg.cubeinfo(cube, owner, mover, length, score, int(crawford), 0)  # noqa: F821

            if act == "move":
                dice = a.get("dice") or ()
                r["dice"] = "".join(str(d) for d in sorted(dice, reverse=True))
                board = gnubg.positionfromid(a["board"]) if a.get("board") else None  # noqa: F821
                r["move"] = move_text(a.get("move"), board)
                ci = ci_for(p)
                ml = an.get("moves") or []
                r["forced"] = len(ml) <= 1
                if ml:
                    i = an.get("imove", 0)
                    best, played = ml[0]["score"], ml[i]["score"]
                    r["best"] = move_text(ml[0]["move"], board)
                    r["equity_best"], r["equity_played"] = best, played
                    r["loss"] = max(0.0, best - played)
                    if length:
                        r["loss_mwc"] = gnubg.eq2mwc(best, ci) - gnubg.eq2mwc(played, ci)  # noqa: F821
                    r["mark"] = an.get("skill")
                    r["candidates"] = len(ml)
                else:
                    r["loss"] = 0.0
                r["luck"] = an.get("luck-value")
                if "nd-cubeful-eq" in an:
                    nums = cube_numbers(an, ci)
                    err = nums["optimal"] - nums["nd"]
                    kind = None
                    if err > 0:
                        above = nums["dt"] > 1.0
                        kind = "missed_double_%s_cash_point" % ("above" if above else "below")
                    r["cube"] = cube_record(nums, err, nums["optimal"] - min(nums["dt"], 1.0) < CLOSE, kind)
                    r["cube"]["choice"] = "no_double"
            elif act == "double":
                ci = ci_for(p)
                if "nd-cubeful-eq" in an:
                    nums = cube_numbers(an, ci)
                    err = nums["optimal"] - min(nums["dt"], nums["dp"])
                    kind = None
                    if err > 0:
                        tg = nums["nd"] > 1.0
                        kind = "wrong_double_above_too_good_point" if tg else "wrong_double_below_double_point"
                    r["cube"] = cube_record(nums, err, True, kind)
                    r["cube"]["choice"] = "double"
                    r["mark"] = an.get("skill")
                    last_double = nums
                else:
                    last_double = None
            elif act in ("take", "drop"):
                if last_double is not None:
                    nums = last_double
                    if act == "take":
                        err, kind = nums["dt"] - nums["dp"], "wrong_take"
                    else:
                        err, kind = nums["dp"] - nums["dt"], "wrong_pass"
                    r["cube"] = cube_record(nums, err, True, kind if err > 0 else None)
                    r["cube"]["choice"] = "take" if act == "take" else "pass"
                r["mark"] = an.get("skill") if an else None
                if act == "take":
                    cube, owner = cube * 2, p
                last_double = None
            elif act == "resign":
                r["points"] = a.get("points")
            recs.append(r)
        winner = info.get("winner")
        games.append({"number": gi + 1, "score": list(score), "crawford": crawford,
                      "winner": side.get(winner) if winner else None, "points": info.get("points-won"),
                      "resigned": bool(info.get("resigned")), "records": recs})
    return players, length, games


def derived_summary(games):
    """gnubg's per-player figures recomputed from the records (a check on the dump)."""
    out = []
    for p in (0, 1):
        unforced = total = close = 0
        cheq = cube_err = luck = 0.0
        marks = {"doubtful": 0, "bad": 0, "very bad": 0}
        both_rolls = 0
        for g in games:
            for r in g["records"]:
                if r["action"] == "move":
                    both_rolls += 1
                if r["player"] != p:
                    continue
                if r["action"] == "move":
                    total += 1
                    luck += r["luck"] or 0.0
                    if not r["forced"]:
                        unforced += 1
                        cheq += r["loss"] or 0.0
                        if r["mark"] in marks:
                            marks[r["mark"]] += 1
                c = r["cube"]
                if c is not None:
                    cube_err += c["error"]
                    close += bool(c["close"])
        rate = (lambda x, n: 1000.0 * x / n if n else None)
        overall = rate(cheq + cube_err, unforced + close)
        out.append({"chequer_error_rate": rate(cheq, unforced), "cube_error_rate": rate(cube_err, close),
                    "overall_error_rate": overall, "snowie_error_rate": rate(cheq + cube_err, both_rolls),
                    "pr": overall / 2 if overall is not None else None, "luck_rate": rate(luck, total),
                    "unforced_moves": unforced, "total_moves": total, "close_cube_decisions": close,
                    "chequer_error_total": cheq, "cube_error_total": cube_err, "marks": marks})
    return out


CUBE_ERR_KEYS = ("err-missed-double-below-cp-skill", "err-missed-double-above-cp-skill",
                 "err-wrong-double-below-dp-skill", "err-wrong-double-above-tg-skill",
                 "err-wrong-take-skill", "err-wrong-drop-skill")


def official_stats(m):
    stats = m.get("stats") or {}
    total_rolls = sum(((stats.get(s) or {}).get("moves") or {}).get("total-moves", 0) for s in ("X", "O"))
    out = []
    for s in ("X", "O"):
        st = stats.get(s) or {}
        mv, cb, dc = st.get("moves") or {}, st.get("cube") or {}, st.get("dice") or {}
        cheq = mv.get("error-skill", 0.0)
        cube = sum(cb.get(k, 0.0) for k in CUBE_ERR_KEYS)
        unforced, close, rolls = mv.get("unforced-moves", 0), cb.get("close-cube", 0), mv.get("total-moves", 0)
        rate = (lambda x, n: 1000.0 * x / n if n else None)
        overall = rate(cheq + cube, unforced + close)
        out.append({
            "chequer_error_rate": rate(cheq, unforced), "cube_error_rate": rate(cube, close),
            "overall_error_rate": overall, "snowie_error_rate": rate(cheq + cube, total_rolls),
            "luck_rate": rate(dc.get("luck", 0.0), rolls),
            "rating_code": gnubg.errorrating(overall / 1000.0) if overall is not None else None,  # noqa: F821
            "raw": st,
        })
    return out


def inside_gnubg(job):
    C = gnubg.command  # noqa: F821
    length = job.get("match_length")
    common = ["set confirm new off", "set display off", "set jacoby off", "set beavers 0",
              "set threads %d" % job.get("threads", 1)]
    for c in common:
        C(c)
    mat = job["mat"]
    gen = None
    if job["mode"] == "generate":
        n, cn = job["noise"], job["cube_noise"]
        cmds = ["set rng mersenne", "set seed %d" % job["seed"], "set cube use on", "set crawford on"]
        for p in (0, 1):
            cmds += ["set player %d gnubg" % p,
                     "set player %d chequerplay evaluation plies 0" % p,
                     "set player %d cubedecision evaluation plies 0" % p,
                     "set player %d chequerplay evaluation noise %.3f" % (p, n[p]),
                     "set player %d cubedecision evaluation noise %.3f" % (p, cn[p]),
                     "set player %d chequerplay evaluation deterministic on" % p,
                     "set player %d cubedecision evaluation deterministic on" % p]
        for c in cmds:
            C(c)
        if length:
            C("set automatic game on")
            C("new match %d" % length)
        else:
            C("set automatic game off")
            C("new session")
            for _ in range(job["games"] - 1):
                C("new game")
        raw = mat + ".raw"
        C("export match mat " + raw)
        # gnubg names its players gnubg and the user's login: give them plain names
        m0 = gnubg.match(0, 0, 0, 0)  # noqa: F821
        old = [m0["match-info"]["X"]["name"], m0["match-info"]["O"]["name"]]
        with open(raw) as f:
            text = f.read()
        pat = re.compile(r"^(\s*)%s(\s*:\s*\d+\s+)%s(\s*:\s*\d+\s*)$" % (re.escape(old[0]), re.escape(old[1])), re.M)
        text = pat.sub(lambda mo: mo.group(1) + NAMES[0] + mo.group(2) + NAMES[1] + mo.group(3), text)
        with open(mat, "w") as f:
            f.write(text)
        os.remove(raw)
        gen = {k: job[k] for k in ("seed", "noise", "cube_noise", "match_length", "games")}
        gen["players"] = "gnubg 0-ply with noise (deterministic), both sides"
    C("import mat " + mat)
    C("analyse clear match")
    t0, c0 = time.perf_counter(), time.process_time()
    C("analyse match")
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    m = gnubg.match(1, 1, 1, 0)  # noqa: F821
    players, length, games = convert(m, length)
    doc = {
        "source": "GNU Backgammon 1.07 analyse match (default settings: 2-ply chequer and cube)",
        "generated": gen, "match_file": os.path.basename(mat),
        "players": players, "match_length": length, "games": games,
        "summary": derived_summary(games), "gnubg_stats": official_stats(m),
        "timing": {"wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "threads": job.get("threads", 1)},
    }
    tmp = job["json"] + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, job["json"])


try:
    import gnubg  # only inside gnubg's embedded Python
except ImportError:
    gnubg = None

if ENV_JOB in os.environ and gnubg is not None:
    inside_gnubg(json.loads(os.environ[ENV_JOB]))
elif __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
