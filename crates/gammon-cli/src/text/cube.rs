//! Cube decisions as gnubg prints them, with the explanation.

use super::{gnubg_line, write_wrapped};
use gammon_engine::api::{CubeMatrix, CubeReport};
use gammon_engine::cube::Stakes;
use gammon_eval::evaluated_by;
use gammon_rules::CubeOwner;
use std::io::{self, Write};

/// One line: money or match, score, cube and rules.
fn setting_line(d: &CubeReport) -> String {
    let ctx = &d.context;
    let owner = match ctx.cube_owner {
        CubeOwner::Centered => "centred",
        CubeOwner::OnRoll => "owned by X",
        CubeOwner::Opponent => "owned by O",
    };
    match d.analysis.state.stakes {
        Stakes::Money { jacoby, beaver } => format!(
            "Money game, cube {} {owner}, Jacoby rule {}, beavers {}",
            ctx.cube_value,
            if jacoby { "on" } else { "off" },
            if beaver { "allowed" } else { "not allowed" }
        ),
        Stakes::Match { length, away, crawford } => {
            let phase = if crawford {
                ", Crawford game"
            } else if away.0 == 1 || away.1 == 1 {
                ", post-Crawford"
            } else {
                ""
            };
            format!(
                "{length}-point match, score X {} - O {} (X {}-away, O {}-away){phase}, cube {} {owner}",
                ctx.score.0, ctx.score.1, away.0, away.1, ctx.cube_value
            )
        }
    }
}

fn notes(out: &mut impl Write, d: &CubeReport, indent: &str) -> io::Result<()> {
    for n in &d.notes {
        write_wrapped(out, &format!("Note: {n}"), indent, &format!("{indent}  "))?;
    }
    Ok(())
}

/// `gammon cube`: the board, the setting, the chances and the decision.
pub fn cube_decision(out: &mut impl Write, d: &CubeReport) -> io::Result<()> {
    let (a, ply) = (&d.analysis, d.plies);
    write!(out, "{}", d.position)?;
    writeln!(out)?;
    write_wrapped(out, &setting_line(d), " ", "   ")?;
    notes(out, d, " ")?;
    writeln!(out)?;
    writeln!(out, "Cube analysis ({ply} ply, {})", evaluated_by(d.class))?;
    let p = a.probabilities;
    match a.match_chances {
        Some(m) => writeln!(
            out,
            "{ply}-ply cubeless equity {:+.3} (match winning chances {:.2}%; money: {:+.3})",
            a.cubeless_equity,
            100.0 * m.cubeless,
            p.equity()
        )?,
        None => writeln!(out, "{ply}-ply cubeless equity {:+.3}", a.cubeless_equity)?,
    }
    writeln!(out, "  {}", gnubg_line(p))?;
    writeln!(out, "Cube efficiency x = {:.3}", a.efficiency)?;
    decision(out, d, "")
}

/// The cube decision after the evaluation of `gammon analyse`.
pub fn cube_in_analysis(out: &mut impl Write, d: &CubeReport) -> io::Result<()> {
    let a = &d.analysis;
    write_wrapped(out, &format!("Cube decision at {}-ply: {}", d.plies, setting_line(d)), " ", "   ")?;
    notes(out, d, " ")?;
    if let Some(m) = a.match_chances {
        writeln!(
            out,
            " Cubeless equity at the score {:+.3} (match winning chances {:.2}%)",
            a.cubeless_equity,
            100.0 * m.cubeless
        )?;
    }
    writeln!(out, " Cube efficiency x = {:.3}", a.efficiency)?;
    decision(out, d, " ")
}

