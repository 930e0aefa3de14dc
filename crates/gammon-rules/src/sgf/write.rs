//! Writing a [`MatchRecord`] in gnubg's SGF dialect (`GM[6]`), with a stored
//! analysis when one is given, so that gnubg's `load match` shows the
//! equities and marks and gammon's reader reads the same games back.
//!
//! The layout is gnubg's `SaveGame`: one game tree per game, its root
//! `FF[4]GM[6]CA[UTF-8]AP[…]MI[length:L][game:K][ws:W][bs:B]PW[…]PB[…]`,
//! the first game's `DT`, `EV`, `RO`, `PC`, `AN` (from the headers `EventDate`,
//! `Event`, `Round`, `Site`, `Transcriber`: gammon's reader maps them back),
//! `RU` (`NoCube`, `Crawford`, `CrawfordGame`, `Jacoby`) and `RE`
//! (`W+2`, `B+1R`), then one node per action: `;B[41lpab]` (dice, then a
//! from/to letter pair per die: `a`..`x` White's points 1..24, `y` the
//! bar, `z` off), `;W[double]`, `;B[take]`, `;B[drop]`. A beaver is
//! gnubg's pair: the taker's `double`, then the doubler's `take`. A
//! resignation has no node: `RE[…R]` says it.
//!
//! Analysis, in gnubg's format version 3 (what gnubg 1.07 writes):
//! - a move node's chequer play: `A[i][move E ver 3 w wg wbg lg lbg eq
//!   plies C 0 1 0.000000 1]…MR[]`, `i` the played candidate; `eq` is the
//!   normalised cubeful equity gnubg ranks by (EMG in a match);
//! - the cube decision of the player on roll, on his move node (no
//!   double), his `double` node and the answer's node: `DA[E ver 3 plies C 1
//!   0.000000 1` and gnubg's two output rows, no double and double/take:
//!   the five probabilities, the cubeless equity and the cubeful value.
//!   gnubg keeps that cubeful value as match winning chances in a match
//!   (it shows EMG by converting back with its match equity table), so a
//!   match's values are converted with the [`MatchEquity`] given: with
//!   gnubg's default table (Kazaross-XG2) gnubg shows the stored EMG.
//!   Double/pass is not stored: gnubg computes it from its table;
//! - marks as gnubg's analysis sets them (its default thresholds: an error
//!   of 0.04 doubtful, 0.08 bad, 0.16 very bad, normalised): `DO[]`,
//!   `BM[1]`, `BM[2]` for the move (or the cube action of a cube node),
//!   `DC[]`, `BC[1]`, `BC[2]` for the cube decision on a move node.
//!
//! What gnubg wants and gammon does not have is written as gnubg's defaults:
//! the evaluation settings (deterministic, no noise, pruning on; the plies
//! from a depth named `N-ply`, else 0) and probabilities not stored
//! (zeros). A cube decision's cubeless equity is computed from its
//! probabilities as gnubg's `Utility` does (in a match through the table,
//! as EMG). Luck is not stored (a `StoredAnalysis` has none). Rollouts are
//! written as evaluations of their depth. A
//! chequer analysis without the played move among its candidates is not
//! written (gnubg needs the played move in the list).

use crate::mat::{GameText, MatAction, MatEntry, MatchRecord, WinHow, WriteMatchError};
use crate::{Dice, MatchEquity, MoveList, Seat, StoredAnalysis, StoredCube, StoredMove};
use std::fmt::Write as _;

/// The analysis to store with the match, and the table that turns a
/// match's equities into the match winning chances gnubg keeps.
#[derive(Clone, Copy)]
pub struct SgfAnalysis<'a> {
    /// The analysis, by `(game, record)` of the record written.
    pub stored: &'a StoredAnalysis,
    /// gnubg's `eq2mwc` (unused in money play).
    pub equity: &'a dyn MatchEquity,
}

impl std::fmt::Debug for SgfAnalysis<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SgfAnalysis").field("stored", self.stored).finish_non_exhaustive()
    }
}

