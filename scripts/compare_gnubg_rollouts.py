#!/usr/bin/env python3
"""Compare gammon's cube-decision and match-score rollouts with GNU Backgammon 1.07's.

Runs both programs on the same positions, back to back, and prints tables:

  1. cube-decision rollouts: gammon `rollout POS --cube-decision` against gnubg's
     cube rollout (`double`, `analyse move`, `analyse rollout cube`); no double
     (ND) and double/take (DT), normalised equity (money: per cube; match: EMG)
     and, in a match, match winning chances (MWC); each with its standard error,
     the difference in units of the combined standard error
     z = (gammon - gnubg) / sqrt(se_gammon^2 + se_gnubg^2), and whether the
     proper action drawn from the rollouts agrees.  Each tool's own 2-ply cube
     analysis is shown beside it (gammon `cube POS --json`; gnubg's 2-ply values
     from the oracle, /work/shared/oracle/cube_*.jsonl) to separate the method
     (rollout vs 2-ply) from the nets.
  2. match-position rollouts: gammon `rollout POS` (cubeful at the score) and
     `--cubeless` against gnubg's `rollout` of the same position with the match
     set up (cubeful MWC, and with `set rollout cubeful off` its cubeless MWC).

Run (Python 3 stdlib only):

    python3 scripts/compare_gnubg_rollouts.py                  # 1296 trials, seed 1
    python3 scripts/compare_gnubg_rollouts.py --games 2592 --part cube
    python3 scripts/compare_gnubg_rollouts.py --games 144 --only race_dt  # quick

Options: --gammon PATH (default /work/baseline/gammon-c08fa30 or $GAMMON),
--gnubg PATH (default /usr/games/gnubg), --threads N (gammon; gnubg gets
`set threads N`), --json FILE (raw numbers).

Settings.  gammon: `--games N --seed S`, its defaults otherwise (0-ply chequer
play, 0-ply Janowski cube decisions in the trials, variance reduction,
quasi-random first rolls, exact bearoff values).  gnubg 1.07 (tty mode,
commands on stdin):

    set player 0 human / set player 1 human / set confirm new off
    set threads N
    set rollout trials N / set rollout seed S
    set rollout cubeful on / set rollout varredn on / set rollout quasirandom on
    set rollout truncation enable off / set rollout later enable off
    set rollout players-are-same on / set rollout cube-equal-chequer on
    set rollout chequerplay plies 0 / set rollout cubedecision plies 0
    set rollout bearofftruncation exact on / ... onesided off
    set output mwc on
    new session / set matchid MATCHID / set board POSITIONID
    cube:  double / analyse move / analyse rollout cube
    match: rollout   (then `set rollout cubeful off` / rollout for cubeless)

gnubg's 0-ply is its 0-ply with pruning nets ("0-ply cubeful prune").  Quirks
found in gnubg 1.07's tty mode, worked around here: (a) a rollout started with
stdin and stdout not on a terminal hangs (both threads sleep forever), so gnubg
runs under a pseudo-terminal (`script -qec`); (b) `hint` with `set evaluation
cubedecision type rollout` crashes (segfault), hence the `double` /
`analyse rollout cube` route; (c) after that, `hint` shows the analysis from the
taker's side and, in a match, wrong "Cubeful equities" MWC and wrong CF values
in its details, so the numbers are read from the rollout's own final print
("Rollout done. Printing final results."), which is from the doubler's side.
In a match gnubg prints MWC (`set output mwc on`); its EMG is derived with the
MET map of gammon's output (both use Kazaross-XG2): EMG is linear in MWC with
DP = +1 and gammon's ND pair (EMG, MWC) fixing the line.
"""

import argparse
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

ORACLE = "/work/shared/oracle"

