//! The words of a review that the text report and the HTML page share: the
//! settings line, the unit, the summary rows, what a cube choice was.

use gammon_engine::review::{luck_rating, CubeChoice, GameReview, Mark, MatchReview, PlayerSummary, RecordReview};
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

/// The short name of the program whose analysis the file stored: "XG" for
/// eXtreme Gammon, "gnubg" for GNU Backgammon, else as the file names it
/// (cut to 16 characters).
pub(super) fn stored_name(r: &MatchReview) -> Option<std::borrow::Cow<'_, str>> {
    let program = r.stored_program.as_deref()?;
    Some(if program.contains("eXtreme Gammon") {
        "XG".into()
    } else if program.starts_with("GNU Backgammon") {
        "gnubg".into()
    } else {
        gammon_rules::shorten(program, 16)
    })
}

/// The stored program's verdict on a record, in a few words: "XG (2-ply):
/// move lost 0.045; cube lost 0.000 (3-ply)".
pub(super) fn stored_verdict(r: &MatchReview, rec: &RecordReview) -> Option<String> {
    let name = stored_name(r)?;
    let stored = rec.stored.as_ref()?;
    let mut parts = Vec::new();
    if let (Some(c), Some(loss)) = (&stored.record.chequer, stored.loss) {
        let depth = c.played.and_then(|k| c.candidates.get(k)).map(|m| m.depth.as_str()).unwrap_or("");
        parts.push(format!(
            "move lost {loss:.3}{}",
            if depth.is_empty() { String::new() } else { format!(" ({depth})") }
        ));
    }
    if let (Some(c), Some(error)) = (&stored.record.cube, stored.cube_error) {
        parts.push(format!("cube lost {error:.3} ({})", c.depth));
    }
    (!parts.is_empty()).then(|| format!("{name}: {}", parts.join("; ")))
}

/// The worst mark the stored numbers give a record (the same thresholds as
/// gammon's marks).
pub(super) fn stored_mark(rec: &RecordReview) -> Mark {
    let Some(s) = &rec.stored else { return Mark::None };
    let unforced = rec.chequer.as_ref().is_some_and(|c| !c.forced);
    let close = rec.cube.as_ref().is_some_and(|c| c.close);
    let move_mark = s.loss.filter(|_| unforced).map_or(Mark::None, Mark::of_loss);
    let cube_mark = s.cube_error.filter(|_| close).map_or(Mark::None, Mark::of_loss);
    move_mark.max(cube_mark)
}

/// The stored program's rows of the per-player table.
pub(super) fn stored_rows(r: &MatchReview) -> Vec<(String, [String; 2])> {
    let Some(name) = stored_name(r) else { return Vec::new() };
    let each = |f: &dyn Fn(&PlayerSummary) -> String| [f(&r.summary[0]), f(&r.summary[1])];
    vec![
        (
            format!("Moves and cube decisions analysed by {name}"),
            each(&|p| format!("{}/{}", p.stored.moves, p.stored.cube_decisions)),
        ),
        (format!("Chequer error rate by {name} (mEMG)"), each(&|p| milli(p.stored.chequer_error_rate()))),
        (format!("Cube error rate by {name} (mEMG)"), each(&|p| milli(p.stored.cube_error_rate()))),
        (format!("Overall error rate by {name} (mEMG)"), each(&|p| milli(p.stored.overall_error_rate()))),
        (format!("PR by {name}"), each(&|p| p.stored.pr().map_or_else(|| "n/a".to_string(), |x| format!("{x:.1}")))),
    ]
}
