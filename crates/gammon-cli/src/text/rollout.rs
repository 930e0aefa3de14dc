//! Rollout results, and the progress line while a rollout runs.

use gammon_engine::api::{CubeRolloutReport, MergeSummary, RolloutOutcome, RolloutReport};
use gammon_engine::rollout::{match_chances, Estimate, RolloutProgress, RolloutSettings, TrialSet};
use gammon_jobs::{Bar, Progress};
use std::io::{self, Write};

/// A progress bar on standard error (games done of the most, the running
/// equity and its standard error, the time left), drawn only when `shown`
/// (standard error is a terminal): never into pipes or files.
#[derive(Debug)]
pub struct RolloutProgressLine {
    bar: Bar,
    cubeful: bool,
    match_play: bool,
}

impl RolloutProgressLine {
    /// A progress bar for a cubeful or cubeless rollout, of a match
    /// position (`match_play`: shown in match winning chances) or not.
    pub fn new(shown: bool, cubeful: bool, match_play: bool) -> Self {
        let bar = Bar::new("rollout [{bar:30}] {pos}/{len} games{msg}, ETA {eta}", shown);
        RolloutProgressLine { bar, cubeful, match_play }
    }

    /// Shows where the rollout stands.
    pub fn show(&self, p: &RolloutProgress) {
        let lead = if p.leader.is_some() { " (leading move)" } else { "" };
        self.bar.report(p.trials, p.max_trials);
        let running = Estimate::new(p.equity, p.standard_error);
        let message = if self.match_play {
            let mwc = match_chances(&running);
            format!(", MWC{lead} {:.4} ± {}", mwc.mean, se(mwc.standard_error, 0))
        } else {
            let what = if self.cubeful { "cubeful equity" } else { "equity" };
            format!(", {what}{lead} {:+.4} ± {}", p.equity, se(p.standard_error, 0))
        };
        self.bar.message(message);
    }

    /// Prints a line on standard error above the bar.
    pub fn note(&self, line: &str) {
        self.bar.note(line);
    }

    /// Erases the bar.
    pub fn clear(&self) {
        self.bar.clear();
    }
}

fn signed(x: f64) -> String {
    format!("{x:+.4}")
}

fn interval(e: &Estimate) -> String {
    if e.standard_error.is_nan() {
        return "n/a".to_string();
    }
    format!("[{:+.4}, {:+.4}]", e.low, e.high)
}

/// A standard error (or an interval's end) in `width` columns; `n/a` below
/// two trials, where there is none.
fn se(x: f64, width: usize) -> String {
    if x.is_nan() {
        format!("{:>width$}", "n/a")
    } else {
        format!("{x:>width$.4}")
    }
}

/// The players, the dice and where trials stop.
fn play_settings(s: &RolloutSettings) -> Vec<String> {
    let mut parts = vec![format!("{}-ply players", s.ply), format!("seed {}", s.seed)];
    parts.push(if s.variance_reduction { "variance reduction".into() } else { "no variance reduction".into() });
    parts.push(if s.quasi_random { "quasi-random dice".into() } else { "random dice".into() });
    parts.push(if s.bearoff_exact { "exact bearoffs".into() } else { "bearoffs played out".into() });
    if let Some(t) = s.truncate {
        parts.push(format!("truncated after {t} half-moves"));
    }
    parts
}

fn describe_settings(r: &RolloutReport) -> String {
    let s = &r.settings;
    let mut parts = play_settings(s);
    match (&r.match_units, s.cubeful) {
        (None, true) => parts.push("cubeful money (cube centred, 0-ply cube decisions)".into()),
        (Some(_), true) => {
            parts.push("cubeful match play (0-ply cube decisions at the changing score)".into());
        }
        (Some(u), false) => parts.push(format!("cubeless: the cube stays at {}", u.context.cube_value)),
        (None, false) => {}
    }
    if let Some(t) = s.target_se {
        parts.push(format!("target SE {t}"));
    }
    parts.join(", ")
}

fn footer(out: &mut impl Write, r: &RolloutReport) -> io::Result<()> {
    let mut line = format!("Games: {} of {}", r.trials(), r.settings.trials);
    if matches!(&r.outcome, RolloutOutcome::Moves(m) if m.len() > 1) {
        line.push_str(" per move");
    }
    if r.target_reached() {
        line.push_str(" (target standard error reached)");
    }
    writeln!(
        out,
        "{line}, {:.2} s on {} thread{} ({:.0} games/s)",
        r.elapsed.as_secs_f64(),
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        r.games_per_second()
    )
}

/// `gammon rollout`: the settings, the estimates with their errors, the
/// games played; a first line says when the rollout was interrupted.
pub fn rollout_report(out: &mut impl Write, r: &RolloutReport) -> io::Result<()> {
    if r.interrupted() {
        writeln!(out, "partial rollout: {} of {} games (interrupted)", r.trials(), r.settings.trials)?;
    }
    rollout_body(out, r)?;
    footer(out, r)
}

