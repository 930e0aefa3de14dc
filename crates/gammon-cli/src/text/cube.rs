//! Cube decisions as gnubg prints them, with the explanation.

use super::{gnubg_line, write_wrapped};
use gammon_engine::api::CubeReport;
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