# label, position ID, match ID, oracle file (money/match), oracle setting (match)
CUBE_CASES = [
    ("race_dt", "2t0hBgDbdI4BAA", "MAEAAAAAAAAE", "money", None),
    ("bearoff_dp", "1wIAAO4AAAAAAA", "MAEAAAAAAAAE", "money", None),
    ("contact_dt", "p2swiAj9BwAAAQ", "MAEAAAAAAAAE", "money", None),
    ("contact_dp", "3ZsBAA2HdzcAAA", "MAEAAAAAAAAE", "money", None),
    ("contact_nd", "4HMzAAcbNwcDCA", "MAEAAAAAAAAE", "money", None),
    ("contact_nd_close", "tzYGgAxm3gOBAQ", "MAEAAAAAAAAE", "money", None),
    ("m5_0-0_onbar", "d2cYAGAPuw6AAQ", "MAGgAAAAAAAE", "match", "5pt_0-0"),
    ("m5_2a-4a_onbar", "d2cYAGAPuw6AAQ", "MAGgADAACAAE", "match", "5pt_2away-4away"),
    # the money contact D/T position at two match scores (also in part 2); match ID
    # taken from the oracle's setting
    ("m5_2a-4a_contact", "p2swiAj9BwAAAQ", None, "match", "5pt_2away-4away"),
    ("m5_postcr_3a-1a_contact", "p2swiAj9BwAAAQ", None, "match", "5pt_postcrawford_3away-1away"),
]

# label, position ID, match ID (5-point match settings of the oracle)
MATCH_CASES = [
    ("2a-4a_onbar", "d2cYAGAPuw6AAQ", "MAGgADAACAAE"),
    ("2a-4a_contact", "p2swiAj9BwAAAQ", None),
    ("crawford_1a-3a_contact", "p2swiAj9BwAAAQ", None),
    ("postcr_3a-1a_contact", "p2swiAj9BwAAAQ", None),
]


def oracle_lookup(kind, pos, setting):
    path = os.path.join(ORACLE, "cube_%s.jsonl" % kind)
    try:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r["pos"] != pos:
                    continue
                if kind == "money":
                    return r
                if r.get("setting") == setting:
                    return r
    except OSError:
        pass
    return None


def oracle_match_id(pos, setting):
    """Match ID of an oracle setting (any position with that setting)."""
    path = os.path.join(ORACLE, "cube_match.jsonl")
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("setting") == setting and (pos is None or r["pos"] == pos):
                return r["match_id"]
    return None


# ---------------------------------------------------------------- gammon