/// gnubg's default skill thresholds (normalised equity lost).
const DOUBTFUL: f64 = 0.04;
const BAD: f64 = 0.08;
const VERY_BAD: f64 = 0.16;

/// Writes `record` in gnubg's SGF dialect, with `analysis` stored when given.
///
/// ```
/// use gammon_rules::{parse_mat, parse_sgf, write_sgf};
/// let text = " 1 point match\n\n Game 1\n A : 0         B : 0\n  1)           31: 8/5 6/5\n  2) 42: 8/4 6/4\n";
/// let record = parse_mat(text).unwrap();
/// let sgf = write_sgf(&record, None).unwrap();
/// assert!(sgf.contains("PW[A]PB[B]") && sgf.contains(";B[31qtst]"));
/// let back = parse_sgf(&sgf).unwrap();
/// let actions = |m: &gammon_rules::MatchRecord| -> Vec<_> {
///     m.games[0].records.iter().map(|r| (r.player, r.position, r.action.clone())).collect()
/// };
/// assert_eq!(actions(&back), actions(&record));
/// ```
///
/// # Errors
/// A player name that gnubg cannot read back (empty, blanks around it, a
/// line break).
pub fn write_sgf(record: &MatchRecord, analysis: Option<SgfAnalysis<'_>>) -> Result<String, WriteMatchError> {
    for name in &record.players {
        check_name(name)?;
    }
    let mut out = String::new();
    for (g, game) in record.games.iter().enumerate() {
        write_root(&mut out, record, game, g == 0);
        for (r, entry) in game.records.iter().enumerate() {
            let stored = analysis.and_then(|a| a.stored.records.get(&(g, r)).map(|s| (a, s)));
            write_node(&mut out, game, entry, stored.map(|(a, s)| (a.equity, s.cube.as_ref(), s.chequer.as_ref())));
        }
        out.push_str(")\n");
    }
    Ok(out)
}

fn check_name(name: &str) -> Result<(), WriteMatchError> {
    let bad = |why| Err(WriteMatchError::Name { name: name.to_string(), format: "SGF", why });
    if name.trim().is_empty() {
        return bad("it is empty");
    }
    if name.trim() != name {
        return bad("it starts or ends with a blank (gnubg and gammon trim names)");
    }
    if name.contains(['\n', '\r']) {
        return bad("it has a line break");
    }
    Ok(())
}

/// An SGF value: `\` and `]` escaped.
fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

fn colour(seat: Seat) -> char {
    if seat == Seat::Zero {
        'W'
    } else {
        'B'
    }
}

/// The headers gnubg keeps in the first game's root, by their `.mat` keys.
const HEADERS: [(&str, &str); 4] = [("Event", "EV"), ("Round", "RO"), ("Site", "PC"), ("Transcriber", "AN")];

/// The headers of `record` (by their `.mat` keys) that [`write_sgf`] has no
/// place for: gnubg's SGF keeps the event, round, site, transcriber and
/// date, and says the players, the Crawford and Jacoby rules and the game
/// of backgammon from the record's own fields (not beavers nor a cube
/// limit).
pub fn sgf_headers_not_written(record: &MatchRecord) -> Vec<&str> {
    record
        .headers
        .iter()
        .filter(|(key, value)| {
            let said = ["EventDate", "Player 1", "Player 2", "Crawford", "Jacoby"];
            let written = HEADERS.iter().any(|(k, _)| k == key)
                || said.iter().any(|s| key.eq_ignore_ascii_case(s))
                || crate::mat::says_backgammon(key, value);
            !written
        })
        .map(|(key, _)| key.as_str())
        .collect()
}

