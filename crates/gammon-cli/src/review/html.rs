//! The review as one self-contained HTML page (`gammon review --html`):
//! the players and result, the settings, both players' figures, then per
//! game each marked error with an SVG board of the position before it, the
//! candidate moves or the cube equities. Nothing is fetched: the style and
//! the boards are inline, and there is no script (every record of a game
//! is in a `<details>` list the reader opens).
//!
//! Every text that comes from the file (names, headers, moves as written)
//! goes through [`escape`].

use super::escape::escape;
use super::svg_board::{self, Players};
use super::text::{describe_length, eq};
use super::words::{
    choice_text, game_result, loss_text, partial_line, settings_line, stored_mark, stored_name, stored_rows,
    stored_verdict, unit, SUMMARY_ROWS,
};
use gammon_engine::api::CubefulMove;
use gammon_engine::review::{ChequerReview, CubeChoice, CubeReview, GameReview, Mark, MatchReview, RecordReview};
use gammon_rules::{shorten, MatAction, MatchRecord, NAME_CHARS};
use std::fmt::Write;

/// Readable on a phone: one column of at most 52em, tables that scroll
/// sideways rather than overflow, boards as wide as the column.
const STYLE: &str = "body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:52em;margin:0 auto;\
padding:0 .8em 2em;line-height:1.4;color:#1b1b1b;background:#fdfcf8}h1{font-size:1.5em;margin:.8em 0 .2em}\
h2{font-size:1.25em;margin-top:1.6em;border-bottom:2px solid #ccc}h3{font-size:1.05em;margin:.2em 0 .4em}\
.meta{color:#444;margin:.2em 0}.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.4em 0}\
th,td{padding:.2em .6em;text-align:right;border-bottom:1px solid #ddd;white-space:nowrap}\
th:first-child,td:first-child{text-align:left}td.mv{text-align:left;font-family:ui-monospace,monospace}\
tr.played td{background:#ffe9a8;font-weight:600}tr.best td{color:#185c26}\
article.err{border:1px solid #ddd;border-radius:6px;padding:.6em;margin:1em 0;background:#fff}\
.mark-doubtful{color:#8a6d00}.mark-bad{color:#b35900}.mark-very-bad{color:#b00020}\
svg.board{width:100%;max-width:34em;height:auto;display:block;margin:.3em 0}\
svg .pt{font-size:9px;text-anchor:middle;fill:#333}svg .n{font-size:11px;font-weight:700;text-anchor:middle}\
svg .off{font-size:9px;text-anchor:middle;fill:#222}svg .cv{font-size:13px;font-weight:700;text-anchor:middle}\
svg .who{font-size:11px;fill:#222}details{margin:.6em 0}summary{cursor:pointer;color:#245}\
.partial{background:#fff3cd;border:1px solid #e0c060;border-radius:6px;padding:.5em .7em}";

/// The page.
pub fn page(r: &MatchReview, record: &MatchRecord) -> String {
    let [a, b] = &r.players;
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Review: {} vs {}</title><style>{STYLE}</style></head><body>\n",
        escape(a),
        escape(b)
    );
    title(&mut s, r, record);
    summary(&mut s, r);
    for game in &r.games {
        game_section(&mut s, r, game);
    }
    s.push_str("</body></html>\n");
    s
}

/// The score after the last game reviewed.
fn final_score(r: &MatchReview) -> [u32; 2] {
    let Some(last) = r.games.last() else { return [0, 0] };
    let mut score = last.score;
    if let Some((winner, points)) = last.result {
        score[winner.index()] += points;
    }
    score
}

