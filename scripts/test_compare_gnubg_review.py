#!/usr/bin/env python3
"""Tests of compare_gnubg_review.py (standard library only):
python3 scripts/test_compare_gnubg_review.py"""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_gnubg_review as cmp  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare_gnubg_review.py")


def move(player, loss, forced=False, mark=None, luck=0.0, pos="P"):
    return {"player": player, "action": "move", "loss": loss, "forced": forced, "mark": mark,
            "luck": luck, "position_id": pos}


def reference():
    """A tiny reference in the layout scripts/gnubg_reference.py writes."""
    recs = [
        move(0, 0.0, pos="A"),
        move(1, 0.20, mark="very bad", pos="B"),
        dict(move(0, 0.05, mark="doubtful", pos="C"),
             cube={"nd": 0.5, "dt": 0.6, "dp": 1.0, "proper": "double, take", "error": 0.1, "close": True}),
        move(1, 0.0, forced=True, pos="D"),
        {"player": 0, "action": "double", "position_id": "E",
         "cube": {"nd": 0.7, "dt": 0.8, "dp": 1.0, "proper": "double, take", "error": 0.0, "close": True}},
        {"player": 1, "action": "take", "position_id": "E"},
        move(0, 0.13, mark="very bad", pos="F"),
    ]
    summary = [{"chequer_error_rate": 60.0, "overall_error_rate": 50.0, "unforced_moves": 3},
               {"chequer_error_rate": 200.0, "overall_error_rate": 200.0, "unforced_moves": 1}]
    return {"players": ["Alice", "Bob"], "match_length": 7,
            "games": [{"number": 1, "records": recs}], "summary": summary, "gnubg_stats": [{}, {}]}


class MoveNumbers(unittest.TestCase):
    def test_double_and_take_take_a_slot_each_as_in_a_mat_file(self):
        recs = reference()["games"][0]["records"]
        numbers = [n for n, _i, _r in cmp.with_move_numbers(recs)]
        # 1) A B   2) C D   3) double take   4) F
        self.assertEqual(numbers, [1, 1, 2, 2, 3, 3, 4])

    def test_player_one_starting_leaves_the_left_slot_empty(self):
        recs = [move(1, 0.0), move(0, 0.0), move(1, 0.0)]
        self.assertEqual([n for n, _i, _r in cmp.with_move_numbers(recs)], [1, 2, 2])


    def test_the_take_of_a_beaver_has_no_line_of_its_own(self):
        # .mat: "4) 42: 6/2 24/22  Doubles => 2 / 5) Beavers => 4  44: 11/7 ..."
        recs = [move(0, 0.0), {"player": 1, "action": "double"}, {"player": 0, "action": "beaver"},
                {"player": 1, "action": "take"}, move(1, 0.0)]
        self.assertEqual([n for n, _i, _r in cmp.with_move_numbers(recs)], [1, 1, 2, None, 2])


class Normalising(unittest.TestCase):
    def test_proper_actions_in_several_spellings(self):
        for s, want in [("Double, take", "double take"), ("double_pass", "double pass"),
                        ("No double", "no double"), ("Too good to double, pass", "too good"),
                        ("no_redouble", "no double"), ("redouble/take", "double take")]:
            self.assertEqual(cmp.norm_proper(s), want, s)

    def test_marks_in_several_spellings(self):
        self.assertEqual(cmp.norm_mark("very_bad"), "very bad")
        self.assertEqual(cmp.norm_mark("??"), "very bad")
        self.assertIsNone(cmp.norm_mark("none"))


class Compare(unittest.TestCase):
    def test_self_check_agrees_fully(self):
        ref = reference()
        res = cmp.compare(cmp.gammon_doc_from_gnubg(ref), ref)
        self.assertEqual(res["moves"]["matched"], 5)
        self.assertEqual(res["moves"]["loss_mad"], 0.0)
        self.assertEqual(res["moves"]["very_bad_recall"], 1.0)
        self.assertEqual(res["cube"]["decisions_both"], 2)
        self.assertEqual(res["cube"]["proper_agreement"], 1.0)

    def test_differences_show_in_every_figure(self):
        ref = reference()
        ours = cmp.gammon_doc_from_gnubg(ref)
        recs = ours["games"][0]["records"]
        recs[1]["loss"] = 0.10          # gnubg's very bad move, not very bad for us
        recs[0]["loss"] = 0.30          # a very bad move gnubg does not see
        recs[2]["cube"]["proper"] = "no_double"
        res = cmp.compare(ours, ref)
        m = res["moves"]
        self.assertAlmostEqual(m["loss_mad"], (0.30 + 0.10) / 5)
        self.assertEqual((m["very_bad_gnubg"], m["very_bad_ours"], m["very_bad_both"]), (2, 2, 1))
        self.assertEqual((m["very_bad_recall"], m["very_bad_precision"]), (0.5, 0.5))
        self.assertEqual(res["cube"]["proper_agreement"], 0.5)
        self.assertEqual(res["cube"]["double_or_not_agreement"], 0.5)

    def test_players_are_matched_by_name(self):
        ref = reference()
        ours = cmp.gammon_doc_from_gnubg(ref)
        ours["players"] = ["Bob", "Alice"]
        for r in ours["games"][0]["records"]:
            r["player"] = 1 - r["player"]
        ours["summary"].reverse()
        res = cmp.compare(ours, ref)
        self.assertEqual(res["moves"]["matched"], 5)
        self.assertEqual(res["moves"]["loss_mad"], 0.0)
        self.assertEqual(res["players"][1]["ours"]["chequer_error_rate"], 200.0)


class CommandLine(unittest.TestCase):
    def test_a_missing_reference_is_a_clear_error(self):
        p = subprocess.run([sys.executable, SCRIPT, "m.mat", "--gnubg-json", "/nonexistent/ref.json",
                            "--self-check"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("error: gnubg reference /nonexistent/ref.json", p.stderr)

    def test_a_failing_gammon_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as d:
            ref = os.path.join(d, "ref.json")
            with open(ref, "w") as f:
                json.dump(reference(), f)
            p = subprocess.run([sys.executable, SCRIPT, "m.mat", "--gnubg-json", ref, "--gammon", "false"],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertIn("exited with 1", p.stderr)

    def test_gammon_output_is_read_from_a_file(self):
        with tempfile.TemporaryDirectory() as d:
            ref, ours = os.path.join(d, "ref.json"), os.path.join(d, "ours.json")
            with open(ref, "w") as f:
                json.dump(reference(), f)
            with open(ours, "w") as f:
                json.dump(cmp.gammon_doc_from_gnubg(copy.deepcopy(reference())), f)
            out = os.path.join(d, "cmp.json")
            p = subprocess.run([sys.executable, SCRIPT, "m.mat", "--gnubg-json", ref, "--gammon-json", ours,
                                "--json-out", out], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(out) as f:
                self.assertEqual(json.load(f)["cube"]["proper_agreement"], 1.0)


if __name__ == "__main__":
    unittest.main()