/// `gammon merge` of rollout shards: what `gammon rollout` prints for the
/// same games, but for the last line, which gives the shards' costs; a
/// first line says what is missing from a partial merge.
pub fn merged_rollout_report(out: &mut impl Write, r: &RolloutReport, m: &MergeSummary) -> io::Result<()> {
    if !m.missing.is_empty() {
        let shards: Vec<String> = m.missing_shards.iter().map(ToString::to_string).collect();
        writeln!(
            out,
            "partial rollout: {} of {} games (missing games {}; shard{} {})",
            r.trials(),
            r.settings.trials,
            TrialSet::from_ranges(m.missing.iter().cloned()),
            if shards.len() == 1 { "" } else { "s" },
            shards.join(", ")
        )?;
    }
    rollout_body(out, r)?;
    let mut line = format!("Games: {} of {}", r.trials(), r.settings.trials);
    if matches!(&r.outcome, RolloutOutcome::Moves(m) if m.len() > 1) {
        line.push_str(" per move");
    }
    writeln!(
        out,
        "{line}, merged from {} shard{}: {:.2} s on {} thread{} in all",
        m.shards,
        if m.shards == 1 { "" } else { "s" },
        r.elapsed.as_secs_f64(),
        r.threads,
        if r.threads == 1 { "" } else { "s" },
    )
}

fn rollout_body(out: &mut impl Write, r: &RolloutReport) -> io::Result<()> {
    let id = r.position.to_position_id();
    if let Some(u) = &r.match_units {
        super::context_header(out, &u.context, &[])?;
    }
    match &r.outcome {
        RolloutOutcome::Position(res) => {
            writeln!(out, "Rollout of {id} (the player on roll, before rolling)")?;
            super::write_wrapped(out, &describe_settings(r), "", "")?;
            writeln!(out)?;
            writeln!(out, "           win   win g  win bg    lose  lose g lose bg")?;
            let p = &res.probabilities;
            let row = |f: &dyn Fn(&Estimate) -> f64| {
                let lose = Estimate::new(1.0 - p[0].mean, p[0].standard_error);
                [p[0], p[1], p[2], lose, p[3], p[4]].iter().map(|e| se(f(e), 8)).collect::<String>()
            };
            writeln!(out, "mean  {}", row(&|e| e.mean))?;
            writeln!(out, "SE    {}", row(&|e| e.standard_error))?;
            writeln!(out, "95%-  {}", row(&|e| e.low))?;
            writeln!(out, "95%+  {}", row(&|e| e.high))?;
            writeln!(out)?;
            let show = |name: &str, e: &Estimate| {
                format!("{name:<16}{}  SE {}  95% CI {}", signed(e.mean), se(e.standard_error, 0), interval(e))
            };
            match (&r.match_units, &res.cubeful) {
                (Some(u), Some(c)) => {
                    writeln!(out, "{}", show("Match winning", &u.mwc(c)))?;
                    writeln!(out, "{}", show("Equity (EMG)", &u.emg(c)))?;
                    writeln!(out, "{}", show("Money cubeless", &res.equity))?;
                }
                (_, c) => {
                    writeln!(out, "{}", show("Cubeless equity", &res.equity))?;
                    if let Some(c) = c {
                        writeln!(out, "{}", show("Cubeful equity", c))?;
                    }
                }
            }
        }
        RolloutOutcome::Moves(moves) => {
            let dice = r.dice.map(|d| d.to_string()).unwrap_or_default();
            let legal = r.legal_moves.unwrap_or(moves.len());
            writeln!(out, "Rollout of the moves of {dice} in {id}")?;
            let which = if moves.len() < legal {
                format!("the best {} of {legal} legal moves by the net's static evaluation", moves.len())
            } else if legal == 0 {
                "no legal move: the turn passes".to_string()
            } else {
                format!("all {legal} legal moves")
            };
            super::write_wrapped(out, &format!("{which}; {}", describe_settings(r)), "", "")?;
            writeln!(out)?;
            // Two tables, so that each fits in 80 columns: the equities,
            // then the chances (and the cubeless equity of a cubeful rollout).
            let units = r.match_units.as_ref();
            let cubeful = r.settings.cubeful || units.is_some();
            let kind = match (units, cubeful) {
                (Some(_), _) => "MWC",
                (None, true) => "cubeful",
                (None, false) => "equity",
            };
            let names: Vec<String> = moves
                .iter()
                .map(|m| if m.mv.is_empty() { "(no move)".to_string() } else { r.position.format_move(&m.mv) })
                .collect();
            writeln!(out, " #  {:<22}{kind:>8}      SE  95% CI              vs best      SE", "move")?;
            for (i, (m, name)) in moves.iter().zip(&names).enumerate() {
                let (h, d) = match units {
                    Some(u) => (u.mwc(&m.rollout.headline()), u.mwc_difference(&m.difference)),
                    None => (m.rollout.headline(), m.difference),
                };
                let diff =
                    if i == 0 { String::new() } else { format!("{:>8} {}", signed(d.mean), se(d.standard_error, 7)) };
                let line = format!(
                    "{:>2}. {name:<22}{:>8} {}  {:<20}{diff}",
                    i + 1,
                    signed(h.mean),
                    se(h.standard_error, 7),
                    interval(&h)
                );
                writeln!(out, "{}", line.trim_end())?;
            }
            writeln!(out)?;
            writeln!(
                out,
                " #  {:<22}     win   win g  win bg  lose g lose bg{}",
                "move",
                if cubeful { " cubeless" } else { "" }
            )?;
            for (i, (m, name)) in moves.iter().zip(&names).enumerate() {
                let probs: String = m.rollout.probabilities.iter().map(|e| format!("{:>8.4}", e.mean)).collect();
                let cubeless = if cubeful { format!(" {:>8}", signed(m.rollout.equity.mean)) } else { String::new() };
                writeln!(out, "{:>2}. {name:<22}{probs}{cubeless}", i + 1)?;
            }
        }
    }
    writeln!(out)
}