fn title(s: &mut String, r: &MatchReview, record: &MatchRecord) {
    let [a, b] = &r.players;
    let _ = writeln!(s, "<h1>{} vs {}</h1>", escape(a), escape(b));
    let score = final_score(r);
    let games = r.games.len();
    let result = match (0..2).find(|&i| r.match_length > 0 && score[i] >= r.match_length) {
        _ if r.is_partial() => "a partial review".to_string(),
        Some(i) => format!("{} wins the match {}–{}", escape(&r.players[i]), score[i], score[1 - i]),
        None if r.match_length == 0 => format!("final score {} {}, {} {}", escape(a), score[0], escape(b), score[1]),
        None => format!("unfinished at {} {}, {} {}", escape(a), score[0], escape(b), score[1]),
    };
    let _ = writeln!(
        s,
        "<p class=\"meta\">{}, {games} game{}: {result}</p>",
        describe_length(r.match_length),
        if games == 1 { "" } else { "s" }
    );
    if let Some(partial) = partial_line(r, record) {
        let _ = writeln!(s, "<p class=\"partial\"><strong>{}.</strong></p>", escape(&partial));
    }
    // Headers cut like names: a file's huge header must not fill the page.
    for (key, value) in &record.headers {
        let (key, value) = (shorten(key, NAME_CHARS), shorten(value, 2 * NAME_CHARS));
        let _ = writeln!(s, "<p class=\"meta\">{}: {}</p>", escape(&key), escape(&value));
    }
    let _ = writeln!(s, "<p class=\"meta\">{}.</p>", escape(&settings_line(r)));
    let unit = unit(r);
    let _ = writeln!(
        s,
        "<p class=\"meta\">Losses in {unit}; marked ?! doubtful (&gt; 0.03), ? bad (&gt; 0.06), ?? very bad (&gt; 0.12).</p>"
    );
}

/// The rows of the text report's table, one column per player.
fn summary(s: &mut String, r: &MatchReview) {
    let [a, b] = &r.summary;
    let _ = writeln!(
        s,
        "<h2>Summary</h2><div class=\"scroll\"><table class=\"summary\"><tr><th></th><th>{}</th><th>{}</th></tr>",
        escape(&a.name),
        escape(&b.name)
    );
    for (label, figure) in SUMMARY_ROWS {
        let _ = writeln!(s, "<tr><td>{label}</td><td>{}</td><td>{}</td></tr>", escape(&figure(a)), escape(&figure(b)));
    }
    for (label, [x, y]) in stored_rows(r) {
        let _ = writeln!(s, "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", escape(&label), escape(&x), escape(&y));
    }
    s.push_str("</table></div>\n");
}

fn game_section(s: &mut String, r: &MatchReview, game: &GameReview) {
    let [a, b] = &r.players;
    let result = escape(&game_result(r, game));
    let _ = writeln!(
        s,
        "<h2>Game {}</h2><p class=\"meta\">{} {}, {} {}{}: {result}</p>",
        game.number,
        escape(a),
        game.score[0],
        escape(b),
        game.score[1],
        if game.crawford { ", Crawford game" } else { "" }
    );
    let errors: Vec<&RecordReview> =
        game.records.iter().filter(|rec| rec.worst_mark() != Mark::None || stored_mark(rec) != Mark::None).collect();
    if errors.is_empty() {
        s.push_str("<p>No marked errors.</p>\n");
    }
    for rec in errors {
        record_error(s, r, rec);
    }
    all_records(s, r, game);
}

fn mark_class(mark: Mark) -> &'static str {
    match mark {
        Mark::None => "",
        Mark::Doubtful => "mark-doubtful",
        Mark::Bad => "mark-bad",
        Mark::VeryBad => "mark-very-bad",
    }
}

fn place(r: &MatchReview, rec: &RecordReview) -> String {
    let who = escape(&r.players[rec.player.index()]);
    match rec.move_number {
        Some(n) => format!("Move {n}, {who}"),
        None => who,
    }
}

