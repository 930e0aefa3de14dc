"""The package's answers are the CLI's --json answers, its refusals the
CLI's messages; long calls stop on Ctrl-C with their partial answer; one
engine serves many threads."""

import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import pytest

import gammon
from conftest import GAMMON, SHARED, cli, cli_error, oracle, without_times


def test_version_and_docstrings():
    out = subprocess.run([str(GAMMON), "--version"], capture_output=True, text=True)
    assert out.stdout.split() == ["gammon", gammon.__version__]
    for call in (gammon.moves, gammon.position, gammon.Engine, gammon.Engine.analyse, gammon.Engine.cube,
                 gammon.Engine.rollout, gammon.Engine.review, gammon.Engine.evaluate):
        assert call.__doc__ and len(call.__doc__) > 40, call


@pytest.mark.parametrize("record", oracle("movegen_full.jsonl", every=150), ids=lambda r: r["pos"])
def test_moves_are_the_clis_and_the_oracles(record):
    dice = f"{record['dice'][0]}{record['dice'][1]}"
    answer = gammon.moves(record["pos"], dice)
    assert answer == cli("moves", record["pos"], dice)
    assert sorted(m["result"] for m in answer["moves"]) == record["moves"]


def test_position_in_every_form():
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:31:3:1:0:5:10"
    for text, dice in ((xgid, None), ("start", "52"), ("4HPwATDgc/ABMA:cAkAAAAAAAAA", None)):
        args = ("position", text) + (("--dice", dice) if dice else ())
        assert gammon.position(text, dice) == cli(*args)


@pytest.mark.parametrize("record", oracle("eval.jsonl", every=50), ids=lambda r: r["pos"])
def test_evaluate_is_the_clis(engine, record):
    assert engine.evaluate(record["pos"]) == cli("eval", record["pos"])


ROLLS = ["31", "64", "55", "21", "66", "43"]


@pytest.mark.parametrize("record", oracle("eval.jsonl", every=100), ids=lambda r: r["pos"])
def test_analyse_is_the_clis(engine, record):
    pos = record["pos"]
    dice = ROLLS[len(pos) % len(ROLLS)]
    for ply in (0, 1):
        ours = engine.analyse(pos, dice=dice, ply=ply)
        assert without_times(ours) == without_times(cli("analyse", pos, "--dice", dice, "--ply", str(ply)))
    ours = engine.analyse(pos, dice=dice, ply=0, cubeless=True)
    assert without_times(ours) == without_times(cli("analyse", pos, "--dice", dice, "--ply", "0", "--cubeless"))
    # Before the roll: the evaluation and the cube decision.
    assert without_times(engine.analyse(pos, ply=1)) == without_times(cli("analyse", pos, "--ply", "1"))


def test_analyse_at_two_plies_and_at_the_score(engine):
    pos = "4HPwATDgc/ABMA"
    assert without_times(engine.analyse(pos, dice="31")) == without_times(cli("analyse", pos, "--dice", "31"))
    ours = engine.analyse(pos, dice="64", ply=1, match=7, score=(2, 4), cube=2, owner="me")
    theirs = cli("analyse", pos, "--dice", "64", "--ply", "1", "--match", "7", "--score", "2-4", "--cube", "2",
                 "--owner", "me")
    assert without_times(ours) == without_times(theirs)
    assert ours["context"]["away"] == [5, 3]


@pytest.mark.parametrize("record", oracle("cube_money.jsonl", every=40) + oracle("cube_match.jsonl", every=50),
                         ids=lambda r: r["pos"])
def test_cube_is_the_clis(engine, record):
    pos = record["pos"] + (":" + record["match_id"] if "match_id" in record else "")
    for ply in (0, 2):
        try:
            ours = engine.cube(pos, ply=ply)
        except ValueError as e:
            assert str(e) == cli_error("cube", pos, "--ply", str(ply))
            continue
        assert without_times(ours) == without_times(cli("cube", pos, "--ply", str(ply)))


def test_cube_matrix_is_the_clis(engine):
    pos = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    ours = engine.cube(pos, ply=1, matrix=5)
    assert len(ours["matrix"]) == 16
    assert without_times(ours) == without_times(cli("cube", pos, "--ply", "1", "--matrix", "5"))