/// `gammon merge` of the shards of a cube-decision rollout: what `gammon
/// rollout --cube-decision` prints for the same games, then the shards and
/// what is missing from a partial merge.
pub fn merged_cube_rollout_report(out: &mut impl Write, r: &CubeRolloutReport, m: &MergeSummary) -> io::Result<()> {
    cube_rollout_report(out, r)?;
    let missing = if m.missing.is_empty() {
        String::new()
    } else {
        format!("; missing games {}", TrialSet::from_ranges(m.missing.iter().cloned()))
    };
    writeln!(out, "Merged from {} shard{}{missing}", m.shards, if m.shards == 1 { "" } else { "s" })
}

/// `gammon rollout --cube-decision`: the context, the three equities with
/// their standard errors as gnubg prints a cube rollout (and the match
/// winning chances in a match), the difference of the paired lines, the
/// proper action and the costs.
pub fn cube_rollout_report(out: &mut impl Write, r: &CubeRolloutReport) -> io::Result<()> {
    if r.interrupted {
        writeln!(out, "partial rollout: {} of {} games per line (interrupted)", r.games, r.settings.trials)?;
    }
    let d = &r.report;
    super::context_header(out, &d.context, &d.notes)?;
    writeln!(out, "Cube decision rollout of {} (the player on roll, before rolling)", d.position.to_position_id())?;
    let settings = describe_cube_settings(&r.settings);
    super::write_wrapped(out, &format!("both lines with the same dice; {settings}"), "", "")?;
    writeln!(out)?;
    let a = &d.analysis;
    let unit = if d.context.is_money() { "Equity" } else { "EMG" };
    let mwc_head = if r.mwc.is_some() { "      MWC      SE" } else { "" };
    writeln!(out, "                 {unit:>8}      SE{mwc_head}")?;
    let mwc =
        |i: usize| r.mwc.map_or(String::new(), |m| format!("  {:>7.4} {}", m[i].mean, se(m[i].standard_error, 7)));
    writeln!(out, "No double        {:>8} {}{}", signed(a.no_double), se(r.no_double.standard_error, 7), mwc(0))?;
    writeln!(out, "Double, take     {:>8} {}{}", signed(a.double_take), se(r.double_take.standard_error, 7), mwc(1))?;
    let pass_mwc = a.match_chances.map_or(String::new(), |m| format!("  {:>7.4}", m.double_pass));
    let pass = format!("Double, pass     {:>8}        {pass_mwc}", signed(a.double_pass));
    writeln!(out, "{}", pass.trim_end())?;
    let diff = &r.take_minus_no_double;
    writeln!(out, "Double/take minus no double: {} (SE {})", signed(diff.mean), se(diff.standard_error, 0))?;
    writeln!(out)?;
    writeln!(out, "Proper cube action: {}", a.action.as_str())?;
    writeln!(
        out,
        "Games: {} of {} per line, {:.2} s on {} thread{}",
        r.games,
        r.settings.trials,
        r.elapsed.as_secs_f64(),
        r.threads,
        if r.threads == 1 { "" } else { "s" }
    )
}

fn describe_cube_settings(s: &RolloutSettings) -> String {
    let mut parts = play_settings(s);
    parts.push("0-ply cube decisions after the first roll".into());
    if let Some(t) = s.target_se {
        parts.push(format!("target SE {t}"));
    }
    parts.join(", ")
}
