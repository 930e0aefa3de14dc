//! n-ply cube decisions against GNU Backgammon's 2-ply ones.
//!
//! The oracle's `cube_money.jsonl` (money, centred cube, gnubg 2-ply
//! `cube2`) and `cube_match.jsonl` (5-point match, six scores, gnubg 2-ply)
//! are decided here with OUR net searched 2 plies deep, both ways:
//!
//! - `cubeful`: [`analyse_states_nply`], cubeful values carried through the
//!   plies as gnubg does;
//! - `janowski`: [`analyse_position_cubeless_nply`], the 2-ply cubeless
//!   probabilities fed to Janowski's model at the root.
//!
//! Run with `--nocapture` to see the report: the share of the same proper
//! action (gnubg's verdict code), overall and where gnubg's decision is
//! clear, the mean differences of the no-double and double/take equities,
//! and the largest disagreements with a guess at their cause.
//!
//! "Clear" means gnubg's best action beats the nearest different verdict by
//! more than 0.04: both the doubler's margin `|nd - min(dt, dp)|` and the
//! taker's margin `|dt - dp|` exceed 0.04 (normalised equities; in the match
//! gnubg's "equivalent-to-money" values). Crawford-game rows have no cube
//! decision (gnubg says "Never double, take (dead cube)") and are reported
//! apart. Set `GAMMON_NPLY_STEP=k` to decide only every k-th position, and
//! `GAMMON_NPLY_SHOW=n` (n > 10) to list the first n disagreements on clear
//! decisions, and `GAMMON_NPLY_WEIGHTS=PATH` to measure another net than the
//! shipped one. The whole report takes about 10 s (2-ply searches of 321
//! positions, twice).
//!
//! The other tests check the n-ply search's own properties.
#![allow(clippy::unwrap_used)]

use gammon_engine::cube::{
    analyse_position, analyse_position_cubeless_nply, analyse_position_nply, analyse_states_nply, cubeful_nply,
    CubeAction, CubeAnalysis, CubeState, Stakes,
};
use gammon_engine::met::Met;
use gammon_engine::search::Search;
use gammon_eval::NetEvaluator;
use gammon_rules::{CubeOwner, GameContext, Position};
use gammon_testkit::{read_oracle, CubeMatch, CubeMoney};
use std::collections::BTreeMap;
use std::time::Instant;

const PLIES: u8 = 2;
const CLEAR: f64 = 0.04;

fn cube_money() -> Vec<CubeMoney> {
    read_oracle("cube_money.jsonl")
}

/// One gnubg 2-ply decision.
struct Case {
    setting: String,
    pos: Position,
    id: String,
    state: CubeState,
    crawford: bool,
    /// gnubg's normalised no double, double/take, double/pass.
    nd: f64,
    dt: f64,
    dp: f64,
    code: u8,
    action: String,
    /// gnubg's 0-ply cubeless probabilities (the only ones the oracle has):
    /// win, win gammon, lose gammon.
    p0: [f64; 3],
}