def run_gammon(gammon, args):
    t0 = time.time()
    out = subprocess.run([gammon] + args + ["--json"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out), time.time() - t0


# ---------------------------------------------------------------- gnubg

def gnubg_settings(games, seed, threads, cubeful=True):
    r = "set rollout "
    return [
        "set player 0 human", "set player 1 human", "set confirm new off",
        "set threads %d" % threads,
        r + "trials %d" % games, r + "seed %d" % seed,
        r + "cubeful %s" % ("on" if cubeful else "off"),
        r + "varredn on", r + "quasirandom on",
        r + "truncation enable off", r + "later enable off",
        r + "players-are-same on", r + "cube-equal-chequer on",
        r + "chequerplay plies 0", r + "cubedecision plies 0",
        r + "bearofftruncation exact on", r + "bearofftruncation onesided off",
        "set output mwc on",
    ]


def run_gnubg(gnubg, commands, timeout):
    """Runs gnubg -t -q on the commands under a pseudo-terminal (see docstring)."""
    with tempfile.NamedTemporaryFile("w", suffix=".gnubg", delete=False) as f:
        f.write("\n".join(commands) + "\n")
        name = f.name
    try:
        t0 = time.time()
        inner = "%s -t -q < %s" % (shlex.quote(gnubg), shlex.quote(name))
        p = subprocess.run(["script", "-qec", inner, "/dev/null"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        return p.stdout.decode("utf-8", "replace").replace("\r", ""), time.time() - t0
    finally:
        os.unlink(name)


NUM = r"([+-]?\s*[0-9.]+)(%?)"
LINE1 = re.compile(r"^\s*([0-9.]+) ([0-9.]+) ([0-9.]+) - ([0-9.]+) ([0-9.]+) ([0-9.]+) "
                   r"CL\s+" + NUM + r"(?:\s+CF\s+" + NUM + r")?")
LINE2 = re.compile(r"^\s*\[([0-9.]+) ([0-9.]+) ([0-9.]+) - ([0-9.]+) ([0-9.]+) ([0-9.]+) "
                   r"CL\s+" + NUM + r"(?:\s+CF\s+" + NUM + r")?\]")


def _num(s, pct):
    v = float(s.replace(" ", ""))
    return v / 100.0 if pct else v


def parse_final(text):
    """Blocks of gnubg's final rollout print: {name: {cl, cf, cl_se, cf_se, p}}."""
    i = text.rfind("Rollout done. Printing final results.")
    if i < 0:
        raise RuntimeError("gnubg: no finished rollout in its output:\n" + text[-3000:])
    lines = text[i:].splitlines()
    res = {}
    for k, line in enumerate(lines):
        s = line.strip()
        if s.endswith(":") and k + 2 < len(lines) and LINE1.match(lines[k + 1]):
            m1, m2 = LINE1.match(lines[k + 1]), LINE2.match(lines[k + 2])
            if not m2:
                continue
            key = "centred" if s.startswith("Centered") else ("owned" if "owns" in s else s[:-1])
            if key in res:
                continue
            res[key] = {
                "p": [float(m1.group(j)) for j in range(1, 7)],
                "cl": _num(m1.group(7), m1.group(8)),
                "cf": _num(m1.group(9), m1.group(10)) if m1.group(9) else None,
                "cl_se": _num(m2.group(7), m2.group(8)),
                "cf_se": _num(m2.group(9), m2.group(10)) if m2.group(9) else None,
            }
    return res


# ---------------------------------------------------------------- helpers

def zscore(a, sa, b, sb):
    c = math.hypot(sa, sb)
    return (a - b) / c if c > 0 else float("nan")


def action(nd, dt, dp):
    """(double?, take?) from cubeful values of the doubler (higher is better)."""
    take = dt <= dp
    double = min(dt, dp) > nd
    return ("D" if double else "ND") + "/" + ("T" if take else "P")


def fmt(x, w=7, d=3):
    return ("%+*.*f" % (w, d, x)) if x is not None else " " * (w - 1) + "-"


# ---------------------------------------------------------------- part 1

def cube_case(a, case):
    label, pos, mid, kind, setting = case
    if mid is None:
        mid = oracle_match_id(None, setting)
    gpos = "%s:%s" % (pos, mid)
    g, g_s = run_gammon(a.gammon, ["rollout", gpos, "--cube-decision", "--games", str(a.games),
                                   "--seed", str(a.seed), "--threads", str(a.threads)])
    g2, _ = run_gammon(a.gammon, ["cube", gpos])
    cmds = gnubg_settings(a.games, a.seed, a.threads) + [
        "new session", "set matchid " + mid, "set board " + pos,
        "double", "analyse move", "analyse rollout cube"]
    text, n_s = run_gnubg(a.gnubg, cmds, a.gnubg_timeout)
    blocks = parse_final(text)
    c, o = blocks["centred"], blocks["owned"]
    match = kind == "match"
    se = g["standard_errors"]
    r = {"label": label, "pos": pos, "match_id": mid, "match": match, "games": a.games,
         "gammon_seconds": g_s, "gnubg_seconds": n_s,
         "gammon": {"nd": g["no_double"], "dt": g["double_take"], "dp": g["double_pass"],
                    "nd_se": se["no_double"], "dt_se": se["double_take"],
                    "dt_nd": se["double_take_minus_no_double"]["mean"],
                    "dt_nd_se": se["double_take_minus_no_double"]["standard_error"],
                    "action_text": g["action"]},
         "gammon_2ply": {"nd": g2["no_double"], "dt": g2["double_take"], "action_text": g2["action"]}}
    if match:
        gm, gms = g["mwc"], se["mwc"]
        r["gammon"].update({"nd_mwc": gm["no_double"], "dt_mwc": gm["double_take"],
                            "dp_mwc": gm["double_pass"], "nd_mwc_se": gms["no_double"],
                            "dt_mwc_se": gms["double_take"]})
        r["gammon_2ply"].update({"nd_mwc": g2["mwc"]["no_double"], "dt_mwc": g2["mwc"]["double_take"]})
        # EMG linear in MWC: EMG = 1 + (MWC - DP_mwc) * k, k from gammon's ND pair
        k = (1.0 - g["no_double"]) / (gm["double_pass"] - gm["no_double"])
        to_emg = lambda m: 1.0 + (m - gm["double_pass"]) * k
        r["gnubg"] = {"nd_mwc": c["cf"], "dt_mwc": o["cf"], "dp_mwc": gm["double_pass"],
                      "nd_mwc_se": c["cf_se"], "dt_mwc_se": o["cf_se"],
                      "nd": to_emg(c["cf"]), "dt": to_emg(o["cf"]), "dp": 1.0,
                      "nd_se": c["cf_se"] * k, "dt_se": o["cf_se"] * k, "p_nd": c["p"]}
    else:
        r["gnubg"] = {"nd": c["cf"], "dt": o["cf"], "dp": 1.0,
                      "nd_se": c["cf_se"], "dt_se": o["cf_se"], "p_nd": c["p"]}
    orc = oracle_lookup(kind, pos, setting)
    if orc:
        if match:
            r["gnubg_2ply"] = {"nd": orc["cube2_emg"]["nd"], "dt": orc["cube2_emg"]["dt"],
                               "nd_mwc": orc["cube2_mwc"]["nd"], "dt_mwc": orc["cube2_mwc"]["dt"],
                               "action_text": orc["action"]}
        else:
            r["gnubg_2ply"] = {"nd": orc["cube2"]["nd"], "dt": orc["cube2"]["dt"],
                               "action_text": orc["cube2"]["action"]}
    for who in ("gammon", "gnubg"):
        x = r[who]
        x["action"] = action(x["nd"], x["dt"], x["dp"])
    r["z_nd"] = zscore(r["gammon"]["nd"], r["gammon"]["nd_se"], r["gnubg"]["nd"], r["gnubg"]["nd_se"])
    r["z_dt"] = zscore(r["gammon"]["dt"], r["gammon"]["dt_se"], r["gnubg"]["dt"], r["gnubg"]["dt_se"])
    if match:
        r["z_nd_mwc"] = zscore(r["gammon"]["nd_mwc"], r["gammon"]["nd_mwc_se"],
                               r["gnubg"]["nd_mwc"], r["gnubg"]["nd_mwc_se"])
        r["z_dt_mwc"] = zscore(r["gammon"]["dt_mwc"], r["gammon"]["dt_mwc_se"],
                               r["gnubg"]["dt_mwc"], r["gnubg"]["dt_mwc_se"])
    return r


def print_cube(rows, out):
    p = lambda *s: print(*s, file=out)
    p("\n== Cube-decision rollouts (normalised: money per cube, match EMG; doubler's view) ==")
    p("%-17s %-6s | %-15s %-15s | %-15s %-15s | %5s %5s | %-5s %-5s %s" % (
        "case", "tool", "ND (se)", "DT (se)", "", "", "zND", "zDT", "act", "act", "agree"))
    for r in rows:
        g, n = r["gammon"], r["gnubg"]
        p("%-17s gammon | %+.3f (%.3f)  %+.3f (%.3f)  | DT-ND %+.3f (%.3f)" % (
            r["label"], g["nd"], g["nd_se"], g["dt"], g["dt_se"], g["dt_nd"], g["dt_nd_se"]))
        p("%-17s gnubg  | %+.3f (%.3f)  %+.3f (%.3f)  | zND %+5.1f zDT %+5.1f | %s vs %s %s" % (
            "", n["nd"], n["nd_se"], n["dt"], n["dt_se"], r["z_nd"], r["z_dt"],
            g["action"], n["action"], "yes" if g["action"] == n["action"] else "NO"))
        if r["match"]:
            p("%-17s MWC    | gammon ND %.4f (%.4f) DT %.4f (%.4f) DP %.4f; gnubg ND %.4f (%.4f) DT %.4f (%.4f); zND %+.1f zDT %+.1f" % (
                "", g["nd_mwc"], g["nd_mwc_se"], g["dt_mwc"], g["dt_mwc_se"], g["dp_mwc"],
                n["nd_mwc"], n["nd_mwc_se"], n["dt_mwc"], n["dt_mwc_se"], r["z_nd_mwc"], r["z_dt_mwc"]))
        g2, n2 = r["gammon_2ply"], r.get("gnubg_2ply")
        line = "%-17s 2-ply  | gammon ND %+.3f DT %+.3f (%s)" % ("", g2["nd"], g2["dt"], g2["action_text"])
        if n2:
            line += "; gnubg ND %+.3f DT %+.3f (%s)" % (n2["nd"], n2["dt"], n2["action_text"])
            line += " | rollout-2ply: gammon ND %+.3f DT %+.3f, gnubg ND %+.3f DT %+.3f" % (
                g["nd"] - g2["nd"], g["dt"] - g2["dt"], n["nd"] - n2["nd"], n["dt"] - n2["dt"])
        p(line)
        p("%-17s time   | gammon %.1f s (%.0f games/s per line pair), gnubg %.1f s (%.0f games/s)" % (
            "", r["gammon_seconds"], r["games"] / r["gammon_seconds"], r["gnubg_seconds"],
            r["games"] / r["gnubg_seconds"]))
    zs = [abs(r[k]) for r in rows for k in ("z_nd", "z_dt")]
    within = sum(1 for z in zs if z <= 2)
    p("\nwithin 2 combined SE: %d of %d (ND and DT, normalised); actions agree: %d of %d" % (
        within, len(zs), sum(1 for r in rows if r["gammon"]["action"] == r["gnubg"]["action"]), len(rows)))
    if rows:
        p("mean gammon-gnubg: ND %+.4f, DT %+.4f" % (
            sum(r["gammon"]["nd"] - r["gnubg"]["nd"] for r in rows) / len(rows),
            sum(r["gammon"]["dt"] - r["gnubg"]["dt"] for r in rows) / len(rows)))


# ---------------------------------------------------------------- part 2

def match_case(a, case):
    label, pos, mid = case
    gpos = "%s:%s" % (pos, mid)
    base = ["rollout", gpos, "--games", str(a.games), "--seed", str(a.seed), "--threads", str(a.threads)]
    g, g_s = run_gammon(a.gammon, base)
    gl, gl_s = run_gammon(a.gammon, base + ["--cubeless"])
    common = ["new session", "set matchid " + mid, "set board " + pos]
    text, n_s = run_gnubg(a.gnubg, gnubg_settings(a.games, a.seed, a.threads) + common + ["rollout"],
                          a.gnubg_timeout)
    cf = parse_final(text)["Current Position"]
    text2, n2_s = run_gnubg(a.gnubg, gnubg_settings(a.games, a.seed, a.threads, cubeful=False)
                            + common + ["rollout"], a.gnubg_timeout)
    cl = parse_final(text2)["Current Position"]
    gr, glr = g["rollout"], gl["rollout"]
    r = {"label": label, "pos": pos, "match_id": mid, "games": a.games,
         "settings": g["settings"].get("match"),
         "gammon": {"cf": gr["mwc"]["mean"], "cf_se": gr["mwc"]["standard_error"],
                    "emg": gr["emg"]["mean"], "cl": glr["mwc"]["mean"], "cl_se": glr["mwc"]["standard_error"],
                    "win": gr["win"]["mean"], "win_cl": glr["win"]["mean"]},
         "gnubg": {"cf": cf["cf"], "cf_se": cf["cf_se"], "cl": cl["cl"], "cl_se": cl["cl_se"],
                   "win": cf["p"][0], "win_cl": cl["p"][0]},
         "seconds": {"gammon_cf": g_s, "gammon_cl": gl_s, "gnubg_cf": n_s, "gnubg_cl": n2_s}}
    r["z_cf"] = zscore(r["gammon"]["cf"], r["gammon"]["cf_se"], r["gnubg"]["cf"], r["gnubg"]["cf_se"])
    r["z_cl"] = zscore(r["gammon"]["cl"], r["gammon"]["cl_se"], r["gnubg"]["cl"], r["gnubg"]["cl_se"])
    return r


def print_match(rows, out):
    p = lambda *s: print(*s, file=out)
    p("\n== Match-position rollouts (MWC of the player on roll) ==")
    p("%-22s %-12s | %-16s %-16s %5s | %-16s %-16s %5s | %s" % (
        "case", "away/cube", "gammon CF (se)", "gnubg CF (se)", "z", "gammon CL (se)", "gnubg CL (se)", "z",
        "seconds gammon cf/cl, gnubg cf/cl"))
    for r in rows:
        s = r["settings"] or {}
        ctx = "%s%s" % ("-".join(str(x) for x in (s.get("away") or [])),
                        " Cr" if s.get("crawford") else (" PC" if s.get("post_crawford") else ""))
        g, n, t = r["gammon"], r["gnubg"], r["seconds"]
        p("%-22s %-12s | %.4f (%.4f)  %.4f (%.4f)  %+5.1f | %.4f (%.4f)  %.4f (%.4f)  %+5.1f | %.1f/%.1f, %.1f/%.1f" % (
            r["label"], ctx, g["cf"], g["cf_se"], n["cf"], n["cf_se"], r["z_cf"],
            g["cl"], g["cl_se"], n["cl"], n["cl_se"], r["z_cl"],
            t["gammon_cf"], t["gammon_cl"], t["gnubg_cf"], t["gnubg_cl"]))
        p("%-22s %-12s | win: gammon cubeful %.4f cubeless %.4f; gnubg cubeful %.4f cubeless %.4f" % (
            "", "", g["win"], g["win_cl"], n["win"], n["win_cl"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gammon", default=os.environ.get("GAMMON", "/work/baseline/gammon-c08fa30"))
    ap.add_argument("--gnubg", default="/usr/games/gnubg")
    ap.add_argument("--games", type=int, default=1296)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--part", choices=["cube", "match", "both"], default="both")
    ap.add_argument("--only", action="append", help="case label(s) to run")
    ap.add_argument("--gnubg-timeout", type=float, default=1800)
    ap.add_argument("--json", help="write the raw numbers here")
    a = ap.parse_args()

    match_cases = []
    settings = {"2a-4a": "5pt_2away-4away", "crawford_1a-3a": "5pt_crawford_1away-3away",
                "postcr_3a-1a": "5pt_postcrawford_3away-1away"}
    for label, pos, mid in MATCH_CASES:
        if mid is None:
            key = "_".join(label.split("_")[:-1])
            mid = oracle_match_id(None, settings[key])
        match_cases.append((label, pos, mid))

    sel = lambda lab: not a.only or lab in a.only
    out = {"games": a.games, "seed": a.seed, "cube": [], "match": []}
    if a.part in ("cube", "both"):
        for case in CUBE_CASES:
            if sel(case[0]):
                out["cube"].append(cube_case(a, case))
                print("done %s" % case[0], file=sys.stderr, flush=True)
        print_cube(out["cube"], sys.stdout)
    if a.part in ("match", "both"):
        for case in match_cases:
            if sel(case[0]):
                out["match"].append(match_case(a, case))
                print("done %s" % case[0], file=sys.stderr, flush=True)
        print_match(out["match"], sys.stdout)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
