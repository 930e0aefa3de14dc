//! The explanation of a cube decision as typed facts ([`Fact`], collected by
//! [`CubeAnalysis::facts`]) and their English text ([`CubeAnalysis::explain`],
//! one line per fact). JSON (`serde`: each fact an object tagged by `kind`,
//! in the `facts` of the cube report's JSON) and later HTML render the same
//! facts.

use super::decision::{CubeAnalysis, MatchChances, OPTIONAL_EPSILON};
use super::janowski::P;
use super::state::{NoDouble, Stakes};
use super::verdict::{CubeAction, Response};
use crate::met::GammonPrices;
use gammon_rules::CubeOwner;
use serde::{Serialize, Serializer};
use std::fmt;

/// One fact of the explanation of a cube decision, in reading order. X is
/// the player on roll, O his opponent; equities are X's, normalised to the
/// cube; chances are fractions of 1. The JSON names of owners and of the
/// take point's fields are the cube report's (`settings.owner`,
/// `take_point`), so one document uses one vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fact {
    /// Money play: the cube and the rules.
    MoneySetting {
        /// The cube value.
        cube: u32,
        /// Who owns it.
        #[serde(serialize_with = "owner_name")]
        owner: CubeOwner,
        /// Gammons count single until the cube is turned.
        jacoby: bool,
        /// Beavers are allowed.
        beaver: bool,
    },
    /// A match: the score, the phase of the match and the cube.
    MatchSetting {
        /// Match length.
        length: u32,
        /// Points X needs.
        x_away: u32,
        /// Points O needs.
        o_away: u32,
        /// Crawford game, after it, or neither.
        phase: MatchPhase,
        /// The cube value.
        cube: u32,
        /// Who owns it.
        #[serde(serialize_with = "owner_name")]
        owner: CubeOwner,
    },
    /// The cubeless chances of both sides (gammons include backgammons).
    Chances {
        /// X wins.
        x_wins: f64,
        /// X wins a gammon.
        x_gammons: f64,
        /// X wins a backgammon.
        x_backgammons: f64,
        /// O wins.
        o_wins: f64,
        /// O wins a gammon.
        o_gammons: f64,
        /// O wins a backgammon.
        o_backgammons: f64,
    },
    /// The cube efficiency of the model.
    CubeEfficiency {
        /// 0 is a dead cube, 1 a fully live one.
        x: f64,
    },
    /// The equities are exact: the two-sided bearoff database's.
    ExactBearoff,
    /// Money play, Jacoby rule, cube centred: gammons count single until a
    /// double.
    JacobyGammons,
    /// Money play: gammons count double, backgammons triple.
    MoneyGammons,
    /// Match play: the gammon prices at this score and cube.
    GammonPrices {
        /// The prices.
        prices: GammonPrices,
    },
    /// X may not double usefully.
    CannotDouble {
        /// Why not.
        reason: NoDouble,
    },
    /// What playing on is worth when X may not double.
    PlayingOn {
        /// The equity.
        no_double: f64,
        /// The same in match winning chances (match play).
        mwc: Option<f64>,
    },
    /// O's take point if X doubles.
    TakePoint {
        /// With the model's cube efficiency.
        model: f64,
        /// With a dead cube.
        #[serde(rename = "dead_cube")]
        dead: f64,
        /// With a fully live cube.
        #[serde(rename = "live_cube")]
        live: f64,
        /// With the model's efficiency and no gammons.
        no_gammons: f64,
        /// Money play (else a match score).
        money: bool,
    },
    /// O's chances against his take point.
    TakerChances {
        /// O's winning chances.
        chances: f64,
        /// They reach the take point.
        takes: bool,
    },
    /// The three cubeful equities.
    Equities {
        /// No double.
        no_double: f64,
        /// Double, take.
        double_take: f64,
        /// Double, pass.
        double_pass: f64,
        /// The same in match winning chances (match play).
        match_chances: Option<MatchChances>,
    },
    /// O's correct answer to a double.
    Answer {
        /// Take, pass or beaver.
        response: Response,
        /// Double/take.
        double_take: f64,
        /// Double/pass.
        double_pass: f64,
        /// X's equity after a beaver (`2 * double_take`), when O beavers.
        beaver_equity: Option<f64>,
    },
    /// Why the verdict follows from the equities.
    Verdict {
        /// gnubg's verdict.
        action: CubeAction,
        /// The reason.
        reason: VerdictReason,
    },
    /// Match play: after a double O wins the match by winning the game on
    /// the doubled cube, so his redouble would be dead.
    OpponentRedoubleDead {
        /// The doubled cube.
        cube: u32,
    },
    /// Match play: on the doubled cube a single win ends the match for X.
    DoublerGammonsWorthless {
        /// The doubled cube.
        cube: u32,
    },
    /// Match play after the Crawford game, X trailing: the leader's cube is
    /// dead.
    PostCrawfordTrailer,
}