impl Case {
    /// The doubler's margin and the taker's margin.
    fn margins(&self) -> (f64, f64) {
        ((self.nd - self.dt.min(self.dp)).abs(), (self.dt - self.dp).abs())
    }
    fn clear(&self) -> bool {
        let (a, b) = self.margins();
        a > CLEAR && b > CLEAR
    }
    /// What our verdict costs by gnubg's numbers.
    fn cost(&self, ours: &CubeAnalysis) -> f64 {
        let gnubg_doubles = self.dt.min(self.dp) > self.nd;
        let gnubg_takes = self.dt <= self.dp;
        let (a, b) = self.margins();
        let mut cost = 0.0;
        if ours.action.doubles() != gnubg_doubles {
            cost += a;
        }
        if ours.response().is_some_and(|r| (r.to_string() != "pass") != gnubg_takes) {
            cost += b;
        }
        cost
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for r in cube_money() {
        let c = &r.cube2;
        out.push(Case {
            setting: "money".into(),
            pos: Position::from_position_id(&r.pos).unwrap(),
            id: r.pos.clone(),
            state: CubeState::money(1, CubeOwner::Centered, false, false),
            crawford: false,
            nd: c.nd,
            dt: c.dt,
            dp: c.dp,
            code: c.code,
            action: c.action.clone(),
            p0: [r.p0[0], r.p0[1], r.p0[3]],
        });
    }
    for r in read_oracle::<CubeMatch>("cube_match.jsonl") {
        let c = &r.cube2_emg;
        let away = (r.away[0], r.away[1]);
        let crawford = r.crawford;
        out.push(Case {
            setting: r.setting.clone(),
            pos: Position::from_position_id(&r.pos).unwrap(),
            id: r.pos.clone(),
            state: CubeState {
                cube: 1,
                owner: CubeOwner::Centered,
                max_cube: GameContext::DEFAULT_MAX_CUBE,
                stakes: Stakes::Match { length: 5, away, crawford },
            },
            crawford,
            nd: c.nd,
            dt: c.dt,
            dp: c.dp,
            code: r.code,
            action: r.action.clone(),
            p0: [r.p0[0], r.p0[1], r.p0[3]],
        });
    }
    out
}

#[derive(Default, Clone)]
struct Tally {
    n: usize,
    same: usize,
    clear_n: usize,
    clear_same: usize,
    same_double: usize,
    same_take: usize,
    nd: f64,
    dt: f64,
}

impl Tally {
    fn add(&mut self, c: &Case, a: &CubeAnalysis) {
        let same = a.action.code() == c.code;
        self.n += 1;
        self.same += usize::from(same);
        if c.clear() {
            self.clear_n += 1;
            self.clear_same += usize::from(same);
        }
        self.same_double += usize::from(a.action.doubles() == (c.dt.min(c.dp) > c.nd));
        self.same_take += usize::from(a.response().is_none_or(|r| (r.to_string() != "pass") == (c.dt <= c.dp)));
        self.nd += (a.no_double - c.nd).abs();
        self.dt += (a.double_take - c.dt).abs();
    }
    fn pct(a: usize, n: usize) -> f64 {
        100.0 * a as f64 / n.max(1) as f64
    }
    fn clear_agreement(&self) -> f64 {
        Self::pct(self.clear_same, self.clear_n)
    }
    fn line(&self, name: &str) -> String {
        format!(
            "{name:<28} n={:>3}  same action {:>5.1}%  clear (n={:>3}) {:>5.1}%  double/no double {:>5.1}%  take/pass {:>5.1}%  mean|nd diff| {:.4}  mean|dt diff| {:.4}",
            self.n,
            Self::pct(self.same, self.n),
            self.clear_n,
            self.clear_agreement(),
            Self::pct(self.same_double, self.n),
            Self::pct(self.same_take, self.n),
            self.nd / self.n.max(1) as f64,
            self.dt / self.n.max(1) as f64,
        )
    }
}

/// gnubg answers these from its exact two-sided cubeful bearoff database.
fn gnubg_bearoff2(pos: &Position) -> bool {
    let (me, him) = pos.checkers_in_play();
    !pos.has_contact() && pos.all_home() && pos.switched().all_home() && me <= 6 && him <= 6
}

/// A one-line guess at why we disagree: the net's chances or the cube model.
fn guess(c: &Case, a: &CubeAnalysis) -> String {
    let (m1, m2) = c.margins();
    let p = a.probabilities;
    let ours = [f64::from(p.win), f64::from(p.win_gammon), f64::from(p.lose_gammon)];
    let d: Vec<f64> = ours.iter().zip(c.p0).map(|(o, g)| o - g).collect();
    if gnubg_bearoff2(&c.pos) {
        return "cube model: gnubg reads this bearoff from its exact cubeful database".into();
    }
    if d[0].abs() > 0.04 {
        return format!(
            "net: our 2-ply win chances {:.1}% vs gnubg's 0-ply {:.1}% ({:+.1} points)",
            100.0 * ours[0],
            100.0 * c.p0[0],
            100.0 * d[0]
        );
    }
    if d[1].abs() > 0.04 || d[2].abs() > 0.04 {
        return format!(
            "net: gammons {:.1}%/{:.1}% (won/lost) vs gnubg's 0-ply {:.1}%/{:.1}%",
            100.0 * ours[1],
            100.0 * ours[2],
            100.0 * c.p0[1],
            100.0 * c.p0[2]
        );
    }
    if m1.min(m2) < 0.02 {
        return format!("close call: gnubg's own margin is only {:.3}", m1.min(m2));
    }
    format!(
        "cube model/search: chances within {:.1} points of gnubg's 0-ply, yet nd {:+.3}, dt {:+.3} off (gnubg's 2-ply chances or its cubeful move choice)",
        100.0 * d.iter().fold(0.0f64, |m, x| m.max(x.abs())),
        a.no_double - c.nd,
        a.double_take - c.dt
    )
}

fn ctx_of(state: &CubeState) -> GameContext {
    match state.stakes {
        Stakes::Money { .. } => GameContext::money(),
        Stakes::Match { length, away, crawford } => {
            let mut ctx = GameContext::new_match(length);
            ctx.score = (length - away.0, length - away.1);
            ctx.crawford = crawford;
            ctx
        }
    }
}

/// Our decisions for `positions` (groups of case indices), one search per
/// position.
fn decide(
    search: &Search<NetEvaluator>,
    all: &[Case],
    positions: &[&Vec<usize>],
    plies: u8,
) -> Vec<(usize, CubeAnalysis)> {
    let mut out = Vec::new();
    for idx in positions {
        let states: Vec<CubeState> = idx.iter().map(|&i| all[i].state).collect();
        let a = analyse_states_nply(search, &all[idx[0]].pos, &states, Met::kazaross_xg2(), plies).unwrap();
        out.extend(idx.iter().copied().zip(a));
    }
    out
}

/// Prints the tallies per setting; returns (all decisions, money only).
fn report(name: &str, all: &[Case], results: &[(usize, CubeAnalysis)]) -> (Tally, Tally) {
    let mut per: BTreeMap<String, Tally> = BTreeMap::new();
    let mut decisions = Tally::default();
    let (mut crawford_n, mut crawford_same, mut crawford_nd) = (0, 0, 0.0);
    for (i, a) in results {
        let c = &all[*i];
        if c.crawford {
            crawford_n += 1;
            crawford_same += usize::from(a.action.code() == c.code);
            crawford_nd += (a.no_double - c.nd).abs();
            continue;
        }
        per.entry(c.setting.clone()).or_default().add(c, a);
        decisions.add(c, a);
    }
    println!("{name}:");
    for (k, t) in &per {
        println!("  {}", t.line(k));
    }
    println!("  {}", decisions.line("all decisions (no Crawford)"));
    println!(
        "  {:<28} n={crawford_n:>3}  same action {:>5.1}%  mean|nd diff| {:.4} (no decision: only nd means something)",
        "Crawford rows",
        Tally::pct(crawford_same, crawford_n),
        crawford_nd / f64::from(u32::try_from(crawford_n.max(1)).unwrap())
    );
    (decisions, per.get("money").cloned().unwrap_or_default())
}

#[test]
fn report_agreement_with_gnubgs_2ply_cube_decisions() {
    let step: usize = std::env::var("GAMMON_NPLY_STEP").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let met = Met::kazaross_xg2();
    // GAMMON_NPLY_WEIGHTS=PATH measures another net (a candidate to ship).
    let net = match std::env::var("GAMMON_NPLY_WEIGHTS") {
        Ok(path) => NetEvaluator::new(gammon_eval::NetWeights::load(std::path::Path::new(&path)).unwrap()),
        Err(_) => NetEvaluator::shipped().unwrap(),
    };
    let search = Search::new(net);
    let all = cases();
    // Group the settings of each position: one cubeful search decides them all.
    let mut by_pos: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, c) in all.iter().enumerate() {
        by_pos.entry(c.id.clone()).or_default().push(i);
    }
    let positions: Vec<&Vec<usize>> = by_pos.values().step_by(step).collect();
    let start = Instant::now();
    let cubeful = decide(&search, &all, &positions, PLIES);
    let t_cubeful = start.elapsed();
    let static_ = decide(&search, &all, &positions, 0);
    let start = Instant::now();
    let mut janowski: Vec<(usize, CubeAnalysis)> = Vec::new();
    for idx in &positions {
        for &i in idx.iter() {
            let c = &all[i];
            janowski.push((i, analyse_position_cubeless_nply(&search, &c.pos, &ctx_of(&c.state), met, PLIES).unwrap()));
        }
    }
    let t_janowski = start.elapsed();