fn record_error(s: &mut String, r: &MatchReview, rec: &RecordReview) {
    // A record only the stored analysis marks shows that analysis's mark.
    let mark = match rec.worst_mark() {
        Mark::None => stored_mark(rec),
        mark => mark,
    };
    let dice = rec.dice().map(|d| format!(", rolled {d}")).unwrap_or_default();
    let _ = writeln!(
        s,
        "<article class=\"err\"><h3>{}{dice}: <span class=\"{}\">{} {}</span></h3>",
        place(r, rec),
        mark_class(mark),
        mark.name(),
        mark.symbol()
    );
    let players = Players { mover: &r.players[rec.player.index()], opponent: &r.players[rec.player.other().index()] };
    s.push_str(&svg_board::board(&rec.position, &rec.context, &players));
    s.push('\n');
    if let Some(c) = rec.cube.as_ref().filter(|c| c.mark != Mark::None) {
        cube_error(s, r, rec, c);
    }
    if let Some(c) = rec.chequer.as_ref().filter(|c| c.mark != Mark::None) {
        chequer_error(s, r, rec, c);
    }
    if rec.worst_mark() == Mark::None {
        let _ = writeln!(s, "<p>gammon: no error.</p>");
    }
    if let Some(verdict) = stored_verdict(r, rec) {
        let _ = writeln!(s, "<p class=\"stored\">{}</p>", escape(&verdict));
    }
    s.push_str("</article>\n");
}

fn value(money: bool, m: &CubefulMove) -> (String, String) {
    let mwc = match (money, m.mwc) {
        (false, Some(mwc)) => format!("{:.2}%", 100.0 * mwc),
        _ => String::new(),
    };
    (eq(m.equity), mwc)
}

fn chequer_error(s: &mut String, r: &MatchReview, rec: &RecordReview, c: &ChequerReview) {
    let money = r.match_length == 0;
    let pos = &rec.position;
    let _ = writeln!(
        s,
        "<p>Played <b>{}</b>, best <b>{}</b>: lost {} <span class=\"{}\">{} {}</span></p>",
        escape(&pos.format_move(&c.played.mv)),
        escape(&pos.format_move(&c.best.mv)),
        loss_text(c.loss, c.loss_mwc),
        mark_class(c.mark),
        c.mark.name(),
        c.mark.symbol()
    );
    let mwc_head = if money { "" } else { "<th>MWC</th>" };
    let _ = writeln!(
        s,
        "<div class=\"scroll\"><table class=\"moves\"><tr><th>#</th><th>Move</th><th>Equity</th>{mwc_head}<th>Loss</th><th></th></tr>"
    );
    for (i, m) in c.candidates.iter().enumerate() {
        let played = m.result == c.played.result;
        let class = if played {
            " class=\"played\""
        } else if i == 0 {
            " class=\"best\""
        } else {
            ""
        };
        let (equity, mwc) = value(money, m);
        let mwc = if money { String::new() } else { format!("<td>{mwc}</td>") };
        let loss = if m.loss > 0.0 { format!("−{:.3}", m.loss) } else { String::new() };
        let _ = writeln!(
            s,
            "<tr{class}><td>{}</td><td class=\"mv\">{}</td><td>{equity}</td>{mwc}<td>{loss}</td><td>{}</td></tr>",
            i + 1,
            escape(&pos.format_move(&m.mv)),
            if played { "played" } else { "" }
        );
    }
    s.push_str("</table></div>\n");
}