/// The phase of a match game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchPhase {
    /// Before the Crawford game (or with no Crawford rule in play yet).
    Normal,
    /// The Crawford game: nobody may double.
    Crawford,
    /// After the Crawford game.
    PostCrawford,
}

/// Why a cube verdict follows from the three equities (X's, normalised).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum VerdictReason {
    /// Doubling and playing on are worth the same (within 1e-5).
    Optional,
    /// Doubling gains.
    Double {
        /// X's equity after O's answer.
        doubling: f64,
        /// Playing on.
        no_double: f64,
        /// `doubling - no_double`.
        gain: f64,
    },
    /// Playing on beats even the pass: X plays for the gammon.
    TooGood {
        /// Playing on.
        no_double: f64,
        /// Double/pass.
        double_pass: f64,
    },
    /// O would beaver and X would lose by it.
    BeaverDeters {
        /// X's equity after the beaver.
        beaver_equity: f64,
        /// Playing on.
        no_double: f64,
    },
    /// Playing on is worth more than doubling.
    NotYet {
        /// Playing on.
        no_double: f64,
        /// X's equity after O's answer.
        doubling: f64,
        /// `no_double - doubling`.
        loss: f64,
    },
}

fn owner_name<S: Serializer>(owner: &CubeOwner, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match owner {
        CubeOwner::Centered => "centre",
        CubeOwner::OnRoll => "me",
        CubeOwner::Opponent => "opponent",
    })
}

impl CubeAnalysis {
    /// The facts that explain the decision, in reading order: the setting,
    /// the chances, the cube's life, the gammons, the take point against the
    /// opponent's chances, the three equities and why the verdict follows.
    pub fn facts(&self) -> Vec<Fact> {
        let st = &self.state;
        let p = P::of(&self.probabilities);
        let mut facts = Vec::with_capacity(12);
        facts.push(match st.stakes {
            Stakes::Money { jacoby, beaver } => Fact::MoneySetting { cube: st.cube, owner: st.owner, jacoby, beaver },
            Stakes::Match { length, away, crawford } => Fact::MatchSetting {
                length,
                x_away: away.0,
                o_away: away.1,
                phase: if crawford {
                    MatchPhase::Crawford
                } else if away.0 == 1 || away.1 == 1 {
                    MatchPhase::PostCrawford
                } else {
                    MatchPhase::Normal
                },
                cube: st.cube,
                owner: st.owner,
            },
        });
        facts.push(Fact::Chances {
            x_wins: p.w,
            x_gammons: p.wg,
            x_backgammons: p.wbg,
            o_wins: 1.0 - p.w,
            o_gammons: p.lg,
            o_backgammons: p.lbg,
        });
        facts.push(if self.exact_bearoff { Fact::ExactBearoff } else { Fact::CubeEfficiency { x: self.efficiency } });
        facts.push(match st.stakes {
            Stakes::Money { jacoby: true, .. } if st.owner == CubeOwner::Centered => Fact::JacobyGammons,
            Stakes::Money { .. } => Fact::MoneyGammons,
            Stakes::Match { .. } => Fact::GammonPrices { prices: self.gammon_prices },
        });
        if let Some(reason) = self.no_double_reason {
            facts.push(Fact::CannotDouble { reason });
            facts.push(Fact::PlayingOn { no_double: self.no_double, mwc: self.match_chances.map(|m| m.no_double) });
            return facts;
        }
        if let Some(tp) = self.take_point {
            facts.push(Fact::TakePoint {
                model: tp.model,
                dead: tp.dead,
                live: tp.live,
                no_gammons: tp.no_gammons,
                money: st.is_money(),
            });
            facts.push(Fact::TakerChances { chances: tp.taker_chances, takes: tp.taker_chances >= tp.model });
        }
        let (nd, dt, dp) = (self.no_double, self.double_take, self.double_pass);
        facts.push(Fact::Equities {
            no_double: nd,
            double_take: dt,
            double_pass: dp,
            match_chances: self.match_chances,
        });
        let response = self.response();
        let beavered = response == Some(Response::Beaver);
        facts.push(Fact::Answer {
            response: response.unwrap_or(Response::Take),
            double_take: dt,
            double_pass: dp,
            beaver_equity: beavered.then_some(2.0 * dt),
        });
        let answer = if beavered { 2.0 * dt } else { dt.min(dp) };
        let a = self.action;
        let reason = if a.doubles() {
            if (answer - nd).abs() <= OPTIONAL_EPSILON {
                VerdictReason::Optional
            } else {
                VerdictReason::Double { doubling: answer, no_double: nd, gain: answer - nd }
            }
        } else if matches!(a, CubeAction::TooGoodPass | CubeAction::TooGoodRedoublePass) || nd > dp {
            VerdictReason::TooGood { no_double: nd, double_pass: dp }
        } else if a == CubeAction::NoDoubleBeaver || a == CubeAction::NoRedoubleBeaver {
            VerdictReason::BeaverDeters { beaver_equity: 2.0 * dt, no_double: nd }
        } else {
            VerdictReason::NotYet { no_double: nd, doubling: answer, loss: nd - answer }
        };
        facts.push(Fact::Verdict { action: a, reason });
        if let Stakes::Match { away, crawford: false, .. } = st.stakes {
            let doubled = st.cube.saturating_mul(2);
            if away.1 <= doubled && away.1 > 1 {
                facts.push(Fact::OpponentRedoubleDead { cube: doubled });
            }
            if away.0 <= doubled && away.0 > 1 {
                facts.push(Fact::DoublerGammonsWorthless { cube: doubled });
            }
            if away.1 == 1 && away.0 > 1 {
                facts.push(Fact::PostCrawfordTrailer);
            }
        }
        facts
    }