    println!(
        "{} positions ({} decisions; every {step}. position), 2-ply cubeful {:.1} s, 2-ply janowski {:.1} s",
        positions.len(),
        cubeful.len(),
        t_cubeful.as_secs_f64(),
        t_janowski.as_secs_f64()
    );
    println!("Our net vs gnubg's 2-ply cube decisions (clear = both of gnubg's margins > {CLEAR}).");
    let (cf, cf_money) = report("2-ply cubeful (gnubg's method, the default)", &all, &cubeful);
    let (jw, _) = report("2-ply cubeless probabilities + Janowski at the root", &all, &janowski);
    let (st, _) = report("0-ply (static evaluation + Janowski)", &all, &static_);

    let mut worst: Vec<(f64, usize, &CubeAnalysis)> = cubeful
        .iter()
        .filter(|(i, a)| !all[*i].crawford && a.action.code() != all[*i].code)
        .map(|(i, a)| (all[*i].cost(a), *i, a))
        .collect();
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    let shown: usize = std::env::var("GAMMON_NPLY_SHOW").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    println!(
        "largest disagreements, 2-ply cubeful (cost = what our verdict loses by gnubg's numbers; nd and dt gnubg/ours):"
    );
    for (cost, i, a) in worst.iter().filter(|w| shown <= 10 || all[w.1].clear()).take(shown) {
        let c = &all[*i];
        println!(
            "  {:.3} {} {:<16} gnubg {:<26} ours {:<26} nd {:+.3}/{:+.3} dt {:+.3}/{:+.3}: {}",
            cost,
            c.id,
            c.setting.trim_start_matches("5pt_"),
            c.action,
            a.action.as_str(),
            c.nd,
            a.no_double,
            c.dt,
            a.double_take,
            guess(c, a)
        );
    }