def test_rollouts_are_the_clis_at_any_thread_count(engine):
    ours = engine.rollout("start", games=72, truncate=5, threads=2)
    theirs = cli("rollout", "start", "--games", "72", "--truncate", "5", "--threads", "2")
    assert without_times(ours) == without_times(theirs)
    one = engine.rollout("start", games=72, truncate=5, threads=1)
    assert one["rollout"] == ours["rollout"]
    moves = engine.rollout("start", dice="31", games=36, truncate=3, moves=3, threads=1)
    assert without_times(moves) == without_times(
        cli("rollout", "start", "--dice", "31", "--games", "36", "--truncate", "3", "--moves", "3", "--threads", "1"))
    cube = engine.rollout("start", games=36, truncate=4, cube_decision=True, match=5, score="1-2", threads=1)
    assert without_times(cube) == without_times(
        cli("rollout", "start", "--games", "36", "--truncate", "4", "--cube-decision", "--match", "5", "--score",
            "1-2", "--threads", "1"))


REAL = SHARED / "matches" / "real"


def test_review_is_the_clis_from_a_file_and_from_text(engine):
    path = REAL / "gnubgscripts_test-match01_3p.mat"
    ours = engine.review(path, ply=0, cube_ply=0)
    theirs = cli("review", str(path), "--ply", "0", "--cube-ply", "0")
    assert without_times(ours) == without_times(theirs)
    assert without_times(engine.review(path.read_text(), ply=0, cube_ply=0)) == without_times(ours)
    # gnubg's stored analysis comes with an SGF file, by path or as text.
    sgf = REAL / "gnubgscripts_match1486073_analyzed.sgf"
    from_file = engine.review(str(sgf), ply=0, cube_ply=0)
    assert from_file["stored_program"].startswith("GNU Backgammon")
    assert without_times(engine.review(sgf.read_text(), ply=0, cube_ply=0)) == without_times(from_file)
    # Any file as bytes: an eXtreme Gammon file with XG's analysis.
    xg = SHARED / "matches" / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg"
    from_bytes = engine.review(xg.read_bytes(), ply=0, cube_ply=0)
    assert from_bytes["stored_program"] == "eXtreme Gammon"
    assert without_times(from_bytes) == without_times(cli("review", str(xg), "--ply", "0", "--cube-ply", "0"))
    assert without_times(engine.review(bytearray(xg.read_bytes()), ply=0, cube_ply=0)) == without_times(from_bytes)
    with pytest.raises(ValueError, match="not a match file"):
        engine.review(b"\x80\x80\x80")


def test_refusals_are_the_clis_messages(engine):
    cases = [
        (lambda: gammon.moves("nonsense", "31"), ("moves", "nonsense", "31")),
        (lambda: gammon.moves("start", "71"), ("moves", "start", "71")),
        (lambda: engine.analyse("start", dice="31", ply=4), None),
        (lambda: engine.cube("start", score=(2, 4)), ("cube", "start", "--score", "2-4")),
        (lambda: engine.cube("start", cube=3), ("cube", "start", "--cube", "3")),
        (lambda: engine.cube("start", match=7, score="7-2"), ("cube", "start", "--match", "7", "--score", "7-2")),
        (lambda: engine.analyse("start", dice="31", cubeless=True, match=5),
         ("analyse", "start", "--dice", "31", "--cubeless", "--match", "5")),
        (lambda: engine.rollout("start", games=0), ("rollout", "start", "--games", "0")),
        (lambda: engine.analyse("AAAAAAAA/38AAA", dice="31"), ("analyse", "AAAAAAAA/38AAA", "--dice", "31")),
    ]
    for call, args in cases:
        with pytest.raises(ValueError) as refused:
            call()
        if args is not None:
            assert str(refused.value) == cli_error(*args)
    with pytest.raises(ValueError, match="ply"):
        engine.analyse("start", dice="31", ply=4)


