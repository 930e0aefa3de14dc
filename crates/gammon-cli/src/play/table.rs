//! The table the game loop calls, and the turn prompts: the engine's move,
//! the human's move, `moves` and `hint`.

use super::cube::CubePrompt;
use super::{End, Session, Step, HUMAN};
use gammon_rules::{
    parse_move_in, BeaverAnswer, Cube, CubeAnswer, Decision, Dice, DiceSource, DiceState, GameContext, GameResult,
    Move, MoveList, Position, Seat, Table, Turn,
};
use std::io::{BufRead, Write};

const HELP: &str = "\
Type your move in gnubg notation, points from your side (24 down to 1):
  8/5 6/5   bar/22*   6/off   13/10(2)   24/18/13
or the number of a move in the `moves` list, or a command:
  hint      the engine's best moves with their equities
  moves     all legal moves, numbered
  board     show the board
  resign    offer to resign a single game (resign gammon, resign backgammon);
            the engine accepts or declines
  quit      leave the game unscored";

/// What the human answered at the move prompt.
pub(super) enum MoveAnswer {
    /// The index of his move.
    Play(usize),
    /// He offers to resign this.
    Resign(GameResult),
}

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// The engine's move: the index in `moves`.
    fn engine_turn(&mut self, pos: &Position, dice: Dice, moves: &MoveList) -> Step<usize> {
        let chosen =
            self.engine.choose_move(pos, dice, self.ply).map_err(|e| End::Io(std::io::Error::other(e.to_string())))?;
        // Results are distinct positions: the one reached names the move.
        let i = moves.positions().iter().position(|p| *p == chosen.result).unwrap_or(0);
        writeln!(self.out, "The engine rolls {dice} and plays {}.", pos.format_move(&moves.moves()[i]))?;
        Ok(i)
    }

    /// The human's turn: prompts until a legal move (its index in `moves`)
    /// or a resignation he may offer.
    fn human_turn(&mut self, pos: &Position, dice: Dice, list: &MoveList) -> Step<MoveAnswer> {
        if !self.roll_shown {
            self.roll_shown = true;
            writeln!(self.out, "You roll {dice}.")?;
            if list.len() == 1 {
                let only = pos.format_move(&list.moves()[0]);
                writeln!(self.out, "Only one legal move: {only} (press Enter to play it).")?;
            }
        }
        let prompt = format!("Your move ({dice}): ");
        loop {
            let line = self.ask(&prompt)?;
            let command = line.to_ascii_lowercase();
            let chosen: Option<(Move, Position)> = match command.as_str() {
                "" if list.len() == 1 => list.iter().next(),
                "" => {
                    writeln!(self.out, "Type your move (like 8/5 6/5), or `help`.")?;
                    None
                }
                "help" | "?" => {
                    writeln!(self.out, "{HELP}")?;
                    None
                }
                "hint" => {
                    self.hint(pos, dice, list)?;
                    None
                }
                "moves" => {
                    self.list_moves(pos, list)?;
                    None
                }
                "board" => {
                    self.show_board(pos, Some(false), "Your turn.")?;
                    None
                }
                "quit" | "exit" => return Err(End::Quit),
                _ if command.starts_with("resign") => {
                    if let Some(level) = self.resign_command(&command)? {
                        return Ok(MoveAnswer::Resign(level));
                    }
                    None
                }
                _ if command.bytes().all(|b| b.is_ascii_digit()) => match command.parse::<usize>() {
                    Ok(n) if (1..=list.len()).contains(&n) => list.iter().nth(n - 1),
                    _ => {
                        writeln!(self.out, "There is no move {command}: `moves` lists moves 1 to {}.", list.len())?;
                        None
                    }
                },
                _ => match parse_move_in(pos, dice, &line, list) {
                    Ok(found) => Some(found),
                    Err(e) => {
                        writeln!(self.out, "Illegal move: {e}.")?;
                        None
                    }
                },
            };
            // Results are distinct positions: the one reached names the move.
            if let Some(i) = chosen.and_then(|(_, after)| list.positions().iter().position(|p| *p == after)) {
                writeln!(self.out, "You play {}.", pos.format_move(&list.moves()[i]))?;
                return Ok(MoveAnswer::Play(i));
            }
        }
    }

    /// The legal moves, numbered, in gnubg notation.
    fn list_moves(&mut self, pos: &Position, list: &MoveList) -> Step<()> {
        let s = if list.len() == 1 { "" } else { "s" };
        writeln!(self.out, "{} legal move{s}:", list.len())?;
        for (i, m) in list.moves().iter().enumerate() {
            writeln!(self.out, "{:>4}. {}", i + 1, pos.format_move(m))?;
        }
        Ok(())
    }

    /// The engine's five best moves at its depth, with their cubeless
    /// equities for the mover.
    fn hint(&mut self, pos: &Position, dice: Dice, list: &MoveList) -> Step<()> {
        let ranked = self.engine.analyse_roll(pos, dice, self.ply).map(|a| a.moves).unwrap_or_default();
        let best = ranked.first().map_or(0.0, |r| r.equity);
        let names: Vec<String> = ranked.iter().take(5).map(|r| pos.format_move(&r.mv)).collect();
        let width = names.iter().map(String::len).max().unwrap_or(0);
        writeln!(
            self.out,
            "Hint ({}-ply): the engine's choice ({}), cubeless equity for you:",
            self.ply,
            crate::text::short_name(&self.engine.name())
        )?;
        for (rank, (name, r)) in names.iter().zip(&ranked).enumerate() {
            let eq = r.equity;
            let diff = if rank == 0 { String::new() } else { format!("  ({:+.3})", eq - best) };
            writeln!(self.out, "{:>4}. {name:<width$}  {eq:+.3}{diff}", rank + 1)?;
        }
        if list.len() > names.len() {
            writeln!(self.out, "      ... and {} more (`moves` lists them all)", list.len() - names.len())?;
        }
        Ok(())
    }
}

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// Whether `seat` doubles: the human at the cube prompt, the engine by
    /// its cube player. Doubles that cannot gain anything are neither
    /// offered to the human nor made.
    fn decides_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<bool> {
        if !self.double_matters(ctx) {
            return Ok(false);
        }
        if seat == HUMAN {
            // The cube prompt was asked with the chance to resign.
            if let Some(double) = self.cube_choice.take() {
                return Ok(double);
            }
            let step = (|| loop {
                match self.human_offers(pos, ctx)? {
                    CubePrompt::Roll => return Ok(false),
                    CubePrompt::Double => return Ok(true),
                    CubePrompt::Resign(_) => writeln!(self.out, "Roll or double: the engine has answered your offer.")?,
                }
            })();
            self.abandon(step)
        } else {
            Ok(self.cube_player().offers_double(pos, ctx).unwrap_or(false))
        }
    }
}