    // Bounds that can fail. Measured with the shipped net (all positions):
    // clear decisions 89.9% overall (money 89.3%), same action 86.8%, mean
    // |nd diff| 0.053, |dt diff| 0.122; 0-ply: same action 82%. The issue's
    // goal is 90% on clear decisions; a broken search or cube model falls
    // well below these bounds.
    assert!(cf.n >= 600 / step && cf_money.n >= 300 / step, "{} {}", cf.n, cf_money.n);
    assert!(cf.clear_agreement() >= 85.0, "{}", cf.line("cubeful"));
    assert!(cf_money.clear_agreement() >= 85.0, "{}", cf_money.line("cubeful money"));
    assert!(Tally::pct(cf.same, cf.n) >= 82.0, "{}", cf.line("cubeful"));
    assert!(cf.nd / (cf.n as f64) < 0.07 && cf.dt / (cf.n as f64) < 0.15, "{}", cf.line("cubeful"));
    // Searching helps: closer to gnubg's 2-ply than the static decision, and
    // carrying cubeful values beats feeding 2-ply chances to Janowski.
    assert!(cf.same > st.same && cf.nd < st.nd, "{}\n{}", cf.line("2-ply"), st.line("0-ply"));
    assert!(cf.clear_same >= jw.clear_same, "{}\n{}", cf.line("cubeful"), jw.line("janowski"));
    // Nobody doubles in the Crawford game.
    for (i, a) in &cubeful {
        if all[*i].crawford {
            assert_eq!(a.action, CubeAction::NeverDoubleDeadCube);
        }
    }
}

// ------------------------------------------------------- the search itself

/// A few positions of the oracle and the start.
fn sample_positions() -> Vec<Position> {
    let mut v = vec![Position::STARTING];
    v.extend(cube_money().iter().step_by(29).map(|r| Position::from_position_id(&r.pos).unwrap()));
    v
}

fn sample_contexts() -> Vec<GameContext> {
    let mut owned = GameContext::money();
    owned.cube_value = 2;
    owned.cube_owner = CubeOwner::OnRoll;
    let mut jacoby_beaver = GameContext::money();
    jacoby_beaver.jacoby = true;
    jacoby_beaver.beaver = true;
    let mut m = GameContext::new_match(7);
    m.score = (2, 4);
    let mut redouble = GameContext::new_match(7);
    redouble.score = (1, 3);
    redouble.cube_value = 2;
    redouble.cube_owner = CubeOwner::OnRoll;
    let mut post = GameContext::new_match(5);
    post.score = (2, 4);
    vec![GameContext::money(), owned, jacoby_beaver, m, redouble, post]
}

#[test]
fn zero_plies_is_the_static_analysis() {
    let net = NetEvaluator::shipped().unwrap();
    let search = Search::new(NetEvaluator::shipped().unwrap());
    let met = Met::kazaross_xg2();
    for pos in sample_positions() {
        for ctx in sample_contexts() {
            let a = analyse_position(&net, &pos, &ctx, met).unwrap();
            let b = analyse_position_nply(&search, &pos, &ctx, met, 0).unwrap();
            assert_eq!(a, b, "{} {ctx:?}", pos.to_position_id());
        }
    }
}

#[test]
fn the_probabilities_are_the_searchs() {
    let search = Search::new(NetEvaluator::shipped().unwrap());
    let met = Met::kazaross_xg2();
    let state = CubeState::money(1, CubeOwner::Centered, false, false);
    for pos in sample_positions().iter().filter(|p| p.has_contact()).take(4) {
        for plies in [1, 2] {
            let n = cubeful_nply(&search, pos, &[state], met, plies).unwrap();
            let p = search.value(pos, plies);
            for (a, b) in n.probabilities.to_array().iter().zip(p.to_array()) {
                assert!((a - b).abs() < 1e-5, "{} {plies}: {:?} vs {p:?}", pos.to_position_id(), n.probabilities);
            }
        }
    }
}