def test_numbers_out_of_range_are_value_errors_naming_their_keyword(engine, tmp_path):
    missing = tmp_path / "missing.mat"
    cases = [
        ("ply", lambda: engine.analyse("start", dice="31", ply=-1)),
        ("prune", lambda: engine.analyse("start", dice="31", ply=0, prune=-1)),
        ("cube", lambda: engine.analyse("start", dice="31", ply=0, cube=-2)),
        ("match", lambda: engine.cube("start", ply=0, match=-7)),
        ("matrix", lambda: engine.cube("start", ply=0, matrix=2**40)),
        ("games", lambda: engine.rollout("start", games=-5)),
        ("games", lambda: engine.rollout("start", games=2**64)),
        ("seed", lambda: engine.rollout("start", games=1, seed=-1)),
        ("truncate", lambda: engine.rollout("start", games=1, truncate=-1)),
        ("moves", lambda: engine.rollout("start", dice="31", games=1, moves=-1)),
        ("threads", lambda: engine.rollout("start", games=1, threads=0)),
        ("threads", lambda: gammon.Engine(threads=100_000)),
        # Checked before the file is read: the keyword, not the missing file.
        ("cube_ply", lambda: engine.review(missing, cube_ply=9)),
        ("threads", lambda: engine.review(missing, threads=0)),
    ]
    for keyword, call in cases:
        with pytest.raises(ValueError) as refused:
            call()
        assert str(refused.value).startswith(f"{keyword}: "), (keyword, str(refused.value))
    # The whole range of the CLI's --seed is taken.
    top = engine.rollout("start", games=2, truncate=1, seed=2**64 - 1, threads=1)
    theirs = cli("rollout", "start", "--games", "2", "--truncate", "1", "--seed", str(2**64 - 1), "--threads", "1")
    assert without_times(top) == without_times(theirs)


def test_choices_that_contradict_each_other_are_refused(engine):
    pos = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    # The matrix sets the match, the score and the Crawford game; `crawford=False` says nothing it does not.
    ours = engine.cube(pos, ply=0, matrix=3, crawford=False)
    assert without_times(ours) == without_times(cli("cube", pos, "--ply", "0", "--matrix", "3", "--no-crawford"))
    cases = [
        (lambda: engine.cube(pos, ply=0, matrix=3, crawford=True), ("cube", pos, "--matrix", "3", "--crawford")),
        (lambda: engine.cube(pos, ply=0, matrix=3, match=5), ("cube", pos, "--matrix", "3", "--match", "5")),
        (lambda: engine.cube(pos, ply=0, matrix=3, score=(1, 2)), ("cube", pos, "--matrix", "3", "--score", "1-2")),
        (lambda: engine.rollout("start", games=1, cubeful=True, cubeless=True),
         ("rollout", "start", "--games", "1", "--cubeful", "--cubeless")),
        (lambda: engine.rollout("start", dice="31", games=1, cube_decision=True),
         ("rollout", "start", "--dice", "31", "--games", "1", "--cube-decision")),
    ]
    for call, args in cases:
        with pytest.raises(ValueError) as refused:
            call()
        assert str(refused.value) == cli_error(*args)


def test_the_defaults_are_the_clis(engine):
    # The default games (1,296), seed, dice and luck adjustment.
    assert without_times(engine.rollout("start", truncate=2)) == without_times(cli("rollout", "start", "--truncate",
                                                                                   "2"))
    # The default depths of a review, and of a cube decision.
    path = REAL / "fibs_NIUSHA-nori_1p.mat"
    assert without_times(engine.review(path)) == without_times(cli("review", str(path)))
    pos = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert without_times(engine.cube(pos)) == without_times(cli("cube", pos))


def test_the_engine_says_what_it_is(engine):
    assert repr(engine) == f"<gammon.Engine net={engine.name!r} met={engine.met!r}>"