    /// A learner's explanation of the decision: the text of
    /// [`facts`](Self::facts), one line each.
    pub fn explain(&self) -> String {
        self.facts().iter().map(|f| format!("{f}\n")).collect()
    }
}

/// A fraction as a percentage with one decimal.
struct Pct(f64);

impl fmt::Display for Pct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1}%", 100.0 * self.0)
    }
}

fn owner_text(owner: CubeOwner) -> &'static str {
    match owner {
        CubeOwner::Centered => "centred",
        CubeOwner::OnRoll => "owned by X (on roll)",
        CubeOwner::Opponent => "owned by O",
    }
}

/// The English sentence of a fact (no line break).
impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Fact::MoneySetting { cube, owner, jacoby, beaver } => write!(
                f,
                "Money game, cube {cube} {}; Jacoby rule {}, beavers {}.",
                owner_text(owner),
                if jacoby { "on" } else { "off" },
                if beaver { "allowed" } else { "not allowed" }
            ),
            Fact::MatchSetting { length, x_away, o_away, phase, cube, owner } => {
                let phase = match phase {
                    MatchPhase::Crawford => ", Crawford game",
                    MatchPhase::PostCrawford => ", after the Crawford game",
                    MatchPhase::Normal => "",
                };
                write!(
                    f,
                    "{length}-point match, X needs {x_away} point(s), O needs {o_away}{phase}; cube {cube} {}.",
                    owner_text(owner)
                )
            }
            Fact::Chances { x_wins, x_gammons, x_backgammons, o_wins, o_gammons, o_backgammons } => write!(
                f,
                "X (on roll) wins {} (gammons {}, backgammons {}); O wins {} (gammons {}, backgammons {}).",
                Pct(x_wins),
                Pct(x_gammons),
                Pct(x_backgammons),
                Pct(o_wins),
                Pct(o_gammons),
                Pct(o_backgammons)
            ),
            Fact::CubeEfficiency { x } => write!(
                f,
                "Cube efficiency x = {x:.3}: the cubeful equities blend the dead cube (x = 0, cubeless) and Janowski's fully live cube (x = 1); gnubg uses 0.68 with contact, 0.6 in bearoffs and 0.55 + 0.00125 x pips (0.6 to 0.7) in races."
            ),
            Fact::ExactBearoff => f.write_str(
                "Exact bearoff: each side has at most 6 checkers left, all home, so the cubeful equities are the two-sided bearoff database's exact ones (optimal checker play and cube action by both sides), not a model's.",
            ),
            Fact::JacobyGammons => f.write_str(
                "Jacoby rule: while the cube is centred gammons count single, so playing on without doubling cannot win a gammon; after a double they count double again.",
            ),
            Fact::MoneyGammons => f.write_str("Gammons count double and backgammons triple (times the cube)."),
            Fact::GammonPrices { prices: g } => write!(
                f,
                "Gammon prices at this score and cube: X {:.3} (backgammon {:.3} more), O {:.3} (backgammon {:.3} more); 1 would be the money value.",
                g.my_gammon, g.my_backgammon, g.opp_gammon, g.opp_backgammon
            ),
            Fact::CannotDouble { reason } => write!(f, "X cannot double usefully: {}.", reason.describe()),
            Fact::PlayingOn { no_double, mwc } => {
                write!(f, "Playing on is worth {no_double:+.3}")?;
                if let Some(m) = mwc {
                    write!(f, " ({} match winning chances)", Pct(m))?;
                }
                f.write_str(", normalised to the cube.")
            }
            Fact::TakePoint { model, dead, live, no_gammons, money } => write!(
                f,
                "Take point: if X doubles, O needs at least {} winning chances to take ({} with a dead cube, {} with a fully live cube; {} at this {} without gammons).",
                Pct(model),
                Pct(dead),
                Pct(live),
                Pct(no_gammons),
                if money { "cube" } else { "score and cube" }
            ),
            Fact::TakerChances { chances, takes } => write!(
                f,
                "O's winning chances are {}, {}.",
                Pct(chances),
                if takes { "so he should take" } else { "so he should pass" }
            ),
            Fact::Equities { no_double, double_take, double_pass, match_chances } => {
                write!(
                    f,
                    "Equities normalised to the cube: no double {no_double:+.3}, double/take {double_take:+.3}, double/pass {double_pass:+.3}"
                )?;
                if let Some(m) = match_chances {
                    write!(
                        f,
                        " (match winning chances {}, {}, {})",
                        Pct(m.no_double),
                        Pct(m.double_take),
                        Pct(m.double_pass)
                    )?;
                }
                f.write_str(".")
            }
            Fact::Answer { response, double_take: dt, double_pass: dp, beaver_equity } => match (response, beaver_equity) {
                (Response::Beaver, Some(b)) => write!(
                    f,
                    "After a take O is the favourite (double/take {dt:+.3} < 0 for X), so he should beaver: X's equity becomes {b:+.3}."
                ),
                (Response::Pass, _) => write!(
                    f,
                    "O answers a double by passing: taking ({dt:+.3} for X) would cost him more than passing ({dp:+.3})."
                ),
                _ => write!(
                    f,
                    "O answers a double by taking: taking ({dt:+.3} for X) costs him less than passing ({dp:+.3})."
                ),
            },
            Fact::Verdict { reason, .. } => match reason {
                VerdictReason::Optional => f.write_str("Doubling and playing on are worth the same: the double is optional."),
                VerdictReason::Double { doubling, no_double, gain } => write!(
                    f,
                    "Doubling gets X {doubling:+.3}, more than the {no_double:+.3} of playing on (by {gain:.3}): X should double."
                ),
                VerdictReason::TooGood { no_double, double_pass } => write!(
                    f,
                    "X is too good to double: playing on ({no_double:+.3}) is worth more than the {double_pass:+.3} O would concede by passing, thanks to X's gammon chances; X should play on for the gammon."
                ),
                VerdictReason::BeaverDeters { beaver_equity, no_double } => write!(
                    f,
                    "Not doubling: O would beaver and X's equity would drop to {beaver_equity:+.3}, below the {no_double:+.3} of playing on."
                ),
                VerdictReason::NotYet { no_double, doubling, loss } => write!(
                    f,
                    "Not yet: playing on ({no_double:+.3}) is worth more than doubling ({doubling:+.3}) by {loss:.3}; X keeps his cube access (or the centred cube) and doubles later, if the game goes well."
                ),
            },
            Fact::OpponentRedoubleDead { cube } => write!(
                f,
                "After a double O would win the match by winning the game on the {cube}-cube: his redouble would be dead, so owning the cube is worth less to him than in money play."
            ),
            Fact::DoublerGammonsWorthless { cube } => write!(
                f,
                "On the {cube}-cube a single win ends the match for X: his gammons would be worth nothing after the double."
            ),
            Fact::PostCrawfordTrailer => f.write_str(
                "After the Crawford game the leader's cube is dead, so the trailer loses nothing by doubling early; at an even number of points away the leader may have a free drop.",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{analyse, CubeState, Stakes};
    use super::*;
    use crate::met::Met;
    use gammon_eval::Probabilities;

    fn money(p: [f32; 5], owner: CubeOwner, jacoby: bool) -> CubeAnalysis {
        let state = CubeState::money(1, owner, jacoby, false);
        analyse(&Probabilities::from_array(p), 0.68, &state, Met::kazaross_xg2()).unwrap()
    }

    #[test]
    fn a_pass_has_its_take_point_and_the_reason_to_double() {
        let a = money([0.85, 0.0, 0.0, 0.0, 0.0], CubeOwner::Centered, true);
        let facts = a.facts();
        assert_eq!(facts[3], Fact::JacobyGammons);
        let tp = a.take_point.unwrap();
        assert!(facts.contains(&Fact::TakerChances { chances: tp.taker_chances, takes: false }));
        assert!(facts.iter().any(|f| matches!(f, Fact::Answer { response: Response::Pass, .. })));
        let Some(Fact::Verdict { action, reason: VerdictReason::Double { doubling, no_double, gain } }) = facts.last()
        else {
            panic!("{facts:?}")
        };
        assert_eq!(*action, CubeAction::DoublePass);
        assert_eq!((*doubling, *no_double, *gain), (1.0, a.no_double, 1.0 - a.no_double));
        // One line per fact.
        assert_eq!(a.explain().lines().count(), facts.len());
        assert!(a.explain().ends_with("X should double.\n"));
    }

    #[test]
    fn without_cube_access_the_facts_stop_at_playing_on() {
        let a = money([0.6, 0.1, 0.0, 0.05, 0.0], CubeOwner::Opponent, false);
        let facts = a.facts();
        assert_eq!(facts[3], Fact::MoneyGammons);
        assert_eq!(
            &facts[4..],
            &[
                Fact::CannotDouble { reason: NoDouble::OpponentOwnsCube },
                Fact::PlayingOn { no_double: a.no_double, mwc: None },
            ]
        );
    }

    #[test]
    fn match_facts_carry_the_score_and_the_notes() {
        let state = CubeState {
            cube: 1,
            owner: CubeOwner::Centered,
            max_cube: 64,
            stakes: Stakes::Match { length: 5, away: (4, 1), crawford: false },
        };
        let p = Probabilities::from_array([0.45, 0.1, 0.0, 0.1, 0.0]);
        let a = analyse(&p, 0.68, &state, Met::kazaross_xg2()).unwrap();
        let facts = a.facts();
        assert!(matches!(facts[0], Fact::MatchSetting { x_away: 4, o_away: 1, phase: MatchPhase::PostCrawford, .. }));
        assert_eq!(facts[3], Fact::GammonPrices { prices: a.gammon_prices });
        assert!(matches!(facts[6], Fact::Equities { match_chances: Some(_), .. }));
        assert_eq!(facts.last(), Some(&Fact::PostCrawfordTrailer));
        assert!(a
            .explain()
            .starts_with("5-point match, X needs 4 point(s), O needs 1, after the Crawford game; cube 1 centred.\n"));
    }

    #[test]
    fn facts_serialise_with_their_kind() {
        let a = money([0.5, 0.1, 0.0, 0.1, 0.0], CubeOwner::Centered, false);
        let json = serde_json::to_value(a.facts()).unwrap();
        assert_eq!(
            json[0],
            serde_json::json!({"kind": "money_setting", "cube": 1, "owner": "centre", "jacoby": false, "beaver": false})
        );
        assert_eq!(json[3]["kind"], "money_gammons");
        let take_point = json.as_array().unwrap().iter().find(|f| f["kind"] == "take_point").unwrap();
        assert_eq!(take_point["dead_cube"], a.take_point.unwrap().dead);
        let verdict = json.as_array().unwrap().iter().find(|f| f["kind"] == "verdict").unwrap();
        assert_eq!(verdict["action"], "no_double_take");
        assert_eq!(verdict["reason"]["kind"], "not_yet");
    }
}
