//! The words of a review that the text report and the HTML page share: the
//! settings line, the unit, the summary rows, what a cube choice was.

use gammon_engine::review::{luck_rating, CubeChoice, GameReview, MatchReview, PlayerSummary};
use gammon_engine::search::MoveFilter;
use gammon_rules::MatchRecord;

/// How the review was made: depths, filter, screen, time, threads, and in
/// a match the match equity table.
pub(super) fn settings_line(r: &MatchReview) -> String {
    let s = &r.settings;
    let table = if r.match_length > 0 { format!(", match equity table {}", r.met) } else { String::new() };
    format!(
        "Reviewed by {} at {}-ply (moves; {} filter{}), {}-ply (cube), {}-ply (luck), in {:.1} s on {} thread{}{table}",
        r.evaluator,
        s.plies,
        if s.filter == MoveFilter::LARGE { "large" } else { "normal" },
        if s.prune > 0 { format!(", pubeval screen of {}", s.prune) } else { String::new() },
        s.cube_plies,
        s.luck_plies,
        r.elapsed.as_secs_f64(),
        r.threads,
        if r.threads == 1 { "" } else { "s" }
    )
}

/// For a review stopped part way, what it covers: "Partial review
/// (stopped): 40 of 120 records: games 1 to 3 of 9 in full and 12 of the
/// 30 records of game 4; the summary counts only these."
pub(super) fn partial_line(r: &MatchReview, record: &MatchRecord) -> Option<String> {
    if !r.is_partial() {
        return None;
    }
    let last = r.games.last()?;
    let in_file = record.games.get(r.games.len() - 1).map_or(0, |g| g.records.len());
    let cut = (last.records.len() < in_file)
        .then(|| format!("{} of the {in_file} records of game {}", last.records.len(), last.number));
    let games = record.games.len();
    let covers = match (r.games.len() - usize::from(cut.is_some()), cut) {
        (0, Some(cut)) => format!("the first {cut}"),
        (1, cut) => format!("game 1 of {games} in full{}", cut.map(|c| format!(" and {c}")).unwrap_or_default()),
        (n, cut) => {
            format!("games 1 to {n} of {games} in full{}", cut.map(|c| format!(" and {c}")).unwrap_or_default())
        }
    };
    Some(format!(
        "Partial review (stopped): {} of {} records: {covers}; the summary counts only these",
        r.records_reviewed, r.records
    ))
}

/// The unit of the losses.
pub(super) fn unit(r: &MatchReview) -> &'static str {
    if r.match_length == 0 {
        "money equity per unit of cube"
    } else {
        "normalised equity (EMG)"
    }
}

/// "Alice wins 2 points", or "unfinished".
pub(super) fn game_result(r: &MatchReview, game: &GameReview) -> String {
    match game.result {
        Some((winner, points)) => {
            format!("{} wins {points} point{}", r.players[winner.index()], if points == 1 { "" } else { "s" })
        }
        None => "unfinished".to_string(),
    }
}

/// A loss, with its match winning chances in a match.
pub(super) fn loss_text(loss: f64, mwc: Option<f64>) -> String {
    match mwc {
        Some(m) => format!("{loss:.3} ({:.2}% MWC)", 100.0 * m),
        None => format!("{loss:.3}"),
    }
}

/// What a player did with the cube.
pub(super) fn choice_text(c: CubeChoice) -> &'static str {
    match c {
        CubeChoice::NoDouble => "did not double",
        CubeChoice::Double => "doubled",
        CubeChoice::Take => "took",
        CubeChoice::Beaver => "beavered",
        CubeChoice::Pass => "passed",
    }
}

fn milli(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_string(), |x| format!("{:.1}", 1000.0 * x))
}

fn marks(m: &gammon_engine::review::MarkCounts) -> String {
    format!("{}/{}/{}", m.doubtful, m.bad, m.very_bad)
}

/// A row of the per-player table: its label and each player's figure.
pub(super) type SummaryRow = (&'static str, fn(&PlayerSummary) -> String);

/// The rows of the per-player table, in order.
pub(super) const SUMMARY_ROWS: [SummaryRow; 12] = [
    ("Unforced moves", |p| p.unforced_moves.to_string()),
    ("Moves marked doubtful/bad/very bad", |p| marks(&p.move_marks)),
    ("Chequer error rate (mEMG)", |p| milli(p.chequer_error_rate())),
    ("Close or actual cube decisions", |p| p.close_cube_decisions.to_string()),
    ("Cube errors doubtful/bad/very bad", |p| marks(&p.cube_marks)),
    ("Cube error rate (mEMG)", |p| milli(p.cube_error_rate())),
    ("Overall error rate (mEMG)", |p| milli(p.overall_error_rate())),
    ("Snowie error rate (mEMG)", |p| milli(p.snowie_error_rate())),
    ("PR (XG)", |p| p.pr().map_or_else(|| "n/a".to_string(), |x| format!("{x:.1}"))),
    ("Luck per roll (mEMG)", |p| milli(p.luck_rate())),
    ("Luck rating", |p| p.luck_rate().map_or("n/a", luck_rating).to_string()),
    ("Rating", |p| p.rating().map_or("n/a", |x| x.name()).to_string()),
];
