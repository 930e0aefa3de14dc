//! The review as a report for people: each game's errors in order, with
//! the board before them, then both players' figures side by side.

use super::words::{
    choice_text, game_result, loss_text, partial_line, settings_line, stored_mark, stored_name, stored_rows,
    stored_verdict, unit, SUMMARY_ROWS,
};
use gammon_engine::review::{ChequerReview, CubeReview, GameReview, MatchReview, RecordReview};
use gammon_rules::{MatAction, MatchRecord};
use std::io::{self, Write};

/// Writes the report.
pub fn report(out: &mut impl Write, r: &MatchReview, record: &MatchRecord) -> io::Result<()> {
    header(out, r, record)?;
    for game in &r.games {
        game_errors(out, r, game)?;
    }
    summary(out, r)
}

/// "a 7-point match" or "a money session".
pub(super) fn describe_length(length: u32) -> String {
    if length == 0 {
        "money session".to_string()
    } else {
        format!("{length}-point match")
    }
}

/// Equity with its sign, three decimals.
pub(super) fn eq(x: f64) -> String {
    format!("{x:+.3}")
}

fn header(out: &mut impl Write, r: &MatchReview, record: &MatchRecord) -> io::Result<()> {
    let [a, b] = &r.players;
    let games = r.games.len();
    writeln!(
        out,
        "{a} vs {b}: {}, {games} game{}",
        describe_length(r.match_length),
        if games == 1 { "" } else { "s" }
    )?;
    if let Some(event) = record.headers.get("Event") {
        writeln!(out, "Event: {event}")?;
    }
    if let Some(partial) = partial_line(r, record) {
        crate::text::write_wrapped(out, &format!("{partial}."), "", "  ")?;
    }
    let line = settings_line(r);
    crate::text::write_wrapped(out, &line, "", "  ")?;
    let marks = format!("Losses in {}; marked: ?! doubtful (> 0.03), ? bad (> 0.06), ?? very bad (> 0.12)", unit(r));
    crate::text::write_wrapped(out, &marks, "", "  ")?;
    if let (Some(name), Some(program)) = (stored_name(r), &r.stored_program) {
        let line = format!(
            "The file holds {program}'s analysis: its verdict follows gammon's on every error, and errors only {name} \
             marks are listed too"
        );
        crate::text::write_wrapped(out, &line, "", "  ")?;
    }
    Ok(())
}

fn game_errors(out: &mut impl Write, r: &MatchReview, game: &GameReview) -> io::Result<()> {
    writeln!(out)?;
    let result = game_result(r, game);
    let crawford = if game.crawford { ", Crawford game" } else { "" };
    let [a, b] = &r.players;
    writeln!(out, "Game {}: {a} {}, {b} {}{crawford}: {result}", game.number, game.score[0], game.score[1])?;
    let mut errors = 0;
    let marked = |rec: &&RecordReview| {
        rec.worst_mark() != gammon_engine::review::Mark::None || stored_mark(rec) != gammon_engine::review::Mark::None
    };
    for rec in game.records.iter().filter(marked) {
        errors += 1;
        record_error(out, r, rec)?;
    }
    if errors == 0 {
        writeln!(out, "  no marked errors")?;
    }
    Ok(())
}

fn place(r: &MatchReview, rec: &RecordReview) -> String {
    let who = &r.players[rec.player.index()];
    match rec.move_number {
        Some(n) => format!("move {n}, {who}"),
        None => who.clone(),
    }
}

