//! UBGI 0.2: the session's state and its requests.

use super::command::{Command, Forget};
use super::engine::{answer_pending, choose_at, cube_analysis, Answer, Engine};
use super::keys::{key_lines, ubgi_ply, Keys};
use super::{error, Flow, VERSION};
use gammon_engine::cube::CubeAnalysis;
use gammon_rules::{Dice, GameContext, Position, Xgid};

/// The state of a UBGI 0.2 session.
#[derive(Debug)]
pub(super) struct Session {
    position: Option<Position>,
    dice: Option<Dice>,
    /// Cube, score and rules: an XGID's, money with a centred cube for a
    /// Position ID. Its dice state tells whether a cube action is pending.
    context: GameContext,
    /// The values of `get` and `set`.
    keys: Keys,
}

impl Session {
    pub(super) fn new(cube_ply: u8, ply: u8) -> Self {
        Session { position: None, dice: None, context: GameContext::money(), keys: Keys::new(cube_ply, ply) }
    }

    pub(super) fn handle(&mut self, engine: &Engine<'_>, line: &str, out: &mut Vec<String>) -> Flow {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let Some(command) = Command::parse(word) else {
            // An unknown word may be a command meant to set something
            // (`Position …`: keywords are case-sensitive), so it is refused
            // as a setter is.
            self.forget_request();
            out.push(error("bad_command", format!("unknown command {word:?} (commands: {})", Command::names())));
            return Flow::Continue;
        };
        match self.apply(engine, command, rest, out) {
            Ok(flow) => flow,
            Err(e) => {
                out.push(e);
                match command.refused_forgets() {
                    Forget::Nothing => {}
                    Forget::Dice => self.dice = None,
                    Forget::Request => self.forget_request(),
                }
                Flow::Continue
            }
        }
    }

    /// Refuses a line that cannot be read (too long, not UTF-8) as an
    /// unknown command is refused: it may have been meant to set something.
    pub(super) fn refuse_unreadable(&mut self, why: &str, out: &mut Vec<String>) -> Flow {
        self.forget_request();
        out.push(error("bad_command", why));
        Flow::Continue
    }

    /// Forgets the decision request: the position, its cube context and the
    /// dice (what `newgame` forgets).
    fn forget_request(&mut self) {
        self.position = None;
        self.dice = None;
        self.context = GameContext::money();
    }

    /// Carries out one command; its answers go to `out`, a refusal is the
    /// error line.
    fn apply(
        &mut self,
        engine: &Engine<'_>,
        command: Command,
        rest: &str,
        out: &mut Vec<String>,
    ) -> std::result::Result<Flow, String> {
        let no_args = || {
            if rest.is_empty() {
                Ok(())
            } else {
                Err(error("bad_command", format!("expected: {} (without arguments)", command.name())))
            }
        };
        match command {
            Command::Ubgi => {
                no_args()?;
                out.push(format!("id name gammon {VERSION}"));
                out.push("id author gammon developers".to_string());
                out.push(format!("id version {VERSION}"));
                out.push("proto 0.2".to_string());
                out.extend(key_lines(engine.args.cube_ply, engine.args.ply));
                out.push("ubgiok".to_string());
            }
            Command::IsReady => {
                no_args()?;
                out.push("readyok".to_string());
            }
            Command::NewGame => {
                no_args()?;
                self.forget_request();
            }
            Command::Keys => {
                no_args()?;
                out.extend(key_lines(engine.args.cube_ply, engine.args.ply));
            }
            Command::Get => {
                if rest.is_empty() || rest.contains(char::is_whitespace) {
                    return Err(error("bad_command", "expected: get <key>"));
                }
                match self.keys.get(rest) {
                    Some(value) => out.push(format!("value {rest} {value}")),
                    None => return Err(error("unsupported", format!("key {rest}"))),
                }
            }
            Command::Set => match rest.split_once(char::is_whitespace) {
                Some((key, value)) => self.keys.set(key, value.trim())?,
                None => return Err(error("bad_command", "expected: set <key> <value>")),
            },
            Command::SetOption => {
                return Err(error("unsupported", "setoption (UBGI 0.2 uses: set <key> <value>; see keys)"));
            }
            Command::Position => self.set_position(rest)?,
            Command::Dice => {
                if rest.is_empty() {
                    return Err(error("bad_command", "expected: dice <d1> <d2>"));
                }
                match rest.parse::<Dice>() {
                    Ok(d) => self.dice = Some(d),
                    Err(e) => return Err(error("bad_value", format!("dice {rest:?}: {e}"))),
                }
            }
            Command::Go => match rest {
                "" | "chequer" | "role chequer" => out.extend(self.go(engine)),
                "cube" | "role cube" => out.extend(self.go_cube(engine)),
                "turn" | "role turn" => out.extend(self.go_turn(engine)),
                _ => return Err(error("bad_command", "expected: go [chequer | cube | turn]")),
            },
            Command::Stop => {}
            Command::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    /// `position gnubgid <ID>` / `position xgid <XGID>`, or the error line.
    fn set_position(&mut self, rest: &str) -> std::result::Result<(), String> {
        let expected = || error("bad_command", "expected: position gnubgid <ID> | position xgid <XGID>");
        let (kind, text) = rest.split_once(char::is_whitespace).ok_or_else(expected)?;
        let text = text.trim();
        match kind {
            "gnubgid" => {
                let p = Position::from_position_id(text)
                    .map_err(|e| error("bad_value", format!("Position ID {text:?}: {e}")))?;
                self.position = Some(p);
                self.context = GameContext::money();
            }
            "xgid" => {
                let x = Xgid::parse(text)
                    .map_err(|e| error("bad_value", format!("XGID {text:?}: {:#}", anyhow::Error::from(e))))?;
                self.position = Some(x.position);
                self.dice = x.context.dice.dice();
                self.context = x.context;
            }
            _ => return Err(expected()),
        }
        Ok(())
    }

    /// The position, or the error line.
    fn position(&self) -> std::result::Result<Position, String> {
        let Some(pos) = self.position else {
            return Err(error("bad_state", "missing position (send: position gnubgid <ID>)"));
        };
        if pos.game_result().is_some() {
            return Err(error("bad_state", "the game is over in this position: a side has no checkers left"));
        }
        Ok(pos)
    }

    /// The error line when a cube action is pending and a move is asked for.
    fn no_pending(&self, what: &str) -> std::result::Result<(), String> {
        if self.context.dice.cube_pending() {
            return Err(error(
                "bad_state",
                format!("a cube action is pending (XGID dice field D, B or R): answer it with go cube, not {what}"),
            ));
        }
        Ok(())
    }

    /// The chequer move and its `info` line, or the error line.
    fn best_move(&self, engine: &Engine<'_>, pos: &Position) -> std::result::Result<(String, Option<String>), String> {
        let Some(dice) = self.dice else {
            return Err(error("bad_state", "missing dice (send: dice <d1> <d2>)"));
        };
        let (m, equity) = choose_at(engine, pos, dice, self.keys.ply)
            .map_err(|e| error("bad_state", format!("cannot choose a move: {e:#}")))?;
        let text = m.to_ubgi(true);
        let info = equity.map(|eq| format!("info depth {} score {eq:.4} pv {text}", ubgi_ply(self.keys.ply)));
        Ok((text, info))
    }

    fn go(&self, engine: &Engine<'_>) -> Vec<String> {
        let run = || -> std::result::Result<Vec<String>, String> {
            let pos = self.position()?;
            self.no_pending("go chequer")?;
            let (text, info) = self.best_move(engine, &pos)?;
            Ok(info.into_iter().chain([format!("bestmove {text}")]).collect())
        };
        run().unwrap_or_else(|e| vec![e])
    }

    /// The cube decision of the position's context, or the error line.
    fn cube(&self, engine: &Engine<'_>, pos: &Position) -> std::result::Result<CubeAnalysis, String> {
        cube_analysis(engine, pos, &self.context, self.keys.cube_ply).map_err(|(code, why)| error(code, why))
    }

    /// `go cube`: `bestcube double|nodouble` before the roll; `bestcube
    /// take|drop|beaver` when the XGID has a cube action pending.
    fn go_cube(&self, engine: &Engine<'_>) -> Vec<String> {
        let run = || -> std::result::Result<Vec<String>, String> {
            let pos = self.position()?;
            let a = self.cube(engine, &pos)?;
            let info = cube_info(&a);
            let answer = if self.context.dice.cube_pending() {
                match answer_pending(&a, self.context.dice) {
                    Answer::Take => "take",
                    Answer::Drop => "drop",
                    Answer::Beaver => "beaver",
                }
            } else if a.action.doubles() {
                "double"
            } else {
                "nodouble"
            };
            Ok(vec![info, format!("bestcube {answer}")])
        };
        run().unwrap_or_else(|e| vec![e])
    }

    /// `go turn`: the cube decision before the roll and the move for the
    /// dice given: `bestturn cube=<double|nodouble> move=<move>`.
    fn go_turn(&self, engine: &Engine<'_>) -> Vec<String> {
        let run = || -> std::result::Result<Vec<String>, String> {
            let pos = self.position()?;
            self.no_pending("go turn")?;
            if self.dice.is_none() {
                return Err(error("bad_state", "missing dice (send: dice <d1> <d2>)"));
            }
            let a = self.cube(engine, &pos)?;
            let (text, _) = self.best_move(engine, &pos)?;
            let cube = if a.action.doubles() { "double" } else { "nodouble" };
            Ok(vec![cube_info(&a), format!("bestturn cube={cube} move={text}")])
        };
        run().unwrap_or_else(|e| vec![e])
    }
}

/// The `info` line of a cube decision: the value with correct cube play
/// and the three cubeful equities, normalised to the cube, and gnubg's
/// verdict.
fn cube_info(a: &CubeAnalysis) -> String {
    format!(
        "info score {:.4} nd {:.4} dt {:.4} dp {:.4} action {}",
        a.best(),
        a.no_double,
        a.double_take,
        a.double_pass,
        a.action.as_str().replace(", ", "/").replace(' ', "_")
    )
}
