//! The match equity table and the cube model: published MET values, the
//! cube rules, Janowski's limits, and agreement with GNU Backgammon (the
//! oracle's 0-ply money decisions, gnubg's own 0-ply decisions for more
//! settings in `data/gnubg-cube0.jsonl`, and the oracle's 2-ply match
//! decisions as an approximate check).
//!
//! Run with `--nocapture` to see the agreement reports.
#![allow(clippy::unwrap_used)]

use gammon_engine::cube::{
    analyse, analyse_for, analyse_position, cube_efficiency, cubeful_equity, CubeAction, CubeAnalysis, CubeError,
    CubeState, NoDouble, Response, Stakes,
};
use gammon_engine::met::{Met, MetError};
use gammon_eval::{NetEvaluator, Probabilities};
use gammon_rules::{ContextError, CubeOwner, GameContext, Position};
use gammon_testkit::{read_jsonl, read_oracle, CubeMatch, CubeMoney};
use serde_json::Value;
use std::collections::BTreeMap;

fn met() -> &'static Met {
    Met::kazaross_xg2()
}

fn cube_money() -> Vec<CubeMoney> {
    read_oracle("cube_money.jsonl")
}

fn cube_match() -> Vec<CubeMatch> {
    read_oracle("cube_match.jsonl")
}

/// gnubg's own 0-ply decisions in more settings (this test's data).
fn fixture() -> Vec<Value> {
    read_jsonl(concat!(env!("CARGO_MANIFEST_DIR"), "/data/gnubg-cube0.jsonl"))
}