#[test]
fn a_dead_cube_carries_the_cubeless_value() {
    // In the Crawford game nobody may double, at any node: the no-double
    // match winning chances are those of the cubeless n-ply evaluation.
    let search = Search::new(NetEvaluator::shipped().unwrap());
    let met = Met::kazaross_xg2();
    let mut ctx = GameContext::new_match(5);
    ctx.score = (4, 2);
    ctx.crawford = true;
    for pos in sample_positions().iter().take(5) {
        for plies in [1, 2] {
            let a = analyse_position_nply(&search, pos, &ctx, met, plies).unwrap();
            let m = a.match_chances.unwrap();
            assert!((m.no_double - m.cubeless).abs() < 1e-5, "{} {plies}: {m:?}", pos.to_position_id());
            assert_eq!(a.action, CubeAction::NeverDoubleDeadCube);
        }
    }
}

#[test]
fn owning_the_cube_is_worth_something() {
    // Money play: the same position is worth more with the cube on my side,
    // less with the opponent's, at every depth (normalised to the cube).
    let search = Search::new(NetEvaluator::shipped().unwrap());
    let met = Met::kazaross_xg2();
    let states = [CubeOwner::OnRoll, CubeOwner::Centered, CubeOwner::Opponent]
        .map(|o| CubeState::money(if o == CubeOwner::Centered { 1 } else { 2 }, o, false, false));
    for pos in sample_positions().iter().take(6) {
        for plies in [0, 1, 2] {
            let v = cubeful_nply(&search, pos, &states, met, plies).unwrap().values;
            assert!(v[0] >= v[1] - 1e-9 && v[1] >= v[2] - 1e-9, "{} {plies}: {v:?}", pos.to_position_id());
        }
    }
}

#[test]
fn states_decided_together_or_apart_agree() {
    let search = Search::new(NetEvaluator::shipped().unwrap());
    let met = Met::kazaross_xg2();
    let pos = sample_positions()[1];
    let states: Vec<CubeState> = sample_contexts().iter().map(|c| CubeState::from_context(c, met).unwrap()).collect();
    let together = analyse_states_nply(&search, &pos, &states, met, 1).unwrap();
    for (s, a) in states.iter().zip(&together) {
        let alone = analyse_states_nply(&search, &pos, std::slice::from_ref(s), met, 1).unwrap();
        assert_eq!(&alone[0], a);
    }
}

/// In money play a bearoff the two-sided database holds gets its exact
/// cubeful equities at every depth; in a match it is searched (Janowski at
/// the leaves). One checker on the 4-point against one on the ace point:
/// 34/36 to win, no double worth 32/36, double/pass.
#[test]
fn exact_bearoffs_are_leaves_in_money_play() {
    let net = NetEvaluator::shipped().unwrap();
    let search = Search::new(net.clone());
    let met = Met::kazaross_xg2();
    let (mut me, mut him) = ([0u8; 25], [0u8; 25]);
    me[3] = 1;
    him[0] = 1;
    let pos = Position::from_boards(&me, &him).unwrap();
    let money = GameContext::money();
    for plies in 0..=2 {
        let a = analyse_position_nply(&search, &pos, &money, met, plies).unwrap();
        assert!((a.no_double - 32.0 / 36.0).abs() < 1e-6, "{plies}: {a:?}");
        assert!((a.double_take - 64.0 / 36.0).abs() < 1e-6, "{plies}: {a:?}");
        assert_eq!((a.action.as_str(), a.best()), ("Double, pass", 1.0), "{plies}");
    }
    let a = analyse_position(&net, &pos, &money, met).unwrap();
    assert!((a.no_double - 32.0 / 36.0).abs() < 1e-6, "{a:?}");
    assert!(a.exact_bearoff && a.facts().contains(&gammon_engine::cube::Fact::ExactBearoff));
    // Match play keeps the model.
    let m = analyse_position(&net, &pos, &GameContext::new_match(7), met).unwrap();
    assert!(!m.exact_bearoff && !m.facts().contains(&gammon_engine::cube::Fact::ExactBearoff));
    // Janowski with x = 0.6 would say otherwise: the exact values were used.
    let janowski = gammon_engine::cube::analyse(&a.probabilities, a.efficiency, &a.state, met).unwrap();
    assert!((janowski.no_double - a.no_double).abs() > 1e-3, "{janowski:?}");
}
