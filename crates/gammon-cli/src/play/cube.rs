//! The cube prompts (the human's doubles and answers), and what the engine's
//! cube decisions and answers ([`CubePlayer`], the engine's) print.

use super::{parse_roll, points, End, Session, Step};
use gammon_engine::api::CubePlayer;
use gammon_engine::cube::{CubeAnalysis, Response};
use gammon_rules::{BeaverAnswer, CubeAnswer, Dice, GameContext, GameResult, Position};
use std::io::{BufRead, Write};

const CUBE_HELP: &str = "\
Before your roll, when you may double:
  r         roll the dice (also: roll, or an empty line; with --manual-dice
            you may type the roll itself, like 31)
  d         double: offer the engine the cube at twice its value (also: double);
            it takes (and owns the cube) or drops (and loses the game at the cube value)
  hint      the engine's cube analysis for you
  board     show the board
  resign    offer to resign a single game (resign gammon, resign backgammon)
  quit      leave the game unscored";

const TAKE_HELP: &str = "\
The engine doubles:
  t         take: play on at twice the stakes, and own the cube (also: take)
  d         drop: lose the game at the cube value before the double (also: drop, pass, p)
  b         beaver (with --beaver): take and redouble at once, keeping the cube (also: beaver)
  hint      the engine's analysis of its double
  board     show the board
  quit      leave the game unscored";