/// The five probabilities of gnubg's `[win, wg, wbg, lg, lbg, (equity)]`.
fn probs(p: &[f64]) -> Probabilities {
    Probabilities::from_array([p[0] as f32, p[1] as f32, p[2] as f32, p[3] as f32, p[4] as f32])
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

fn position(id: &str) -> Position {
    Position::from_position_id(id).unwrap()
}

/// gnubg answers these from its exact two-sided bearoff database (each side
/// at most 6 checkers, all home, no contact), not with Janowski's formulas.
fn gnubg_bearoff2(pos: &Position) -> bool {
    let (me, him) = pos.checkers_in_play();
    !pos.has_contact() && pos.all_home() && pos.switched().all_home() && me <= 6 && him <= 6
}

fn p(a: [f32; 5]) -> Probabilities {
    Probabilities::from_array(a)
}

fn money(owner: CubeOwner) -> CubeState {
    CubeState::money(1, owner, false, false)
}

fn match_state(length: u32, away: (u32, u32), cube: u32, owner: CubeOwner, crawford: bool) -> CubeState {
    CubeState { cube, owner, max_cube: 1024, stakes: Stakes::Match { length, away, crawford } }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

// ---------------------------------------------------------------- the MET

#[test]
fn the_committed_table_parses() {
    let met = Met::parse(gammon_engine::met::KAZAROSS_XG2_TEXT).unwrap();
    assert_eq!(met.max_away(), 25);
    // A text table has no name; the built-in one is named as gnubg's file names it.
    assert_eq!(met.name(), "unnamed");
    assert_eq!(&met.named(gammon_engine::met::KAZAROSS_XG2_NAME), Met::kazaross_xg2());
    assert!(gammon_engine::met::KAZAROSS_XG2_TEXT.contains("Copyright (C) 2011 Neil Kazaross"));
    assert!(matches!(Met::parse("[pre-crawford]\n0.5 0.5\n"), Err(MetError::Shape { .. })));
}

#[test]
fn lookups_match_the_published_table() {
    // Copied by hand from gnubg 1.07.001's met/Kazaross-XG2.xml
    // (pre-crawford-table: <row> = my away, <me> = the opponent's away).
    let published = [
        ((1, 2), 0.67736),
        ((2, 3), 0.59947),
        ((4, 5), 0.57732),
        ((3, 7), 0.76209),
        ((7, 3), 0.23791),
        ((9, 11), 0.597926),
        ((11, 9), 0.402074),
        ((13, 17), 0.65619),
        ((15, 20), 0.67859),
        ((21, 24), 0.59603),
        ((1, 25), 0.99905),
        ((25, 1), 0.00095),
        ((10, 10), 0.5),
        ((25, 25), 0.5),
    ];
    for ((a, b), v) in published {
        assert_eq!(met().mwc(a, b), v, "{a}-away vs {b}-away");
    }
    // post-crawford-table, player="both": the trailer's chances.
    for (away, v) in [(1, 0.5), (2, 0.48803), (3, 0.32264), (4, 0.31002), (5, 0.19012), (10, 0.065161), (24, 0.00182)] {
        assert_eq!(met().post_crawford(away), v, "post-Crawford {away}-away");
    }
    assert_eq!(met().mwc(0, 3), 1.0);
    assert_eq!(met().mwc(3, 0), 0.0);
    assert_eq!(met().post_crawford(0), 1.0);
}

#[test]
fn the_table_is_symmetric_and_monotone() {
    let m = met();
    for a in 1..=25 {
        for b in 1..=25 {
            assert!((m.mwc(a, b) + m.mwc(b, a) - 1.0).abs() < 1e-9, "{a} {b}");
            if a < 25 {
                assert!(m.mwc(a + 1, b) <= m.mwc(a, b), "needing more points cannot help: {a} {b}");
            }
            if b < 25 {
                assert!(m.mwc(a, b + 1) >= m.mwc(a, b), "the opponent needing more cannot hurt: {a} {b}");
            }
        }
        if a < 25 {
            assert!(m.post_crawford(a + 1) <= m.post_crawford(a));
        }
        assert!(m.post_crawford(a) >= m.mwc(a, 1), "after the Crawford game the trailer's cube helps him");
    }
}

#[test]
fn equity_and_mwc_convert_both_ways() {
    let m = met();
    for (away, cube, crawford) in [((5, 5), 1, false), ((2, 4), 1, false), ((7, 3), 2, false), ((3, 1), 1, false)] {
        let win = m.mwc_after(away, crawford, cube, true);
        let lose = m.mwc_after(away, crawford, cube, false);
        assert!(close(m.eq2mwc(1.0, cube, away, crawford), win, 1e-12));
        assert!(close(m.eq2mwc(-1.0, cube, away, crawford), lose, 1e-12));
        for eq in [-1.7, -0.3, 0.0, 0.4, 1.2] {
            let back = m.mwc2eq(m.eq2mwc(eq, cube, away, crawford), cube, away, crawford);
            assert!(close(back, eq, 1e-12));
        }
    }
    // A Crawford game: the trailer's win leaves him post-Crawford.
    assert_eq!(m.mwc_after((3, 1), true, 1, true), m.post_crawford(2));
    assert_eq!(m.mwc_after((1, 3), true, 2, false), 1.0 - m.post_crawford(1));
    assert_eq!(m.mwc_at((3, 1), false), m.post_crawford(3));
    assert_eq!(m.mwc_at((3, 1), true), m.mwc(3, 1));
}

#[test]
fn gammon_prices_and_double_pass_match_the_oracle() {
    for r in cube_match() {
        let away = (r.away[0], r.away[1]);
        let crawford = r.crawford;
        let g = met().gammon_prices(away, 1);
        let want = r.gammonprice;
        let got = [g.my_gammon, g.my_backgammon, g.opp_gammon, g.opp_backgammon];
        for (a, b) in got.iter().zip(&want) {
            assert!(close(*a, *b, 2e-6), "{} gammon prices {got:?} vs {want:?}", r.setting);
        }
        let dp = met().mwc_after(away, crawford, 1, true);
        assert!(close(dp, r.cube2_mwc.dp, 1e-6), "{}", r.setting);
    }
}

// ------------------------------------------------------- the cube rules

#[test]
fn who_may_double() {
    let q = p([0.7, 0.1, 0.0, 0.05, 0.0]);
    let a = |s: CubeState| analyse(&q, 0.68, &s, met()).unwrap();
    assert!(a(money(CubeOwner::Centered)).can_double());
    assert!(a(money(CubeOwner::OnRoll)).can_double());
    let opp = a(money(CubeOwner::Opponent));
    assert_eq!(opp.no_double_reason, Some(NoDouble::OpponentOwnsCube));
    assert_eq!(opp.action, CubeAction::NotAvailable);
    assert_eq!(opp.response(), None);
    assert_eq!(opp.best(), opp.no_double);
    // Crawford game: nobody may double.
    let c = a(match_state(5, (1, 3), 1, CubeOwner::Centered, true));
    assert_eq!(c.no_double_reason, Some(NoDouble::Crawford));
    assert_eq!(c.action, CubeAction::NeverDoubleDeadCube);
    assert_eq!(c.action.code(), 13);
    assert_eq!(c.action.as_str(), "Never double, take (dead cube)");
    assert_eq!(a(match_state(5, (3, 1), 1, CubeOwner::Centered, true)).action, CubeAction::NeverDoubleDeadCube);
    // After the Crawford game the trailer may double, the leader gains nothing.
    assert!(a(match_state(5, (3, 1), 1, CubeOwner::Centered, false)).can_double());
    let leader = a(match_state(5, (1, 3), 1, CubeOwner::Centered, false));
    assert_eq!(leader.no_double_reason, Some(NoDouble::PostCrawfordLeader));
    // Winning the current cube already wins the match: a dead cube.
    let dead = a(match_state(7, (2, 5), 2, CubeOwner::OnRoll, false));
    assert_eq!(dead.no_double_reason, Some(NoDouble::DeadCube));
    assert_eq!(dead.action, CubeAction::NeverRedoubleDeadCube);
    // The maximum cube.
    let mut s = money(CubeOwner::OnRoll);
    s.cube = 64;
    s.max_cube = 64;
    assert_eq!(a(s).no_double_reason, Some(NoDouble::MaxCube));
}

#[test]
fn states_come_from_game_contexts() {
    let mut ctx = GameContext::new_match(7);
    ctx.score = (2, 4);
    let s = CubeState::from_context(&ctx, met()).unwrap();
    assert_eq!(s.stakes, Stakes::Match { length: 7, away: (5, 3), crawford: false });
    ctx.score = (7, 4);
    assert!(matches!(
        CubeState::from_context(&ctx, met()),
        Err(CubeError::Context(ContextError::ScoreNotBelowLength { .. }))
    ));
    ctx.score = (2, 4);
    ctx.crawford = true;
    assert!(matches!(
        CubeState::from_context(&ctx, met()),
        Err(CubeError::Context(ContextError::CrawfordNotOneAway { .. }))
    ));
    let long = GameContext::new_match(31);
    assert!(matches!(CubeState::from_context(&long, met()), Err(CubeError::MatchTooLong { length: 31, max: 25 })));
    let mut m = GameContext::money();
    m.jacoby = true;
    m.beaver = true;
    m.cube_value = 4;
    m.cube_owner = CubeOwner::Opponent;
    let s = CubeState::from_context(&m, met()).unwrap();
    assert_eq!((s.cube, s.owner, s.stakes), (4, CubeOwner::Opponent, Stakes::Money { jacoby: true, beaver: true }));
}

#[test]
fn a_pass_concedes_the_cube_before_the_double() {
    // Money: double/pass is +1 normalised, i.e. the current cube value in points.
    for cube in [1, 2, 8] {
        let s = CubeState::money(cube, CubeOwner::Centered, false, false);
        let a = analyse(&p([0.9, 0.0, 0.0, 0.0, 0.0]), 0.68, &s, met()).unwrap();
        assert_eq!(a.double_pass * f64::from(cube), f64::from(cube));
    }
    // Match: the chances after winning the current cube value.
    let s = match_state(7, (5, 4), 2, CubeOwner::OnRoll, false);
    let a = analyse(&p([0.8, 0.0, 0.0, 0.0, 0.0]), 0.68, &s, met()).unwrap();
    assert_eq!(a.match_chances.unwrap().double_pass, met().mwc(3, 4));
    assert!(close(a.double_pass, 1.0, 1e-12));
}

#[test]
fn gammons_and_backgammons_count_times_the_cube() {
    // A dead cube (x = 0): the cubeless money equity, doubled after a double.
    let q = p([0.6, 0.2, 0.05, 0.1, 0.01]);
    let cubeless = f64::from(q.equity());
    let a = analyse(&q, 0.0, &money(CubeOwner::Centered), met()).unwrap();
    assert!(close(a.no_double, cubeless, 1e-6));
    assert!(close(a.double_take, 2.0 * cubeless, 1e-6));
    assert!(close(a.cubeless_equity, cubeless, 1e-6));
    // A certain backgammon: 3 points a cube, 6 after the double.
    let bg = analyse(&p([1.0, 1.0, 1.0, 0.0, 0.0]), 0.68, &money(CubeOwner::Centered), met()).unwrap();
    assert_eq!((bg.no_double, bg.double_take), (3.0, 6.0));
    assert_eq!(bg.action, CubeAction::TooGoodPass);
    // A certain gammon loss with the cube on 4, normalised: -2 (8 points).
    let s = CubeState::money(4, CubeOwner::OnRoll, false, false);
    let lost = analyse(&p([0.0, 0.0, 0.0, 1.0, 0.0]), 0.68, &s, met()).unwrap();
    assert_eq!(lost.no_double * 4.0, -8.0);
}

#[test]
fn jacoby_counts_gammons_single_until_the_cube_is_turned() {
    let q = p([0.6, 0.25, 0.02, 0.1, 0.01]);
    let jacoby = CubeState::money(1, CubeOwner::Centered, true, false);
    let plain = money(CubeOwner::Centered);
    let a = analyse(&q, 0.0, &jacoby, met()).unwrap();
    let b = analyse(&q, 0.0, &plain, met()).unwrap();
    assert!(close(a.no_double, 2.0 * 0.6 - 1.0, 1e-6), "dead cube, Jacoby: gammons ignored");
    assert!(close(a.double_take, b.double_take, 1e-12), "after a double gammons count");
    // Live cube: flat +1 above the cash point with Jacoby (the game cannot win more).
    let strong = p([0.95, 0.5, 0.0, 0.0, 0.0]);
    let live = cubeful_equity(&strong, 1.0, &jacoby, met()).unwrap();
    assert!(close(live, 1.0, 1e-9));
    let live_plain = cubeful_equity(&strong, 1.0, &plain, met()).unwrap();
    assert!(live_plain > 1.2);
    // Jacoby makes "too good" impossible to play for a gammon: a big gammon
    // threat is a double/pass.
    let j = analyse(&p([0.85, 0.5, 0.02, 0.0, 0.0]), 0.68, &jacoby, met()).unwrap();
    assert_eq!(j.action, CubeAction::DoublePass);
    let nj = analyse(&p([0.85, 0.5, 0.02, 0.0, 0.0]), 0.68, &plain, met()).unwrap();
    assert_eq!(nj.action, CubeAction::TooGoodPass);
}

#[test]
fn janowski_dead_and_live_limits() {
    // No gammons: W = L = 1, centred take point 20% and cash point 80% when
    // live; take point 25% when dead.
    let at = |w: f32, x: f64, owner: CubeOwner| {
        cubeful_equity(&p([w, 0.0, 0.0, 0.0, 0.0]), x, &money(owner), met()).unwrap()
    };
    for w in [0.1f32, 0.3, 0.5, 0.7, 0.9] {
        let cubeless = 2.0 * f64::from(w) - 1.0;
        for owner in [CubeOwner::Centered, CubeOwner::OnRoll, CubeOwner::Opponent] {
            assert!(close(at(w, 0.0, owner), cubeless, 1e-6), "x = 0 is cubeless");
            let mid = at(w, 0.5, owner);
            assert!(close(mid, 0.5 * cubeless + 0.5 * at(w, 1.0, owner), 1e-6), "linear in x");
        }
    }
    assert!(close(at(0.5, 1.0, CubeOwner::Centered), 0.0, 1e-6));
    assert!(close(at(0.2, 1.0, CubeOwner::Centered), -1.0, 1e-6));
    assert!(close(at(0.8, 1.0, CubeOwner::Centered), 1.0, 1e-6));
    assert!(close(at(0.6, 1.0, CubeOwner::OnRoll), -1.0 + 2.0 * 0.6 / 0.8, 1e-6));
    assert!(close(at(0.6, 1.0, CubeOwner::Opponent), -1.0 + 2.0 * 0.4 / 0.8, 1e-6));
    let a = analyse(&p([0.7, 0.0, 0.0, 0.0, 0.0]), 0.68, &money(CubeOwner::Centered), met()).unwrap();
    let tp = a.take_point.unwrap();
    assert!(close(tp.dead, 0.25, 1e-9) && close(tp.live, 0.2, 1e-9), "{tp:?}");
    assert!(tp.model > tp.live && tp.model < tp.dead);
    assert!(close(tp.no_gammons, tp.model, 1e-9));
    // Gammons for the doubler raise the taker's take point.
    let g = analyse(&p([0.7, 0.25, 0.0, 0.0, 0.0]), 0.68, &money(CubeOwner::Centered), met()).unwrap();
    assert!(g.take_point.unwrap().model > tp.model + 0.02);
}

#[test]
fn beavers_and_raccoons() {
    let s = CubeState::money(1, CubeOwner::Centered, false, true);
    // Doubling a position one is losing: the take is worth more than 0 to O.
    let a = analyse(&p([0.45, 0.1, 0.0, 0.1, 0.0]), 0.68, &s, met()).unwrap();
    assert!(a.double_take < 0.0);
    assert_eq!(a.response(), Some(Response::Beaver));
    assert_eq!(a.action, CubeAction::NoDoubleBeaver);
    assert_eq!(a.beaver_equity(), Some(2.0 * a.double_take));
    assert_eq!(a.raccoon_equity(), Some(4.0 * a.double_take));
    assert!(a.explain().contains("beaver"));
    let without = analyse(&p([0.45, 0.1, 0.0, 0.1, 0.0]), 0.68, &money(CubeOwner::Centered), met()).unwrap();
    assert_eq!(without.action, CubeAction::NoDoubleTake);
    assert_eq!(without.beaver_equity(), None);
}

#[test]
fn verdicts_and_explanations() {
    let m = money(CubeOwner::Centered);
    let dt = analyse(&p([0.7, 0.1, 0.0, 0.05, 0.0]), 0.68, &m, met()).unwrap();
    assert_eq!(dt.action, CubeAction::DoubleTake);
    assert!(dt.action.doubles());
    assert_eq!(dt.ranked()[0].0.as_str(), "Double, take");
    assert!(dt.explain().contains("should take"), "{}", dt.explain());
    let dp = analyse(&p([0.85, 0.05, 0.0, 0.01, 0.0]), 0.68, &m, met()).unwrap();
    assert_eq!(dp.action, CubeAction::DoublePass);
    assert!(dp.explain().contains("should pass"));
    let redouble = analyse(&p([0.7, 0.1, 0.0, 0.05, 0.0]), 0.68, &money(CubeOwner::OnRoll), met()).unwrap();
    assert!(matches!(redouble.action, CubeAction::RedoubleTake | CubeAction::NoRedoubleTake));
    let nd = analyse(&p([0.55, 0.1, 0.0, 0.08, 0.0]), 0.68, &m, met()).unwrap();
    assert_eq!(nd.action, CubeAction::NoDoubleTake);
    assert!(nd.explain().contains("Not yet"));
    let tg = analyse(&p([0.9, 0.6, 0.05, 0.0, 0.0]), 0.68, &m, met()).unwrap();
    assert_eq!(tg.action, CubeAction::TooGoodPass);
    assert!(tg.explain().contains("too good"));
    // A match explanation names the score, the prices and the chances.
    let s = match_state(5, (2, 4), 1, CubeOwner::Centered, false);
    let a = analyse(&p([0.7, 0.2, 0.0, 0.05, 0.0]), 0.68, &s, met()).unwrap();
    let text = a.explain();
    assert!(text.contains("5-point match") && text.contains("Gammon prices") && text.contains("match winning chances"));
    let crawford =
        analyse(&p([0.7, 0.2, 0.0, 0.05, 0.0]), 0.68, &match_state(5, (1, 3), 1, CubeOwner::Centered, true), met())
            .unwrap();
    assert!(crawford.explain().contains("Crawford"));
}

#[test]
fn cube_efficiency_follows_gnubg() {
    let race = |mine: &[(usize, u8)], his: &[(usize, u8)]| {
        let mut a = [0u8; 25];
        let mut b = [0u8; 25];
        for &(pt, n) in mine {
            a[pt - 1] = n;
        }
        for &(pt, n) in his {
            b[pt - 1] = n;
        }
        Position::from_boards(&a, &b).unwrap()
    };
    assert_eq!(cube_efficiency(&Position::STARTING), 0.68);
    // 5 checkers on the 6-point and 3 on the 9: 57 pips -> 0.55 + 0.07125 = 0.62125.
    let r = race(&[(6, 5), (9, 3)], &[(1, 5)]);
    assert!(close(cube_efficiency(&r), 0.62125, 1e-12));
    // Many pips: capped at 0.7.
    let far = race(&[(12, 15)], &[(1, 2)]);
    assert_eq!(cube_efficiency(&far), 0.7);
    // Few pips but not a bearoff: at least 0.6.
    let near = race(&[(7, 1)], &[(1, 2)]);
    assert_eq!(cube_efficiency(&near), 0.6);
    // Both sides home: the bearoff value.
    assert_eq!(cube_efficiency(&race(&[(6, 5)], &[(1, 5)])), 0.6);
}

#[test]
fn analyse_position_uses_the_evaluator() {
    let net = NetEvaluator::shipped().unwrap();
    let a = analyse_position(&net, &Position::STARTING, &GameContext::money(), met()).unwrap();
    assert_eq!(a.efficiency, 0.68);
    assert!(!a.action.doubles(), "nobody doubles the opening position: {}", a.action);
    let over = Position::from_position_id("AAAAAAAA/38AAA").unwrap();
    assert_eq!(analyse_position(&net, &over, &GameContext::money(), met()).unwrap_err(), CubeError::GameOver);
}

// ------------------------------------------------------ against gnubg

#[derive(Default)]
struct Tally {
    n: usize,
    same: usize,
    nd: f64,
    dt: f64,
    nd_max: f64,
    dt_max: f64,
}

impl Tally {
    fn add(&mut self, same: bool, nd: f64, dt: f64) {
        self.n += 1;
        self.same += usize::from(same);
        self.nd += nd.abs();
        self.dt += dt.abs();
        self.nd_max = self.nd_max.max(nd.abs());
        self.dt_max = self.dt_max.max(dt.abs());
    }
    fn merge(&mut self, other: &Tally) {
        self.n += other.n;
        self.same += other.same;
        self.nd += other.nd;
        self.dt += other.dt;
        self.nd_max = self.nd_max.max(other.nd_max);
        self.dt_max = self.dt_max.max(other.dt_max);
    }
    fn agree(&self) -> f64 {
        self.same as f64 / self.n.max(1) as f64
    }
    fn mean_nd(&self) -> f64 {
        self.nd / self.n.max(1) as f64
    }
    fn mean_dt(&self) -> f64 {
        self.dt / self.n.max(1) as f64
    }
    fn line(&self, name: &str) -> String {
        format!(
            "{name:<34} n={:>3}  same action {:>5.1}%  mean|nd diff| {:.5}  mean|dt diff| {:.5}  (max {:.5} / {:.5})",
            self.n,
            100.0 * self.agree(),
            self.mean_nd(),
            self.mean_dt(),
            self.nd_max,
            self.dt_max
        )
    }
}

fn money_state() -> CubeState {
    money(CubeOwner::Centered)
}

#[test]
fn the_model_fed_gnubgs_probabilities_reproduces_gnubgs_0ply_money_decisions() {
    let mut janowski = Tally::default();
    let mut bearoff2 = Tally::default();
    for r in cube_money() {
        let pos = position(&r.pos);
        // Exact two-sided bearoff equities where gnubg uses its own.
        let a = analyse_for(&pos, &probs(&r.p0), cube_efficiency(&pos), &money_state(), met()).unwrap();
        let c0 = &r.cube0;
        let same = a.action.code() == c0.code;
        assert_eq!(same, a.action.as_str() == c0.action);
        assert_eq!(a.double_pass, c0.dp);
        let t = if gnubg_bearoff2(&pos) { &mut bearoff2 } else { &mut janowski };
        t.add(same, a.no_double - c0.nd, a.double_take - c0.dt);
    }
    println!("cube_money.jsonl, our cube model fed gnubg's p0, vs gnubg's 0-ply cube decision (cube0):");
    println!("{}", janowski.line("Janowski positions"));
    println!("{}", bearoff2.line("gnubg exact bearoff (bearoff2)"));
    let mut all = Tally::default();
    all.merge(&janowski);
    all.merge(&bearoff2);
    println!("{}", all.line("all"));
    assert!(janowski.n > 250);
    assert_eq!(janowski.same, janowski.n, "every verdict agrees where gnubg uses Janowski's formulas");
    assert!(janowski.nd_max < 1e-5 && janowski.dt_max < 1e-5, "equal to gnubg's printed precision");
    // gnubg's database holds 16-bit values, rounded down at every step of
    // its build: a few 1e-4 at most (scripts/compare_gnubg_bearoff2.py).
    assert!(bearoff2.n > 0 && bearoff2.same == bearoff2.n, "{}", bearoff2.line("bearoff2"));
    assert!(bearoff2.nd_max < 5e-4 && bearoff2.dt_max < 1e-3, "{}", bearoff2.line("bearoff2"));
    assert!(all.agree() >= 0.97 && all.mean_dt() < 0.01, "{}", all.line("all"));
}

fn state_of(r: &Value) -> CubeState {
    let owner = match r["owner"].as_str().unwrap() {
        "me" => CubeOwner::OnRoll,
        _ => CubeOwner::Centered,
    };
    let cube = r["cube"].as_u64().unwrap() as u32;
    let length = r["match_length"].as_u64().unwrap() as u32;
    if length == 0 {
        CubeState::money(cube, owner, r["jacoby"].as_bool().unwrap(), r["beavers"].as_bool().unwrap())
    } else {
        let s = (r["score"][0].as_u64().unwrap() as u32, r["score"][1].as_u64().unwrap() as u32);
        match_state(length, (length - s.0, length - s.1), cube, owner, false)
    }
}

#[test]
fn the_model_reproduces_gnubgs_own_0ply_decisions_in_more_settings() {
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut mwc_max = 0.0f64;
    for r in fixture() {
        let pos = position(r["pos"].as_str().unwrap());
        let state = state_of(&r);
        let a: CubeAnalysis = analyse(&probs(&floats(&r["p"])), cube_efficiency(&pos), &state, met()).unwrap();
        let same = a.action.as_str() == r["action"].as_str().unwrap();
        let bearoff2 = r["class"] == "bearoff2";
        let key = format!("{}{}", r["setting"].as_str().unwrap(), if bearoff2 { " [bearoff2]" } else { "" });
        let (nd, dt) = (a.no_double - r["nd"].as_f64().unwrap(), a.double_take - r["dt"].as_f64().unwrap());
        tallies.entry(key).or_default().add(same, nd, dt);
        if bearoff2 {
            continue;
        }
        assert!(same, "{}: {} vs gnubg {} ({a:?})", r["setting"], a.action, r["action"]);
        assert!(nd.abs() < 2e-5 && dt.abs() < 2e-5, "{} {}: nd {nd} dt {dt}", r["setting"], r["pos"]);
        assert!(close(a.double_pass, r["dp"].as_f64().unwrap(), 2e-6));
        if let Some(m) = a.match_chances {
            for (ours, theirs) in [(m.no_double, "nd_mwc"), (m.double_take, "dt_mwc"), (m.double_pass, "dp_mwc")] {
                mwc_max = mwc_max.max((ours - r[theirs].as_f64().unwrap()).abs());
            }
        }
    }
    println!("data/gnubg-cube0.jsonl, our cube model fed gnubg's probabilities, vs gnubg 1.07 at 0 ply:");
    for (k, t) in &tallies {
        println!("{}", t.line(k));
    }
    println!("largest match winning chances difference: {mwc_max:.2e}");
    assert!(mwc_max < 2e-6);
}

#[test]
fn match_decisions_with_gnubgs_0ply_probabilities_approximate_its_2ply_decisions() {
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    for r in cube_match() {
        let pos = position(&r.pos);
        let away = (r.away[0], r.away[1]);
        let state = match_state(5, away, 1, CubeOwner::Centered, r.crawford);
        let a = analyse(&probs(&r.p0), cube_efficiency(&pos), &state, met()).unwrap();
        let same = a.action.code() == r.code;
        let nd = a.no_double - r.cube2_emg.nd;
        let dt = a.double_take - r.cube2_emg.dt;
        tallies.entry(r.setting.clone()).or_default().add(same, nd, dt);
        all.add(same, nd, dt);
        if r.crawford {
            assert_eq!(a.action, CubeAction::NeverDoubleDeadCube);
        }
    }
    println!("cube_match.jsonl, our cube model fed gnubg's 0-ply p0, vs gnubg's 2-ply decisions (EMG):");
    for (k, t) in &tallies {
        println!("{}", t.line(k));
    }
    println!("{}", all.line("all"));
    assert!(all.agree() >= 0.85, "{}", all.line("all"));
    for (k, t) in &tallies {
        assert!(t.agree() >= 0.7, "{}", t.line(k));
    }
}

#[test]
fn report_our_nets_decisions_against_gnubgs_2ply() {
    // Information only: our net is weaker than gnubg's.
    let net = NetEvaluator::shipped().unwrap();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for r in cube_money() {
        let pos = position(&r.pos);
        let a = analyse_position(&net, &pos, &GameContext::money(), met()).unwrap();
        let c2 = &r.cube2;
        let same = a.action.code() == c2.code;
        tallies.entry("money (vs cube2)".into()).or_default().add(same, a.no_double - c2.nd, a.double_take - c2.dt);
    }
    for r in cube_match() {
        let pos = position(&r.pos);
        let mut ctx = GameContext::new_match(5);
        ctx.score = (r.score[0], r.score[1]);
        ctx.crawford = r.crawford;
        let a = analyse_position(&net, &pos, &ctx, met()).unwrap();
        let same = a.action.code() == r.code;
        tallies.entry(r.setting.clone()).or_default().add(
            same,
            a.no_double - r.cube2_emg.nd,
            a.double_take - r.cube2_emg.dt,
        );
    }
    println!("our net at 0 ply + our cube model vs gnubg's 2-ply cube decisions:");
    for (k, t) in &tallies {
        println!("{}", t.line(k));
    }
}