fn write_root(out: &mut String, record: &MatchRecord, game: &GameText, first: bool) {
    let _ = write!(
        out,
        "(;FF[4]GM[6]CA[UTF-8]AP[gammon:{}]MI[length:{}][game:{}][ws:{}][bs:{}]PW[{}]PB[{}]",
        env!("CARGO_PKG_VERSION"),
        record.match_length,
        game.number.saturating_sub(1),
        game.score[0],
        game.score[1],
        escape(&record.players[0]),
        escape(&record.players[1]),
    );
    if first {
        if let Some(date) = record.headers.get("EventDate") {
            let _ = write!(out, "DT[{}]", escape(&date.replace('.', "-")));
        }
        for (key, ident) in HEADERS {
            if let Some(v) = record.headers.get(key).filter(|v| !v.is_empty()) {
                let _ = write!(out, "{ident}[{}]", escape(v));
            }
        }
    }
    let mut rules = Vec::new();
    if !record.rules.cube {
        rules.push("NoCube");
    }
    if record.match_length > 0 && record.crawford {
        rules.push("Crawford");
        if game.state.is_crawford() {
            rules.push("CrawfordGame");
        }
    }
    if record.match_length == 0 && record.rules.jacoby {
        rules.push("Jacoby");
    }
    if !rules.is_empty() {
        let _ = write!(out, "RU[{}]", rules.join(":"));
    }
    if let Some((winner, points)) = game.result {
        let resigned = game
            .records
            .iter()
            .any(|r| matches!(r.action, MatAction::Resign { .. } | MatAction::Win { how: WinHow::Resigned(_), .. }));
        let _ = write!(out, "RE[{}+{points}{}]", colour(winner), if resigned { "R" } else { "" });
    }
}

/// A point in gnubg's letters for `mover`: his point `p` (25 the bar, 0 off).
fn letter(p: u8, mover: Seat) -> char {
    match p {
        25 => 'y',
        0 => 'z',
        p @ 1..=24 if mover == Seat::Zero => char::from(b'a' + p - 1),
        p @ 1..=24 => char::from(b'x' + 1 - p),
        // Not a point: a record built by hand; gnubg refuses the move.
        _ => '?',
    }
}

fn letters(steps: impl Iterator<Item = (u8, u8)>, mover: Seat) -> String {
    steps.flat_map(|(from, to)| [letter(from, mover), letter(to, mover)]).collect()
}

type NodeAnalysis<'a> = (&'a dyn MatchEquity, Option<&'a StoredCube>, Option<&'a StoredMove>);

fn write_node(out: &mut String, game: &GameText, entry: &MatEntry, analysis: Option<NodeAnalysis<'_>>) {
    let who = colour(entry.player);
    let other = colour(entry.player.other());
    let (equity, cube, chequer) = match analysis {
        Some((e, c, m)) => (Some(e), c, m),
        None => (None, None, None),
    };
    // The cube decision is the doubler's: the player on roll, or the
    // one who doubled when this is the answer.
    let doubler = match entry.action {
        MatAction::Take | MatAction::Drop | MatAction::Beaver => entry.player.other(),
        _ => entry.player,
    };
    let da = cube.zip(equity).map(|(c, e)| double_analysis(game, entry, doubler, c, e));
    match &entry.action {
        MatAction::Move { dice, mv, .. } => {
            let steps = mv.steps().iter().map(|s| (s.from, s.to));
            let _ = write!(out, "\n;{who}[{}{}{}]", dice.high(), dice.low(), letters(steps, entry.player));
            write_roll_analysis(out, entry, *dice, da, cube, chequer);
        }
        MatAction::Dance { dice } => {
            let _ = write!(out, "\n;{who}[{}{}]", dice.high(), dice.low());
            write_roll_analysis(out, entry, *dice, da, cube, None);
        }
        MatAction::Double { .. } => {
            let _ = write!(out, "\n;{who}[double]");
            write_cube_node(out, da, cube.map(|c| cube_error(c, CubeAct::Double)));
        }
        MatAction::Take => {
            let _ = write!(out, "\n;{who}[take]");
            write_cube_node(out, da, cube.map(|c| cube_error(c, CubeAct::Take)));
        }
        MatAction::Drop => {
            let _ = write!(out, "\n;{who}[drop]");
            write_cube_node(out, da, cube.map(|c| cube_error(c, CubeAct::Drop)));
        }
        // gnubg's beaver: the taker redoubles, the doubler takes.
        MatAction::Beaver => {
            let _ = write!(out, "\n;{who}[double]\n;{other}[take]");
        }
        MatAction::Resign { .. } | MatAction::Win { .. } => {}
    }
}