impl<R: BufRead, W: Write> Table for Session<'_, R, W> {
    fn choose_move(&mut self, seat: Seat, pos: &Position, dice: Dice, moves: &MoveList) -> Decision<usize> {
        if seat != HUMAN {
            let step = self.engine_turn(pos, dice, moves);
            return self.abandon(step);
        }
        // The move was asked for with the chance to resign.
        if let Some(i) = self.chosen.take() {
            return Ok(i);
        }
        let step = (|| loop {
            match self.human_turn(pos, dice, moves)? {
                MoveAnswer::Play(i) => return Ok(i),
                MoveAnswer::Resign(_) => writeln!(self.out, "Play your move: the engine has answered your offer.")?,
            }
        })();
        self.abandon(step)
    }

    /// The human's chance to resign: before his roll with the cube prompt
    /// (when he may double) or, with manual dice, the prompt for his roll;
    /// after it with the move prompt. What he answers there instead is kept
    /// for `offers_double`, `roll` and `choose_move`.
    fn offers_resignation(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<Option<GameResult>> {
        if seat != HUMAN {
            return Ok(None);
        }
        let step = (|| match ctx.dice {
            DiceState::Rolled(dice) => {
                let mut list = MoveList::new();
                list.generate(pos, dice);
                if list.is_empty() {
                    return Ok(None);
                }
                Ok(match self.human_turn(pos, dice, &list)? {
                    MoveAnswer::Play(i) => {
                        self.chosen = Some(i);
                        None
                    }
                    MoveAnswer::Resign(level) => Some(level),
                })
            }
            _ if self.state.may_double(&self.cube, HUMAN) && self.double_matters(ctx) => {
                Ok(match self.human_offers(pos, ctx)? {
                    CubePrompt::Roll => {
                        self.cube_choice = Some(false);
                        None
                    }
                    CubePrompt::Double => {
                        self.cube_choice = Some(true);
                        None
                    }
                    CubePrompt::Resign(level) => Some(level),
                })
            }
            _ if self.manual => self.human_roll_or_resign(),
            _ => Ok(None),
        })();
        self.abandon(step)
    }

    fn accepts_resignation(
        &mut self,
        _: Seat,
        pos: &Position,
        ctx: &GameContext,
        offered: GameResult,
    ) -> Decision<bool> {
        let step = self.engine_answers_resignation(pos, ctx, offered);
        self.abandon(step)
    }

    fn roll(&mut self, seat: Seat, _: &mut dyn DiceSource) -> Decision<Dice> {
        if let Some(d) = self.typed_roll.take() {
            return Ok(d);
        }
        let step = self.roll_for(seat == HUMAN);
        self.abandon(step)
    }

    /// The double, kept for `--save`.
    fn offers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<bool> {
        let double = self.decides_double(seat, pos, ctx)?;
        if let (true, Some(log)) = (double, &mut self.log) {
            log.double(seat, ctx.cube_value.saturating_mul(2));
        }
        Ok(double)
    }

    fn answers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<CubeAnswer> {
        let step = if seat == HUMAN { self.human_answers(pos, ctx) } else { self.engine_answers(pos, ctx) };
        let answer = self.abandon(step)?;
        if let Some(log) = &mut self.log {
            match answer {
                CubeAnswer::Take => log.take(seat),
                CubeAnswer::Pass => log.drop(seat),
                CubeAnswer::Beaver => log.beaver(seat, ctx.cube_value.saturating_mul(4)),
            }
        }
        Ok(answer)
    }

    /// `seat`, the doubler, answers a beaver: the engine by its cube player
    /// (accept, pass or raccoon); the human accepts the engine's beaver
    /// without being asked.
    fn answers_beaver(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<BeaverAnswer> {
        if seat == HUMAN {
            return Ok(BeaverAnswer::Accept);
        }
        let step = self.engine_answers_beaver(pos, ctx);
        self.abandon(step)
    }

    fn cube_changed(&mut self, cube: &Cube) -> Decision<()> {
        self.cube = *cube;
        Ok(())
    }

    /// A passed turn is announced; the board is drawn after every turn.
    fn after_turn(&mut self, turn: &Turn<'_>) -> Decision<()> {
        if let Some(log) = &mut self.log {
            let mv = turn.played.and_then(|i| turn.moves.moves().get(i)).copied().unwrap_or(Move::NONE);
            log.roll(turn.seat, turn.dice, &mv);
        }
        let human_moved = turn.seat == HUMAN;
        // A new turn: any resignation may be offered again.
        self.declined = None;
        self.roll_shown = false;
        let step = (|| {
            if turn.played.is_none() {
                if human_moved {
                    writeln!(self.out, "You roll {} and cannot move: your turn passes.", turn.dice)?;
                } else {
                    writeln!(self.out, "The engine rolls {} and cannot move.", turn.dice)?;
                }
            }
            // `after` is seen by the side to move next.
            let human_view = if human_moved { turn.after.switched() } else { turn.after };
            if turn.after.game_result().is_some() {
                self.show_board(&human_view, None, "Game over.")
            } else {
                let status = if human_moved { "The engine's turn." } else { "Your turn." };
                self.show_board(&human_view, Some(human_moved), status)
            }
        })();
        self.abandon(step)
    }
}
