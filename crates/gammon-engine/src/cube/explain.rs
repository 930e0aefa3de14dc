//! A learner's explanation of a cube decision, in English.

use super::decision::{CubeAction, CubeAnalysis, Response, OPTIONAL_EPSILON};
use super::janowski::P;
use super::state::Stakes;
use gammon_rules::CubeOwner;
use std::fmt::{self, Write as _};

impl CubeAnalysis {
    /// A learner's explanation of the decision: the setting, the chances,
    /// the cube's life, the take point against the opponent's chances, and
    /// why the verdict follows from the three equities.
    pub fn explain(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_explanation(&mut s);
        s
    }

    fn write_explanation(&self, s: &mut String) -> fmt::Result {
        let st = &self.state;
        let p = P::of(&self.probabilities);
        let pct = |v: f64| format!("{:.1}%", 100.0 * v);
        let owner = match st.owner {
            CubeOwner::Centered => "centred",
            CubeOwner::OnRoll => "owned by X (on roll)",
            CubeOwner::Opponent => "owned by O",
        };
        match st.stakes {
            Stakes::Money { jacoby, beaver } => {
                write!(s, "Money game, cube {} {owner}", st.cube)?;
                write!(s, "; Jacoby rule {}", if jacoby { "on" } else { "off" })?;
                writeln!(s, ", beavers {}.", if beaver { "allowed" } else { "not allowed" })?;
            }
            Stakes::Match { length, away, crawford } => {
                write!(s, "{length}-point match, X needs {} point(s), O needs {}", away.0, away.1)?;
                let phase = if crawford {
                    ", Crawford game"
                } else if away.0 == 1 || away.1 == 1 {
                    ", after the Crawford game"
                } else {
                    ""
                };
                writeln!(s, "{phase}; cube {} {owner}.", st.cube)?;
            }
        }
        writeln!(
            s,
            "X (on roll) wins {} (gammons {}, backgammons {}); O wins {} (gammons {}, backgammons {}).",
            pct(p.w),
            pct(p.wg),
            pct(p.wbg),
            pct(1.0 - p.w),
            pct(p.lg),
            pct(p.lbg)
        )?;
        let x = self.efficiency;
        writeln!(
            s,
            "Cube efficiency x = {x:.3}: the cubeful equities blend the dead cube (x = 0, cubeless) and Janowski's fully live cube (x = 1); gnubg uses 0.68 with contact, 0.6 in bearoffs and 0.55 + 0.00125 x pips (0.6 to 0.7) in races."
        )?;
        match st.stakes {
            Stakes::Money { jacoby, .. } => {
                if jacoby && st.owner == CubeOwner::Centered {
                    writeln!(
                        s,
                        "Jacoby rule: while the cube is centred gammons count single, so playing on without doubling cannot win a gammon; after a double they count double again."
                    )?;
                } else {
                    writeln!(s, "Gammons count double and backgammons triple (times the cube).")?;
                }
            }
            Stakes::Match { .. } => {
                let g = self.gammon_prices;
                writeln!(
                    s,
                    "Gammon prices at this score and cube: X {:.3} (backgammon {:.3} more), O {:.3} (backgammon {:.3} more); 1 would be the money value.",
                    g.my_gammon, g.my_backgammon, g.opp_gammon, g.opp_backgammon
                )?;
            }
        }
        if let Some(reason) = self.no_double_reason {
            writeln!(s, "X cannot double usefully: {}.", reason.describe())?;
            write!(s, "Playing on is worth {:+.3}", self.no_double)?;
            if let Some(m) = self.match_chances {
                write!(s, " ({} match winning chances)", pct(m.no_double))?;
            }
            writeln!(s, ", normalised to the cube.")?;
            return Ok(());
        }
        if let Some(tp) = self.take_point {
            writeln!(
                s,
                "Take point: if X doubles, O needs at least {} winning chances to take ({} with a dead cube, {} with a fully live cube; {} at this {} without gammons).",
                pct(tp.model),
                pct(tp.dead),
                pct(tp.live),
                pct(tp.no_gammons),
                if st.is_money() { "cube" } else { "score and cube" }
            )?;
            let verdict = if tp.taker_chances >= tp.model { "so he should take" } else { "so he should pass" };
            writeln!(s, "O's winning chances are {}, {verdict}.", pct(tp.taker_chances))?;
        }
        write!(
            s,
            "Equities normalised to the cube: no double {:+.3}, double/take {:+.3}, double/pass {:+.3}",
            self.no_double, self.double_take, self.double_pass
        )?;
        if let Some(m) = self.match_chances {
            write!(s, " (match winning chances {}, {}, {})", pct(m.no_double), pct(m.double_take), pct(m.double_pass))?;
        }
        writeln!(s, ".")?;
        let (nd, dt, dp) = (self.no_double, self.double_take, self.double_pass);
        let beavered = self.response() == Some(Response::Beaver);
        let answer = if beavered { 2.0 * dt } else { dt.min(dp) };
        match self.response() {
            Some(Response::Beaver) => writeln!(
                s,
                "After a take O is the favourite (double/take {dt:+.3} < 0 for X), so he should beaver: X's equity becomes {:+.3}.",
                2.0 * dt
            )?,
            Some(Response::Pass) => writeln!(
                s,
                "O answers a double by passing: taking ({dt:+.3} for X) would cost him more than passing ({dp:+.3})."
            )?,
            _ => writeln!(
                s,
                "O answers a double by taking: taking ({dt:+.3} for X) costs him less than passing ({dp:+.3})."
            )?,
        }
        let a = self.action;
        if a.doubles() {
            if (answer - nd).abs() <= OPTIONAL_EPSILON {
                writeln!(s, "Doubling and playing on are worth the same: the double is optional.")?;
            } else {
                writeln!(
                    s,
                    "Doubling gets X {answer:+.3}, more than the {nd:+.3} of playing on (by {:.3}): X should double.",
                    answer - nd
                )?;
            }
        } else if matches!(a, CubeAction::TooGoodPass | CubeAction::TooGoodRedoublePass) || nd > dp {
            writeln!(
                s,
                "X is too good to double: playing on ({nd:+.3}) is worth more than the {dp:+.3} O would concede by passing, thanks to X's gammon chances; X should play on for the gammon."
            )?;
        } else if a == CubeAction::NoDoubleBeaver || a == CubeAction::NoRedoubleBeaver {
            writeln!(
                s,
                "Not doubling: O would beaver and X's equity would drop to {:+.3}, below the {nd:+.3} of playing on.",
                2.0 * dt
            )?;
        } else {
            writeln!(
                s,
                "Not yet: playing on ({nd:+.3}) is worth more than doubling ({answer:+.3}) by {:.3}; X keeps his cube access (or the centred cube) and doubles later, if the game goes well.",
                nd - answer
            )?;
        }
        if let Stakes::Match { away, crawford: false, .. } = st.stakes {
            let doubled = st.cube.saturating_mul(2);
            if away.1 <= doubled && away.1 > 1 {
                writeln!(
                    s,
                    "After a double O would win the match by winning the game on the {doubled}-cube: his redouble would be dead, so owning the cube is worth less to him than in money play."
                )?;
            }
            if away.0 <= doubled && away.0 > 1 {
                writeln!(
                    s,
                    "On the {doubled}-cube a single win ends the match for X: his gammons would be worth nothing after the double."
                )?;
            }
            if away.1 == 1 && away.0 > 1 {
                writeln!(
                    s,
                    "After the Crawford game the leader's cube is dead, so the trailer loses nothing by doubling early; at an even number of points away the leader may have a free drop."
                )?;
            }
        }
        Ok(())
    }
}