fn write_cube_node(out: &mut String, da: Option<String>, error: Option<f64>) {
    if let Some(da) = da {
        out.push_str(&da);
    }
    if let Some(e) = error {
        out.push_str(skill(e, "BM", "DO"));
    }
}

/// A move or dance node's analysis: the cube decision before the roll,
/// the chequer play, the marks.
fn write_roll_analysis(
    out: &mut String,
    entry: &MatEntry,
    dice: Dice,
    da: Option<String>,
    cube: Option<&StoredCube>,
    chequer: Option<&StoredMove>,
) {
    if let Some(da) = da {
        out.push_str(&da);
    }
    if let Some(a) = chequer.and_then(|m| move_analysis(entry, dice, m)) {
        out.push_str(&a);
    }
    if let Some(loss) = chequer.and_then(StoredMove::loss) {
        out.push_str(skill(-loss, "BM", "DO"));
    }
    if let Some(c) = cube {
        out.push_str(skill(cube_error(c, CubeAct::NoDouble), "BC", "DC"));
    }
}

/// gnubg's mark of an error (a normalised equity lost, negative).
fn skill(error: f64, bad: &str, doubtful: &str) -> &'static str {
    match (bad, doubtful) {
        ("BM", _) if error < -VERY_BAD => "BM[2]",
        ("BM", _) if error < -BAD => "BM[1]",
        ("BM", _) if error < -DOUBTFUL => "DO[]",
        ("BC", _) if error < -VERY_BAD => "BC[2]",
        ("BC", _) if error < -BAD => "BC[1]",
        ("BC", _) if error < -DOUBTFUL => "DC[]",
        _ => "",
    }
}

#[derive(Clone, Copy)]
enum CubeAct {
    NoDouble,
    Double,
    Take,
    Drop,
}

/// The equity an action gave up against the best one (0 or negative), by
/// the stored values: the doubler's for no double and double, the taker's
/// for take and drop.
fn cube_error(c: &StoredCube, act: CubeAct) -> f64 {
    let doubled = c.double_take.min(c.double_pass);
    let best = c.no_double.max(doubled);
    match act {
        CubeAct::NoDouble => c.no_double - best,
        CubeAct::Double => doubled - best,
        CubeAct::Take => doubled - c.double_take,
        CubeAct::Drop => doubled - c.double_pass,
    }
}

/// The plies of a depth named `… N-ply …`; 0 otherwise.
fn plies(depth: &str) -> u32 {
    depth
        .find("-ply")
        .and_then(|end| {
            let digits = depth[..end].chars().rev().take_while(char::is_ascii_digit).count();
            depth[end - digits..end].parse().ok()
        })
        .unwrap_or(0)
}

fn six(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        "0.000000".into()
    }
}

/// The money equity of cubeless probabilities (cumulative gammons).
fn cubeless_equity(p: &[f64; 5]) -> f64 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

/// gnubg's cubeless equity in a match: the match winning chances of the
/// probabilities (each result's points times the cube, from the table) as
/// EMG, as its `Utility` computes it.
fn match_cubeless_equity(p: &[f64; 5], equity: &dyn MatchEquity, cube: u32, away: (u32, u32), crawford: bool) -> f64 {
    // +1 at a cube of k times the cube is winning k times its points.
    let win = |k: u32| equity.eq2mwc(1.0, cube.saturating_mul(k), away, crawford);
    let lose = |k: u32| equity.eq2mwc(-1.0, cube.saturating_mul(k), away, crawford);
    let mwc = p[0] * win(1) + (1.0 - p[0]) * lose(1) + p[1] * (win(2) - win(1)) + p[2] * (win(3) - win(2))
        - p[3] * (lose(1) - lose(2))
        - p[4] * (lose(2) - lose(3));
    equity.mwc2eq(mwc, cube, away, crawford)
}

