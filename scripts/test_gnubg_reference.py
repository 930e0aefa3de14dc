#!/usr/bin/env python3
"""Tests of gnubg_reference.py's conversion (standard library only, no gnubg needed):
python3 scripts/test_gnubg_reference.py"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_gnubg_review as cmp  # noqa: E402
import gnubg_reference as ref  # noqa: E402


class FakeGnubg:
    """The few calls convert() makes, for money play (no MWC conversion)."""

    @staticmethod
    def cubeinfo(cube, owner, move, length, score, crawford, bgv):
        return {"cube": cube, "cubeowner": owner, "move": move, "matchto": length, "score": score,
                "crawford": crawford, "jacoby": 0, "beavers": 0}

    @staticmethod
    def positionfromid(_id):
        return None

    @staticmethod
    def movetupletostring(_move, _board):
        raise ValueError("no board")


def cand(move, score):
    return {"type": "eval", "move": move, "probs": (0.5, 0.1, 0.0, 0.1, 0.0), "score": score}


def money_match():
    """Alice (X) plays a bad move, Bob (O) misses a double, Alice doubles, Bob passes."""
    game = [
        {"action": "move", "player": "X", "dice": (3, 1), "move": ((8, 5), (6, 5)), "board": "A",
         "analysis": {"moves": [cand(((8, 5), (6, 5)), 0.1)], "imove": 0, "luck-value": 0.2}},
        {"action": "move", "player": "O", "dice": (6, 4), "move": ((24, 14),), "board": "B",
         "analysis": {"moves": [cand(((24, 18), (18, 14)), 0.0), cand(((24, 14),), -0.08)],
                      "imove": 1, "luck-value": -0.1, "skill": "bad"}},
        {"action": "move", "player": "X", "dice": (2, 1), "move": ((13, 11), (6, 5)), "board": "C",
         "analysis": {"probs": (0.6, 0.1, 0.0, 0.1, 0.0), "nd-cubeful-eq": -0.2, "dt-cubeful-eq": -0.5,
                      "moves": [cand(((13, 11), (6, 5)), -0.1), cand(((24, 21),), -0.3)],
                      "imove": 0, "luck-value": 0.0}},
        {"action": "move", "player": "O", "dice": (5, 5), "move": ((6, 1),) * 4, "board": "D",
         "analysis": {"probs": (0.8, 0.2, 0.0, 0.0, 0.0), "nd-cubeful-eq": 0.7, "dt-cubeful-eq": 0.9,
                      "moves": [cand(((6, 1),) * 4, 0.9), cand(((13, 8),) * 4, 0.5)],
                      "imove": 0, "luck-value": 0.3, "cube-skill": "very bad"}},
        {"action": "move", "player": "X", "dice": (6, 6), "move": (), "board": "E",
         "analysis": {"luck-value": -0.4}},
        {"action": "double", "player": "O", "board": "F",
         "analysis": {"probs": (0.9, 0.3, 0.0, 0.0, 0.0), "nd-cubeful-eq": 0.95, "dt-cubeful-eq": 1.3}},
        {"action": "drop", "player": "X"},
    ]
    return {"match-info": {"X": {"name": "Alice"}, "O": {"name": "Bob"}, "match-length": 0},
            "games": [{"info": {"score-X": 0, "score-O": 0, "winner": "O", "points-won": 1,
                                "resigned": False}, "game": game}]}


class CubeVerdict(unittest.TestCase):
    money = {"matchto": 0, "cubeowner": -1, "jacoby": 0, "beavers": 0}

    def verdict(self, nd, dt, gammons=True, ci=None):
        return ref.CUBE_STRINGS[ref.best_cube_decision(nd, dt, 1.0, gammons, ci or self.money)[0]]

    def test_the_six_cases_of_gnubgs_find_best_cube_decision(self):
        self.assertEqual(self.verdict(0.3, 0.1), "No double, take")
        self.assertEqual(self.verdict(0.6, 0.7), "Double, take")
        self.assertEqual(self.verdict(0.8, 1.3), "Double, pass")
        self.assertEqual(self.verdict(1.2, 1.5), "Too good to double, pass")
        self.assertEqual(self.verdict(1.2, 1.5, gammons=False), "Double, pass")
        self.assertEqual(self.verdict(1.1, 0.9), "Too good to double, take")

    def test_redoubles_are_named_as_gnubg_names_them(self):
        owned = dict(self.money, cubeowner=0)
        self.assertEqual(self.verdict(0.6, 0.7, ci=owned), "Redouble, take")
        self.assertEqual(self.verdict(0.3, 0.1, ci=owned), "No redouble, take")

    def test_the_compare_script_reads_every_verdict(self):
        for s in ref.CUBE_STRINGS.values():
            self.assertIn(cmp.norm_proper(s), ("no double", "double take", "double pass", "too good"), s)


class Convert(unittest.TestCase):
    def setUp(self):
        self.saved, ref.gnubg = ref.gnubg, FakeGnubg()

    def tearDown(self):
        ref.gnubg = self.saved

    def test_records_losses_marks_and_cube_errors(self):
        players, length, games = ref.convert(money_match(), 0)
        self.assertEqual((players, length), (["Alice", "Bob"], 0))
        recs = games[0]["records"]
        self.assertEqual([r["action"] for r in recs], ["move"] * 5 + ["double", "drop"])
        self.assertTrue(recs[0]["forced"])
        self.assertAlmostEqual(recs[1]["loss"], 0.08)
        self.assertEqual((recs[1]["mark"], recs[1]["dice"], recs[1]["move"]), ("bad", "64", "24/14"))
        self.assertEqual(recs[2]["cube"]["proper"], "No double, take")
        self.assertEqual(recs[2]["cube"]["error"], 0.0)
        self.assertFalse(recs[2]["cube"]["close"])
        c = recs[3]["cube"]  # a missed double: 0.9 - 0.7
        self.assertEqual((c["proper"], c["kind"], c["mark"]), ("Double, take", "missed_double_below_cash_point",
                                                                "very bad"))
        self.assertAlmostEqual(c["error"], 0.2)
        self.assertTrue(recs[4]["forced"])  # a dance
        self.assertEqual(recs[4]["move"], "")
        self.assertEqual(recs[5]["cube"]["proper"], "Double, pass")
        self.assertEqual(recs[5]["cube"]["error"], 0.0)
        self.assertEqual(recs[6]["cube"]["error"], 0.0)  # the right pass
        self.assertEqual(games[0]["winner"], 1)

    def test_summary_counts_as_gnubg_counts(self):
        _p, _l, games = ref.convert(money_match(), 0)
        alice, bob = ref.derived_summary(games)
        self.assertEqual((alice["unforced_moves"], alice["total_moves"], alice["close_cube_decisions"]), (1, 3, 1))
        self.assertEqual(alice["chequer_error_rate"], 0.0)
        self.assertEqual((bob["unforced_moves"], bob["close_cube_decisions"]), (2, 2))
        self.assertAlmostEqual(bob["overall_error_rate"], 1000 * (0.08 + 0.2) / 4)
        self.assertAlmostEqual(bob["snowie_error_rate"], 1000 * 0.28 / 5)
        self.assertEqual(bob["marks"], {"doubtful": 0, "bad": 1, "very bad": 0})

    def test_the_compare_script_agrees_with_itself_on_the_dump(self):
        players, length, games = ref.convert(money_match(), 0)
        doc = {"players": players, "match_length": length, "games": games,
               "summary": ref.derived_summary(games), "gnubg_stats": [{}, {}]}
        res = cmp.compare(cmp.gammon_doc_from_gnubg(doc), doc)
        self.assertEqual(res["moves"]["matched"], 5)
        self.assertEqual(res["cube"]["decisions_both"], 3)
        self.assertEqual(res["cube"]["proper_agreement"], 1.0)


if __name__ == "__main__":
    unittest.main()