/// The cubeful equities, the proper action and the explanation, each line
/// after `indent`.
fn decision(out: &mut impl Write, d: &CubeReport, indent: &str) -> io::Result<()> {
    let (a, ply, cube) = (&d.analysis, d.plies, d.context.cube_value);
    let searched = if ply > 0 { format!(", searched {ply} plies") } else { String::new() };
    if cube > 1 {
        writeln!(out, "{indent}Cubeful equities (normalised to the cube; times {cube} for points{searched}):")?;
    } else if ply > 0 {
        writeln!(out, "{indent}Cubeful equities (searched {ply} plies):")?;
    } else {
        writeln!(out, "{indent}Cubeful equities:")?;
    }
    for (i, (choice, eq, mwc, diff)) in a.ranked().into_iter().enumerate() {
        let mwc = mwc.map_or(String::new(), |m| format!("  {:>7.3}%", 100.0 * m));
        if i == 0 {
            writeln!(out, "{indent}{}. {:<20}{:+.3}{mwc}", i + 1, choice.as_str(), eq)?;
        } else {
            writeln!(out, "{indent}{}. {:<20}{:+.3}{mwc}  ({:+.3})", i + 1, choice.as_str(), eq, diff)?;
        }
    }
    writeln!(out, "{indent}Proper cube action: {}", a.action)?;
    if let Some(b) = a.beaver_equity() {
        let text = format!("If O beavers: {b:+.3} for X (cube at four times; a raccoon would make it {:+.3})", 2.0 * b);
        write_wrapped(out, &text, indent, &format!("{indent}  "))?;
    }
    writeln!(out)?;
    // One fact a line, each wrapped with a hanging indent.
    let (first, rest) = (format!("{indent} "), format!("{indent}   "));
    for line in a.explain().lines() {
        write_wrapped(out, line, &first, &rest)?;
    }
    if ply > 0 && a.can_double() && a.take_point.is_none() {
        let text = format!(
            "(Janowski's take point at these {ply}-ply chances points the other way than the {ply}-ply search, which decides; so it is not shown.)"
        );
        write_wrapped(out, &text, &first, &rest)?;
    }
    Ok(())
}

/// The doubler's margin of `d` in match winning chances: how much better
/// the proper choice is than the other (no double against double, the
/// opponent answering as he should); `None` where he may not double.
fn double_margin(d: &CubeReport) -> Option<f64> {
    let m = d.analysis.match_chances.filter(|_| d.analysis.can_double())?;
    Some((m.no_double - m.double_take.min(m.double_pass)).abs())
}

/// `gammon cube --matrix N`: a grid of the proper action and the doubler's
/// margin at every score, rows the away of the player on roll (X),
/// columns the opponent's (O).
pub fn cube_matrix(out: &mut impl Write, m: &CubeMatrix) -> io::Result<()> {
    let Some(first) = m.entries.first() else { return Ok(()) };
    write!(out, "{}", first.position)?;
    writeln!(out)?;
    let ctx = &first.context;
    let owner = match ctx.cube_owner {
        CubeOwner::Centered => "centred",
        CubeOwner::OnRoll => "owned by X",
        CubeOwner::Opponent => "owned by O",
    };
    let head = format!(
        "Cube decisions at every score of a {}-point match, {}-ply ({}), cube {} {owner}, table {}",
        m.length,
        m.plies,
        evaluated_by(first.class),
        ctx.cube_value,
        first.met
    );
    write_wrapped(out, &head, " ", "   ")?;
    notes(out, first, " ")?;
    writeln!(out, " Rows: X (on roll) needs; columns: O needs. Each cell: the proper action and the")?;
    writeln!(out, " doubler's margin in match winning chances (%) between doubling and not.")?;
    writeln!(out, " ND no double, DT double/take, DP double/pass, TG too good, DC dead cube.")?;
    writeln!(out)?;
    write!(out, "{:>8}", "")?;
    for b in m.aways() {
        write!(out, " {:>10}", format!("{b}-away"))?;
    }
    writeln!(out)?;
    for a in m.aways() {
        write!(out, "{:>8}", format!("{a}-away"))?;
        for b in m.aways() {
            let cell = m.at((a, b)).map_or_else(String::new, |d| match double_margin(d) {
                Some(margin) => format!("{} {:.1}", d.analysis.action.short(), 100.0 * margin),
                None => d.analysis.action.short().to_string(),
            });
            write!(out, " {cell:>10}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
