//! UBGI draft 0.01: one stateless request per line, the answer on one line.
//! Every request carries its whole state (an XGID or a FIBS board), so a
//! refused one leaves nothing behind for the next.

use super::engine::{answer_pending, choose_at, cube_analysis, Answer, Engine};
use super::{Flow, VERSION};
use gammon_rules::{DiceState, FibsBoard, Xgid};

/// Logs why a request got `sorry` and answers it.
pub(super) fn sorry(out: &mut Vec<String>, why: impl std::fmt::Display) {
    eprintln!("gammon ubgi: sorry: {why}");
    out.push("sorry".to_string());
}

pub(super) fn handle(engine: &Engine<'_>, line: &str, cube_ply: u8, out: &mut Vec<String>) -> Flow {
    match line {
        "ubgi" => {
            out.push("id name gammon".to_string());
            out.push("id author gammon developers".to_string());
            out.push(format!("id version {VERSION}"));
            out.push("readyok".to_string());
        }
        "isready" => out.push("readyok".to_string()),
        "stop" => {}
        "quit" => return Flow::Quit,
        _ => {
            let parsed = if line.starts_with("board:") {
                FibsBoard::parse(line)
                    .map(|b| (b.position, b.context))
                    .map_err(|e| format!("FIBS board: {:#}", anyhow::Error::from(e)))
            } else if line.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("XGID=")) || line.contains(':') {
                Xgid::parse(line)
                    .map(|x| (x.position, x.context))
                    .map_err(|e| format!("XGID {line:?}: {:#}", anyhow::Error::from(e)))
            } else {
                Err(format!("unknown request {line:?}: expected ubgi, an XGID, a FIBS board, stop or quit"))
            };
            let (pos, ctx) = match parsed {
                Ok(p) => p,
                Err(why) => {
                    sorry(out, why);
                    return Flow::Continue;
                }
            };
            if pos.game_result().is_some() {
                sorry(out, "the game is over in this position");
                return Flow::Continue;
            }
            let dice = match ctx.dice {
                DiceState::Rolled(d) => d,
                pending => {
                    match cube_analysis(engine, &pos, &ctx, cube_ply) {
                        Ok(a) if pending.cube_pending() => out.push(
                            match answer_pending(&a, pending) {
                                Answer::Take | Answer::Beaver => "take",
                                Answer::Drop => "drop",
                            }
                            .to_string(),
                        ),
                        Ok(a) => out.push(if a.action.doubles() { "double" } else { "roll" }.to_string()),
                        Err((_, why)) => sorry(out, why),
                    }
                    return Flow::Continue;
                }
            };
            let ply = engine.args.ply;
            match choose_at(engine, &pos, dice, ply) {
                Ok((m, _)) => out.push(m.to_ubgi(false)),
                Err(e) => sorry(out, format!("cannot choose a move: {e:#}")),
            }
        }
    }
    Flow::Continue
}