def test_missing_files_are_file_not_found(engine, tmp_path):
    missing = tmp_path / "missing"
    with pytest.raises(FileNotFoundError) as refused:
        gammon.Engine(weights=missing)
    assert str(refused.value) == cli_error("eval", "start", "--weights", str(missing))
    with pytest.raises(FileNotFoundError):
        gammon.Engine(met=str(missing))
    with pytest.raises(FileNotFoundError) as refused:
        engine.review(missing)
    assert str(refused.value) == cli_error("review", str(missing))
    # A file that is there but is not weights is a ValueError.
    bad = tmp_path / "bad.gnn"
    bad.write_bytes(b"not weights")
    with pytest.raises(ValueError) as refused:
        gammon.Engine(weights=bad)
    assert str(refused.value) == cli_error("eval", "start", "--weights", str(bad))


@pytest.fixture
def interrupt_after():
    """Ctrl-C to this process in `seconds`, as a user would press it; not
    sent once the test is over (it would land in the next one). Python's own
    Ctrl-C handler is installed for the test: a process started with SIGINT
    ignored (a background job of a shell without job control) would
    otherwise never see it, and the interrupted call would run on."""
    timers = []
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)

    def start(seconds):
        timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
        timers.append(timer)
        timer.start()

    yield start
    for timer in timers:
        timer.cancel()
    signal.signal(signal.SIGINT, previous)


def test_an_interrupted_rollout_raises_with_the_games_finished(engine, interrupt_after):
    interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt) as stopped:
        engine.rollout("start", games=10_000_000, truncate=6, threads=2)
    partial = stopped.value.partial
    assert partial["partial"] is True
    done = partial["games_done"]
    assert 1 <= done < 10_000_000
    # The games finished are games 0..K: exactly the rollout of K games.
    whole = engine.rollout("start", games=done, truncate=6, threads=1)
    assert whole["rollout"] == partial["rollout"]
    assert partial["settings"] == {**whole["settings"], "games": 10_000_000, "threads": 2}


def test_an_interrupted_review_raises_with_the_records_reviewed(engine, interrupt_after):
    interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt) as stopped:
        engine.review(REAL / "bglib_bgnori-Scapegoat_15p.mat", ply=2, threads=1)
    partial = stopped.value.partial
    assert partial is None or partial["records_reviewed"] < partial["records"]


def test_an_interrupted_search_raises_with_no_answer(engine, interrupt_after):
    interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt) as stopped:
        engine.cube("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", ply=3, matrix=15)
    assert stopped.value.partial is None


def test_two_threads_share_an_engine(engine):
    positions = [r["pos"] for r in oracle("eval.jsonl", every=120)]
    alone = {p: engine.analyse(p, dice="31", ply=1)["moves"] for p in positions}
    answers = {}

    def work(chunk):
        for p in chunk:
            answers[p] = engine.analyse(p, dice="31", ply=1)["moves"]

    threads = [threading.Thread(target=work, args=(positions[i::2],)) for i in range(2)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert time.perf_counter() - started < 600
    assert answers == alone


EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))


def test_the_folder_example_gives_the_reviews_own_figures(engine, tmp_path):
    from review_folder import review_folder

    for name in ("fibs_NIUSHA-nori_1p.mat", "galaxy_match9821599_1p.txt"):
        (tmp_path / name).write_bytes((REAL / name).read_bytes())
    (tmp_path / "notes.txt").write_text("not a match\n")
    players = review_folder(engine, tmp_path, ply=0)
    # One file alone: the table's PR is the review's own.
    single = engine.review(REAL / "fibs_NIUSHA-nori_1p.mat", ply=0, cube_ply=0)
    for summary in single["summary"]:
        if players[summary["name"]].matches == 1:
            assert abs(players[summary["name"]].pr - summary["pr"]) < 1e-9


def test_the_yardstick_example_agrees_with_gammon_benchmark(engine, tmp_path):
    from yardstick import score

    part = tmp_path / "pr200.tsv"
    with open(SHARED / "yardstick" / "pr.tsv") as f:
        part.write_text("".join(next(f) for _ in range(200)))
    n, mean_abs, bias = score(engine, part)
    bench = cli("benchmark", str(part))["files"][0]
    assert n == bench["positions"] == 200
    assert abs(mean_abs - bench["equity"]["mean_abs_error"]) < 1e-6
    assert abs(bias - bench["equity"]["bias"]) < 1e-6