/// What the human answered at the cube prompt before his roll.
pub(super) enum CubePrompt {
    /// Roll (with manual dice, the roll may have been typed).
    Roll,
    /// Double.
    Double,
    /// He offers to resign this.
    Resign(GameResult),
}

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// The engine's cube play at the session's depth (the cube net's).
    pub(super) fn cube_player(&self) -> CubePlayer<'_, Box<dyn gammon_eval::Evaluator>> {
        CubePlayer::new(self.cube_engine, self.ply)
    }

    /// True if a double by the side on roll in `ctx` can gain anything (not
    /// the leader after the Crawford game, not a cube that already wins).
    pub(super) fn double_matters(&self, ctx: &GameContext) -> bool {
        self.cube_player().double_matters(ctx)
    }

    /// The engine's cube analysis of `pos` (seen by the side on roll, who
    /// has not rolled) in `ctx` (any pending cube action set aside).
    pub(super) fn analysis(&self, pos: &Position, ctx: &GameContext) -> Option<CubeAnalysis> {
        self.cube_player().analysis(pos, ctx).ok()
    }

    /// Before the human's roll, when he may double: roll (with manual dice,
    /// typing the roll rolls it), double, or offer to resign.
    pub(super) fn human_offers(&mut self, pos: &Position, ctx: &GameContext) -> Step<CubePrompt> {
        loop {
            let line = self.ask("Roll or double? [r/d]: ")?;
            if self.manual {
                if let Some(d) = parse_roll(&line).and_then(|(a, b)| Dice::new(a, b).ok()) {
                    self.typed_roll = Some(d);
                    return Ok(CubePrompt::Roll);
                }
            }
            let command = line.to_ascii_lowercase();
            match command.as_str() {
                "" | "r" | "roll" => return Ok(CubePrompt::Roll),
                "d" | "double" => break,
                "hint" => self.cube_hint(pos, ctx, true)?,
                "board" => self.show_board(pos, Some(false), "Your turn.")?,
                "help" | "?" => writeln!(self.out, "{CUBE_HELP}")?,
                "quit" | "exit" => return Err(End::Quit),
                _ if command.starts_with("resign") => {
                    if let Some(level) = self.resign_command(&command)? {
                        return Ok(CubePrompt::Resign(level));
                    }
                }
                _ => writeln!(self.out, "Type r to roll or d to double (or hint, board, help, resign, quit).")?,
            }
        }
        writeln!(self.out, "You double to {}.", ctx.cube_value.saturating_mul(2))?;
        Ok(CubePrompt::Double)
    }

    /// The engine answers the human's double (`pos` and `ctx` seen by the
    /// human); an engine that cannot decide takes.
    pub(super) fn engine_answers(&mut self, pos: &Position, ctx: &GameContext) -> Step<CubeAnswer> {
        let old = ctx.cube_value;
        let may_beaver = self.state.may_beaver(&self.cube);
        let answer = self.cube_player().answers_double(pos, ctx, may_beaver).unwrap_or(CubeAnswer::Take);
        match answer {
            CubeAnswer::Pass => writeln!(self.out, "The engine drops: you win {}.", points(old))?,
            CubeAnswer::Beaver => writeln!(
                self.out,
                "The engine beavers: it takes and redoubles at once; the cube is at {}, owned by the engine.",
                old.saturating_mul(4)
            )?,
            CubeAnswer::Take => {
                writeln!(self.out, "The engine takes: the cube is at {}, owned by the engine.", old.saturating_mul(2))?;
            }
        }
        Ok(answer)
    }

    /// The engine, the doubler, answers the human's beaver (`pos` and `ctx`
    /// seen by the engine); an engine that cannot decide accepts.
    pub(super) fn engine_answers_beaver(&mut self, pos: &Position, ctx: &GameContext) -> Step<BeaverAnswer> {
        let old = ctx.cube_value;
        let may_raccoon = self.state.may_raccoon(&self.cube);
        let answer = self.cube_player().answers_beaver(pos, ctx, may_raccoon).unwrap_or(BeaverAnswer::Accept);
        match answer {
            BeaverAnswer::Accept => writeln!(self.out, "The engine accepts the beaver.")?,
            BeaverAnswer::Pass => {
                writeln!(self.out, "The engine passes the beaver: you win {}.", points(old.saturating_mul(2)))?
            }
            BeaverAnswer::Raccoon => writeln!(
                self.out,
                "The engine raccoons: it redoubles your beaver; the cube is at {}, owned by you (you accept).",
                old.saturating_mul(8)
            )?,
        }
        Ok(answer)
    }

    /// The human answers the engine's double (`pos` and `ctx` seen by the engine).
    pub(super) fn human_answers(&mut self, pos: &Position, ctx: &GameContext) -> Step<CubeAnswer> {
        let old = ctx.cube_value;
        let new = old.saturating_mul(2);
        let beaver = self.state.may_beaver(&self.cube);
        let prompt = if beaver {
            format!("The engine doubles to {new}. Take or drop (or beaver)? [t/d/b]: ")
        } else {
            format!("The engine doubles to {new}. Take or drop? [t/d]: ")
        };
        loop {
            let line = self.ask(&prompt)?;
            match line.to_ascii_lowercase().as_str() {
                "t" | "take" => {
                    writeln!(self.out, "You take: the cube is at {new}, owned by you.")?;
                    return Ok(CubeAnswer::Take);
                }
                "d" | "drop" | "p" | "pass" => {
                    writeln!(self.out, "You drop: the engine wins {}.", points(old))?;
                    return Ok(CubeAnswer::Pass);
                }
                "b" | "beaver" if beaver => {
                    writeln!(self.out, "You beaver: the cube is at {}, owned by you.", old.saturating_mul(4))?;
                    return Ok(CubeAnswer::Beaver);
                }
                "b" | "beaver" => {
                    writeln!(self.out, "Beavers are not allowed here (they need --beaver, in money play).")?
                }
                "hint" => self.cube_hint(pos, ctx, false)?,
                "board" => self.show_board(&pos.switched(), Some(true), "The engine's turn.")?,
                "help" | "?" => writeln!(self.out, "{TAKE_HELP}")?,
                "quit" | "exit" => return Err(End::Quit),
                _ if line.to_ascii_lowercase().starts_with("resign") => writeln!(
                    self.out,
                    "To give up the game now, drop (d): you lose {}. Resignations are offered on your turn.",
                    points(old)
                )?,
                _ => {
                    let b = if beaver { ", b to beaver" } else { "" };
                    writeln!(self.out, "Type t to take or d to drop{b} (or hint, board, help, quit).")?;
                }
            }
        }
    }

    /// The engine's cube analysis of `pos` (seen by the side on roll, who is
    /// X in the explanation).
    fn cube_hint(&mut self, pos: &Position, ctx: &GameContext, human_on_roll: bool) -> Step<()> {
        let Some(a) = self.analysis(pos, ctx) else {
            writeln!(self.out, "No cube analysis is available here.")?;
            return Ok(());
        };
        let name = format!("{}, {}-ply", crate::text::short_name(&self.cube_engine.name()), self.ply);
        if human_on_roll {
            writeln!(self.out, "The engine's cube analysis ({name}).")?;
            writeln!(self.out, "You are X, on roll; the engine is O:")?;
            writeln!(self.out, "Proper cube action for you: {}.", a.action)?;
        } else {
            writeln!(self.out, "The engine's analysis of its double ({name}).")?;
            writeln!(self.out, "The engine is X, on roll; you are O:")?;
            let answer = match a.response() {
                Some(Response::Beaver) if self.state.may_beaver(&self.cube) => "beaver",
                Some(Response::Pass) => "drop",
                _ => "take",
            };
            writeln!(self.out, "Proper cube action: {}; your correct answer: {answer}.", a.action)?;
        }
        for line in a.explain().lines() {
            crate::text::write_wrapped(&mut self.out, line, "  ", "    ")?;
        }
        Ok(())
    }
}