fn record_error(out: &mut impl Write, r: &MatchReview, rec: &RecordReview) -> io::Result<()> {
    writeln!(out)?;
    let money = r.match_length == 0;
    if let Some(c) = rec.cube.as_ref().filter(|c| c.mark != gammon_engine::review::Mark::None) {
        cube_error(out, r, rec, c, money)?;
    }
    if let Some(c) = rec.chequer.as_ref().filter(|c| c.mark != gammon_engine::review::Mark::None) {
        chequer_error(out, r, rec, c, money)?;
    }
    if rec.worst_mark() == gammon_engine::review::Mark::None {
        let mark = stored_mark(rec);
        let dice = rec.dice().map(|d| format!(", rolled {d}")).unwrap_or_default();
        let name = stored_name(r).unwrap_or_default();
        writeln!(
            out,
            "  {}{dice}: {} {} by {name} only (gammon: no error)",
            place(r, rec),
            mark.name(),
            mark.symbol()
        )?;
    }
    if let Some(verdict) = stored_verdict(r, rec) {
        writeln!(out, "    {verdict}")?;
    }
    Ok(())
}

fn chequer_error(
    out: &mut impl Write,
    r: &MatchReview,
    rec: &RecordReview,
    c: &ChequerReview,
    money: bool,
) -> io::Result<()> {
    let dice = rec.dice().map(|d| d.to_string()).unwrap_or_default();
    writeln!(
        out,
        "  {}: rolled {dice}, {} {}: lost {}",
        place(r, rec),
        c.mark.name(),
        c.mark.symbol(),
        loss_text(c.loss, c.loss_mwc)
    )?;
    for line in rec.position.board_diagram().lines() {
        writeln!(out, "    {line}")?;
    }
    let pos = &rec.position;
    let value = |m: &gammon_engine::api::CubefulMove| match (money, m.mwc) {
        (false, Some(mwc)) => format!("{} ({:.2}%)", eq(m.equity), 100.0 * mwc),
        _ => eq(m.equity),
    };
    for (i, m) in c.candidates.iter().enumerate() {
        let tag = if m.result == c.played.result { "played" } else { "" };
        // A move the filter dropped was valued at a shallower depth.
        let depth = if m.plies < r.settings.plies { format!("({}-ply)", m.plies) } else { String::new() };
        writeln!(
            out,
            "    {:>2}. {:<24} {:>16}  {:>7} {depth:<8} {tag}",
            i + 1,
            pos.format_move(&m.mv),
            value(m),
            if m.loss > 0.0 { format!("-{:.3}", m.loss) } else { String::new() }
        )?;
    }
    Ok(())
}

fn cube_error(
    out: &mut impl Write,
    r: &MatchReview,
    rec: &RecordReview,
    c: &CubeReview,
    money: bool,
) -> io::Result<()> {
    writeln!(
        out,
        "  {}: {}, {} {}: lost {}",
        place(r, rec),
        choice_text(c.choice),
        c.mark.name(),
        c.mark.symbol(),
        loss_text(c.error, c.error_mwc)
    )?;
    if !matches!(rec.action, MatAction::Take | MatAction::Drop | MatAction::Beaver) {
        for line in rec.position.board_diagram().lines() {
            writeln!(out, "    {line}")?;
        }
    }
    let a = &c.analysis;
    let mwc = |f: fn(&gammon_engine::cube::MatchChances) -> f64| match (money, a.match_chances) {
        (false, Some(m)) => format!(" ({:.2}%)", 100.0 * f(&m)),
        _ => String::new(),
    };
    writeln!(out, "    No double     {}{}", eq(a.no_double), mwc(|m| m.no_double))?;
    writeln!(out, "    Double, take  {}{}", eq(a.double_take), mwc(|m| m.double_take))?;
    writeln!(out, "    Double, pass  {}{}", eq(a.double_pass), mwc(|m| m.double_pass))?;
    writeln!(out, "    Proper cube action: {}", a.action)
}

fn summary(out: &mut impl Write, r: &MatchReview) -> io::Result<()> {
    writeln!(out)?;
    let [a, b] = &r.summary;
    writeln!(out, "{:<40} {:>20} {:>20}", "", a.name, b.name)?;
    for (label, figure) in SUMMARY_ROWS {
        writeln!(out, "{label:<40} {:>20} {:>20}", figure(a), figure(b))?;
    }
    for (label, [x, y]) in stored_rows(r) {
        writeln!(out, "{label:<40} {x:>20} {y:>20}")?;
    }
    Ok(())
}