fn cube_error(s: &mut String, r: &MatchReview, rec: &RecordReview, c: &CubeReview) {
    let money = r.match_length == 0;
    let a = &c.analysis;
    // A take or pass is judged on the doubler's equities.
    let answer = matches!(c.choice, CubeChoice::Take | CubeChoice::Beaver | CubeChoice::Pass);
    let side = if answer {
        format!(" (equities for the doubler, {})", escape(&r.players[rec.player.other().index()]))
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "<p>{} {}: lost {} <span class=\"{}\">{} {}</span></p>",
        escape(&r.players[rec.player.index()]),
        choice_text(c.choice),
        loss_text(c.error, c.error_mwc),
        mark_class(c.mark),
        c.mark.name(),
        c.mark.symbol()
    );
    let mwc_head = if money { "" } else { "<th>MWC</th>" };
    let _ = writeln!(
        s,
        "<div class=\"scroll\"><table class=\"cube\"><tr><th>Cube{side}</th><th>Equity</th>{mwc_head}</tr>"
    );
    let chances = a.match_chances.filter(|_| !money);
    let done = match c.choice {
        CubeChoice::NoDouble => 0,
        CubeChoice::Double => usize::MAX,
        CubeChoice::Take | CubeChoice::Beaver => 1,
        CubeChoice::Pass => 2,
    };
    let rows = [
        ("No double", a.no_double, chances.map(|m| m.no_double)),
        ("Double, take", a.double_take, chances.map(|m| m.double_take)),
        ("Double, pass", a.double_pass, chances.map(|m| m.double_pass)),
    ];
    for (i, (label, equity, mwc)) in rows.iter().enumerate() {
        let class = if i == done { " class=\"played\"" } else { "" };
        let mwc = if money {
            String::new()
        } else {
            format!("<td>{}</td>", mwc.map_or(String::new(), |m| format!("{:.2}%", 100.0 * m)))
        };
        let _ = writeln!(s, "<tr{class}><td>{label}</td><td>{}</td>{mwc}</tr>", eq(*equity));
    }
    let _ = writeln!(s, "</table></div><p>Proper cube action: <b>{}</b></p>", escape(&a.action.to_string()));
}

/// What a record did, in a few words.
fn action_text(rec: &RecordReview) -> String {
    match &rec.action {
        MatAction::Move { dice, mv, .. } => format!("{dice}: {}", rec.position.format_move(mv)),
        MatAction::Dance { dice } => format!("{dice}: no move"),
        MatAction::Double { value } => format!("doubles to {value}"),
        MatAction::Take => "takes".to_string(),
        MatAction::Beaver => "beavers".to_string(),
        MatAction::Drop => "passes".to_string(),
        MatAction::Resign { points, .. } => format!("resigns {points} point{}", if *points == 1 { "" } else { "s" }),
        MatAction::Win { points, .. } => format!("wins {points} point{}", if *points == 1 { "" } else { "s" }),
    }
}

/// Every record of the game, folded: the unmarked ones too.
fn all_records(s: &mut String, r: &MatchReview, game: &GameReview) {
    let stored = stored_name(r).map(|n| escape(&n));
    let stored_head =
        stored.as_ref().map(|n| format!("<th>Loss by {n}</th><th>Cube error by {n}</th>")).unwrap_or_default();
    let _ = writeln!(
        s,
        "<details><summary>All {} records of game {}</summary><div class=\"scroll\"><table class=\"records\">\
         <tr><th>Move</th><th>Player</th><th>Action</th><th>Loss</th><th>Cube error</th>{stored_head}<th>Luck</th></tr>",
        game.records.len(),
        game.number
    );
    for rec in &game.records {
        let loss = rec
            .chequer
            .as_ref()
            .filter(|c| !c.forced)
            .map(|c| format!("{:.3} {}", c.loss, c.mark.symbol()))
            .unwrap_or_default();
        let cube = rec.cube.as_ref().map(|c| format!("{:.3} {}", c.error, c.mark.symbol())).unwrap_or_default();
        let luck = rec.luck.map(|l| format!("{:+.3}", l.luck)).unwrap_or_default();
        let by_stored = if stored.is_some() {
            let st = rec.stored.as_ref();
            let three = |x: Option<f64>| x.map(|x| format!("{x:.3}")).unwrap_or_default();
            let unforced = rec.chequer.as_ref().is_some_and(|c| !c.forced);
            format!(
                "<td>{}</td><td>{}</td>",
                three(st.and_then(|x| x.loss).filter(|_| unforced)),
                three(st.and_then(|x| x.cube_error))
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "<tr{}><td>{}</td><td>{}</td><td class=\"mv\">{}</td><td>{loss}</td><td>{cube}</td>{by_stored}<td>{luck}</td></tr>",
            match mark_class(rec.worst_mark()) {
                "" => String::new(),
                class => format!(" class=\"{class}\""),
            },
            rec.move_number.map(|n| n.to_string()).unwrap_or_default(),
            escape(&r.players[rec.player.index()]),
            escape(&action_text(rec))
        );
    }
    s.push_str("</table></div></details>\n");
}