fn probabilities(p: Option<&[f64; 5]>) -> [f64; 5] {
    p.copied().unwrap_or([0.0; 5])
}

/// `DA[…]`: gnubg's two output rows, the cubeful values as match winning
/// chances in a match.
fn double_analysis(
    game: &GameText,
    entry: &MatEntry,
    doubler: Seat,
    c: &StoredCube,
    equity: &dyn MatchEquity,
) -> String {
    let p = probabilities(c.probabilities.as_ref());
    let away = game.state.away().map(|a| (a[doubler.index()], a[doubler.other().index()]));
    let (cube, crawford) = (entry.cube.value, game.state.is_crawford());
    let cubeless = match (c.probabilities.is_some(), away) {
        (false, _) => 0.0,
        (true, None) => cubeless_equity(&p),
        (true, Some(away)) => match_cubeless_equity(&p, equity, cube, away, crawford),
    };
    let value = |eq: f64| away.map_or(eq, |away| equity.eq2mwc(eq, cube, away, crawford));
    let mut s = format!("DA[E ver 3 {}C 1 0.000000 1", plies(&c.depth));
    for cubeful in [value(c.no_double), value(c.double_take)] {
        for x in p.iter().chain([&cubeless, &cubeful]) {
            let _ = write!(s, " {}", six(*x));
        }
    }
    s.push(']');
    s
}

/// `A[i][…]…MR[]`: the candidates as gnubg lists them, or `None` when a
/// candidate is not a legal move of the roll or the played move is not
/// among them.
fn move_analysis(entry: &MatEntry, dice: Dice, m: &StoredMove) -> Option<String> {
    let played = m.played.filter(|&i| i < m.candidates.len())?;
    let mut list = MoveList::new();
    list.generate(&entry.position, dice);
    let mut s = format!("A[{played}]");
    for c in &m.candidates {
        // The candidate's move: the legal move that leads to its position.
        let (mv, _) = list.iter().find(|(_, after)| after.switched() == c.after)?;
        let p = probabilities(c.probabilities.as_ref());
        let _ = write!(s, "[{} E ver 3", letters(mv.steps().iter().map(|s| (s.from, s.to)), entry.player));
        for x in p.iter().chain([&c.equity]) {
            let _ = write!(s, " {}", six(*x));
        }
        let _ = write!(s, " {}C 0 1 0.000000 1]", plies(&c.depth));
    }
    s.push_str("MR[]");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_count_from_whites_side() {
        // White's 24-point is x, Black's 24-point is a; the bar y, off z.
        assert_eq!(letters([(24, 21), (25, 20), (3, 0)].into_iter(), Seat::Zero), "xuytcz");
        assert_eq!(letters([(24, 21), (25, 20), (3, 0)].into_iter(), Seat::One), "adyevz");
    }

    #[test]
    fn plies_are_read_from_the_depth_name() {
        assert_eq!(plies("2-ply"), 2);
        assert_eq!(plies("gammon-net 3-ply"), 3);
        assert_eq!(plies("XG Roller+"), 0);
    }

    #[test]
    fn cube_errors_follow_the_best_action() {
        // A take: ND 0.6, DT 0.8, DP 1.0: double/take is right.
        let c = StoredCube {
            no_double: 0.6,
            double_take: 0.8,
            double_pass: 1.0,
            probabilities: None,
            depth: "2-ply".into(),
        };
        assert!((cube_error(&c, CubeAct::NoDouble) + 0.2).abs() < 1e-12);
        assert_eq!(cube_error(&c, CubeAct::Double), 0.0);
        assert_eq!(cube_error(&c, CubeAct::Take), 0.0);
        assert!((cube_error(&c, CubeAct::Drop) + 0.2).abs() < 1e-12);
        assert_eq!(skill(-0.2, "BC", "DC"), "BC[2]");
        assert_eq!(skill(-0.05, "BM", "DO"), "DO[]");
        assert_eq!(skill(-0.01, "BM", "DO"), "");
    }
}
