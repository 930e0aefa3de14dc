//! `gammon ubgi`: a UBGI (Universal Backgammon Interface) engine on standard
//! input and output.
//!
//! One request per line; every reply line is flushed at once; logs go to
//! standard error only. The engine plays cubeless chequer moves with the
//! shipped net (or `--engine`/`--weights`) at UBGI 1 ply (gnubg 0-ply: every
//! legal move is evaluated, no lookahead). Two drafts of UBGI exist and are
//! incompatible; `--protocol` chooses one.
//!
//! # UBGI 0.2 (default)
//!
//! The UCI-like draft of the bgci duel runner (bungogood/bgci
//! `docs/ubgi-v0.2-spec.md`), also spoken by wildbg's UBGI binary (wildbg
//! PR #41) and bkgm's `ubgi` runtime:
//!
//! | controller -> engine | engine -> controller |
//! |---|---|
//! | `ubgi` | `id name gammon <version>`, `id author gammon developers`, `id version <version>`, `proto 0.2`, the `key` lines, `ubgiok` |
//! | `isready` | `readyok` |
//! | `newgame` | nothing (forgets the position and the dice) |
//! | `keys` | one `key <name> <type> <default> [!] <description>` line per key |
//! | `get <key>` | `value <key> <value>` |
//! | `set <key> <value>` | nothing on success |
//! | `position gnubgid <ID>`, `position xgid <XGID>` | nothing on success |
//! | `dice <d1> <d2>` (also `dice 31`) | nothing on success |
//! | `go`, `go chequer` (and v0.1's `go role chequer`) | `info depth 1 score <equity> pv <move>` (when there was a choice), then `bestmove <move>` |
//! | `stop` | nothing (searches are not asynchronous) |
//! | `quit` (or end of input) | nothing; the engine exits |
//!
//! Keys: `engine.ply` (int, only 1 is implemented: UBGI counts plies from 1
//! = gnubg's 0-ply; 0 or less is `bad_value`, 2 and more `unsupported`),
//! `engine.threads` (1..256, accepted; a 1-ply decision runs on one thread),
//! `engine.seed` (any `u64`, accepted; the engine is deterministic) and
//! `game.variant` (only `backgammon`), following bkgm's runtime. `!` marks
//! the minor keys, as the spec describes.
//!
//! A move is written as every single-die step in the order played, points
//! in the mover's numbering, `bar` and `off` as words, no `*` and no `(2)`:
//! `bestmove 24/18 18/13`, `bestmove bar/22 6/off`; `bestmove pass` when no
//! checker can move ([`Move::to_ubgi`]`(true)`).
//!
//! Errors are one line `error <code> <detail>` with the four codes of the
//! spec: `bad_command` (unknown command or malformed syntax), `bad_value`
//! (an unreadable Position ID, XGID, dice or key value), `bad_state` (`go`
//! without a position or dice, a finished game, an evaluator that does not
//! load) and `unsupported` (`go cube`, `go turn`, an XGID with a pending
//! double, `engine.ply` above 1, unknown keys, v0.1's `setoption`). After an
//! error the engine keeps running. Keywords are case-sensitive (spec §1).
//!
//! Choices where the drafts are silent:
//! * The controller need not send `ubgi` first; the evaluator is loaded on
//!   `ubgi`, `isready` or the first `go`, whichever comes first.
//! * `position gnubgid` keeps the dice already given (the arena and bgci
//!   send `position`, `dice`, `go` in that order, wildbg keeps them too);
//!   `position xgid` replaces them with the XGID's dice, or clears them when
//!   the XGID says the dice are not rolled yet (`00`). Match XGIDs are
//!   accepted and played as cubeless money games.
//! * `position xgid` accepts the text with or without `XGID=`.
//!
//! # UBGI draft 0.01 (`--protocol 0.01`)
//!
//! Øystein Schønning-Johansen's first draft (oysteijo/Universal-Backgammon-
//! Interface, `README.md`): the engine is stateless.
//!
//! | controller -> engine | engine -> controller |
//! |---|---|
//! | `ubgi` | `id name gammon`, `id author gammon developers`, `id version <version>`, `readyok` (`sorry` if the evaluator does not load) |
//! | an XGID (`XGID=...:31:...`) or a FIBS rawboard line (`board:...`) with rolled dice | the best move on one line, `8/5 6/5`, bar = `25`, off = `0`, every single-die step written out, no `*`, no `(2)` ([`Move::to_ubgi`]`(false)`); a **blank line** when no checker can move |
//! | the same with the dice not rolled (`00`) or a cube action pending (`D`, `B`, `R`) | `sorry`: cube decisions are not implemented yet |
//! | `stop` | nothing |
//! | `quit` (or end of input) | nothing; the engine exits |
//! | anything else | `sorry` (the reason goes to standard error) |
//!
//! `isready` is answered `readyok` as well (not in the draft; harmless).
//!
//! The arena in `shared/arena` (`players.UbgiPlayer`) speaks both drafts
//! and tells them apart by the last line of the handshake (`ubgiok` or
//! `readyok`).

use crate::evaluators;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use gammon_eval::Evaluator;
use gammon_rules::{Dice, DiceState, FibsBoard, Move, MoveList, Position, Xgid};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// The engine's version, as `id` lines give it.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The UBGI drafts this engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Protocol {
    /// UBGI v0.2 (bgci, wildbg): `ubgiok`, `position`, `dice`, `go`, `bestmove`.
    #[value(name = "0.2")]
    V0_2,
    /// UBGI draft 0.01 (oysteijo): an XGID per line, the move as the answer.
    #[value(name = "0.01")]
    V0_01,
}

/// Arguments of `gammon ubgi`.
#[derive(Debug, Args)]
pub struct UbgiArgs {
    /// The UBGI draft to speak: `0.2` (bgci/wildbg) or `0.01` (oysteijo).
    #[arg(long, value_enum, default_value = "0.2")]
    protocol: Protocol,
    /// The evaluator: `net` (built-in), `pubeval`, or a weights file.
    #[arg(long, conflicts_with = "weights")]
    engine: Option<String>,
    /// A weights file for the net (default: the built-in weights).
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// Runs `gammon ubgi` on standard input and output.
pub fn run(args: &UbgiArgs) -> Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(args, stdin.lock(), stdout.lock())
}

/// The evaluator, loaded on first use.
struct Engine<'a> {
    args: &'a UbgiArgs,
    evaluator: Option<Box<dyn Evaluator>>,
}

impl Engine<'_> {
    fn get(&mut self) -> Result<&dyn Evaluator> {
        if self.evaluator.is_none() {
            let evaluator: Box<dyn Evaluator> = match (&self.args.engine, &self.args.weights) {
                (_, Some(path)) => Box::new(evaluators::net(Some(path))?),
                (Some(spec), None) => evaluators::by_name(spec)?,
                (None, None) => Box::new(evaluators::net(None)?),
            };
            eprintln!("gammon ubgi: evaluator {}", evaluator.name());
            self.evaluator = Some(evaluator);
        }
        match &self.evaluator {
            Some(e) => Ok(e.as_ref()),
            None => anyhow::bail!("no evaluator"),
        }
    }
}

/// The engine's choice for `pos` (player on roll to move) and `dice`: the
/// move, and its cubeless equity for the mover when there was a choice.
fn choose(evaluator: &dyn Evaluator, pos: &Position, dice: Dice) -> (Move, Option<f32>) {
    let mut list = MoveList::new();
    list.generate(pos, dice);
    match list.len() {
        0 => (Move::NONE, None),
        1 => (list.moves()[0], None),
        n => {
            let i = evaluator.best_move(pos, list.positions());
            let i = if i < n { i } else { 0 };
            let equity = -evaluator.evaluate(&list.positions()[i]).equity();
            (list.moves()[i], Some(equity))
        }
    }
}

/// What a request line asks of the session.
enum Flow {
    Continue,
    Quit,
}

/// Reads requests from `input` and answers on `out` until `quit` or the end
/// of the input.
fn serve(args: &UbgiArgs, mut input: impl BufRead, mut out: impl Write) -> Result<()> {
    let mut engine = Engine { args, evaluator: None };
    let mut session = Session::default();
    let mut buf = Vec::new();
    let mut replies: Vec<String> = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf).context("reading standard input")? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        replies.clear();
        let flow = match args.protocol {
            Protocol::V0_2 => session.handle(&mut engine, line, &mut replies),
            Protocol::V0_01 => handle_v0_01(&mut engine, line, &mut replies),
        };
        for reply in &replies {
            writeln!(out, "{reply}")?;
        }
        out.flush()?;
        if matches!(flow, Flow::Quit) {
            return Ok(());
        }
    }
}

// ------------------------------------------------------------------ UBGI 0.2

/// The state of a UBGI 0.2 session.
#[derive(Debug)]
struct Session {
    position: Option<Position>,
    dice: Option<Dice>,
    threads: u32,
    seed: u64,
}

impl Default for Session {
    fn default() -> Self {
        Session { position: None, dice: None, threads: 1, seed: 0 }
    }
}

/// The keys of `keys`, `get` and `set`, as `key` lines.
const KEY_LINES: [&str; 4] = [
    "key engine.ply int 1..1 1 root-inclusive decision depth (1 = gnubg 0-ply; deeper searches are not implemented)",
    "key engine.threads int 1..256 1 ! worker threads (accepted; a 1-ply decision runs on one thread)",
    "key engine.seed int * 0 ! random seed (accepted; the engine is deterministic)",
    "key game.variant enum backgammon backgammon game variant",
];

fn error(code: &str, detail: impl std::fmt::Display) -> String {
    format!("error {code} {detail}")
}

impl Session {
    fn handle(&mut self, engine: &mut Engine<'_>, line: &str, out: &mut Vec<String>) -> Flow {
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let no_args = |out: &mut Vec<String>| {
            if rest.is_empty() {
                true
            } else {
                out.push(error("bad_command", format!("expected: {command} (without arguments)")));
                false
            }
        };
        match command {
            "ubgi" => {
                if !no_args(out) {
                    return Flow::Continue;
                }
                match engine.get() {
                    Ok(_) => {
                        out.push(format!("id name gammon {VERSION}"));
                        out.push("id author gammon developers".to_string());
                        out.push(format!("id version {VERSION}"));
                        out.push("proto 0.2".to_string());
                        out.extend(KEY_LINES.iter().map(|k| k.to_string()));
                        out.push("ubgiok".to_string());
                    }
                    Err(e) => out.push(error("bad_state", format!("cannot load the evaluator: {e:#}"))),
                }
            }
            "isready" => {
                if no_args(out) {
                    match engine.get() {
                        Ok(_) => out.push("readyok".to_string()),
                        Err(e) => out.push(error("bad_state", format!("cannot load the evaluator: {e:#}"))),
                    }
                }
            }
            "newgame" => {
                if no_args(out) {
                    self.position = None;
                    self.dice = None;
                }
            }
            "keys" => {
                if no_args(out) {
                    out.extend(KEY_LINES.iter().map(|k| k.to_string()));
                }
            }
            "get" => {
                if rest.is_empty() || rest.contains(char::is_whitespace) {
                    out.push(error("bad_command", "expected: get <key>"));
                } else if let Some(value) = self.get(rest) {
                    out.push(format!("value {rest} {value}"));
                } else {
                    out.push(error("unsupported", format!("key {rest}")));
                }
            }
            "set" => match rest.split_once(char::is_whitespace) {
                Some((key, value)) => {
                    if let Some(e) = self.set(key, value.trim()) {
                        out.push(e);
                    }
                }
                None => out.push(error("bad_command", "expected: set <key> <value>")),
            },
            "setoption" => out.push(error("unsupported", "setoption (UBGI 0.2 uses: set <key> <value>; see keys)")),
            "position" => {
                if let Some(e) = self.set_position(rest) {
                    out.push(e);
                }
            }
            "dice" => {
                if rest.is_empty() {
                    out.push(error("bad_command", "expected: dice <d1> <d2>"));
                } else {
                    match rest.parse::<Dice>() {
                        Ok(d) => self.dice = Some(d),
                        Err(e) => out.push(error("bad_value", format!("dice {rest:?}: {e}"))),
                    }
                }
            }
            "go" => match rest {
                "" | "chequer" | "role chequer" => out.extend(self.go(engine)),
                "cube" | "turn" | "role cube" | "role turn" => out.push(error(
                    "unsupported",
                    format!("go {}: cube decisions are not implemented yet", rest.trim_start_matches("role ")),
                )),
                _ => out.push(error("bad_command", "expected: go [chequer]")),
            },
            "stop" => {}
            "quit" => return Flow::Quit,
            _ => out.push(error("bad_command", format!("unknown command {command:?}"))),
        }
        Flow::Continue
    }

    fn get(&self, key: &str) -> Option<String> {
        match key {
            "engine.ply" => Some("1".to_string()),
            "engine.threads" => Some(self.threads.to_string()),
            "engine.seed" => Some(self.seed.to_string()),
            "game.variant" => Some("backgammon".to_string()),
            _ => None,
        }
    }

    /// Sets a key; an error line if it cannot.
    fn set(&mut self, key: &str, value: &str) -> Option<String> {
        match key {
            "engine.ply" => match value.parse::<i64>() {
                Ok(1) => None,
                Ok(n) if n < 1 => Some(error("bad_value", "engine.ply must be at least 1 (1 = gnubg 0-ply)")),
                Ok(n) => Some(error("unsupported", format!("engine.ply {n}: only 1 (gnubg 0-ply) is implemented"))),
                Err(_) => Some(error("bad_value", format!("engine.ply {value:?} is not an integer"))),
            },
            "engine.threads" => match value.parse::<u32>() {
                Ok(n @ 1..=256) => {
                    self.threads = n;
                    None
                }
                _ => Some(error("bad_value", format!("engine.threads {value:?}: must be 1..256"))),
            },
            "engine.seed" => match value.parse::<u64>() {
                Ok(n) => {
                    self.seed = n;
                    None
                }
                Err(_) => Some(error("bad_value", format!("engine.seed {value:?}: must be an integer 0..2^64-1"))),
            },
            "game.variant" => match value {
                "backgammon" => None,
                _ => Some(error("unsupported", format!("game.variant {value:?}: only backgammon"))),
            },
            _ => Some(error("unsupported", format!("key {key}"))),
        }
    }

    /// `position gnubgid <ID>` / `position xgid <XGID>`; an error line if it fails.
    fn set_position(&mut self, rest: &str) -> Option<String> {
        let expected = || error("bad_command", "expected: position gnubgid <ID> | position xgid <XGID>");
        let Some((kind, text)) = rest.split_once(char::is_whitespace) else {
            return Some(expected());
        };
        let text = text.trim();
        match kind {
            "gnubgid" => match Position::from_position_id(text) {
                Ok(p) => {
                    self.position = Some(p);
                    None
                }
                Err(e) => Some(error("bad_value", format!("Position ID {text:?}: {e}"))),
            },
            "xgid" => match Xgid::parse(text) {
                Ok(x) if x.context.dice.cube_pending() => Some(error(
                    "unsupported",
                    "XGID with a pending cube action (D, B, R): cube decisions are not implemented yet",
                )),
                Ok(x) => {
                    self.position = Some(x.position);
                    self.dice = x.context.dice.dice();
                    None
                }
                Err(e) => Some(error("bad_value", format!("XGID {text:?}: {e}"))),
            },
            _ => Some(expected()),
        }
    }

    fn go(&self, engine: &mut Engine<'_>) -> Vec<String> {
        let Some(pos) = self.position else {
            return vec![error("bad_state", "missing position (send: position gnubgid <ID>)")];
        };
        let Some(dice) = self.dice else {
            return vec![error("bad_state", "missing dice (send: dice <d1> <d2>)")];
        };
        if pos.game_result().is_some() {
            return vec![error("bad_state", "the game is over in this position: a side has no checkers left")];
        }
        let evaluator = match engine.get() {
            Ok(e) => e,
            Err(e) => return vec![error("bad_state", format!("cannot load the evaluator: {e:#}"))],
        };
        let (m, equity) = choose(evaluator, &pos, dice);
        let text = m.to_ubgi(true);
        let mut out = Vec::with_capacity(2);
        if let Some(eq) = equity {
            out.push(format!("info depth 1 score {eq:.4} pv {text}"));
        }
        out.push(format!("bestmove {text}"));
        out
    }
}

// ----------------------------------------------------------------- UBGI 0.01

/// Logs why a request got `sorry` and answers it.
fn sorry(out: &mut Vec<String>, why: impl std::fmt::Display) {
    eprintln!("gammon ubgi: sorry: {why}");
    out.push("sorry".to_string());
}

fn handle_v0_01(engine: &mut Engine<'_>, line: &str, out: &mut Vec<String>) -> Flow {
    match line {
        "ubgi" => match engine.get() {
            Ok(_) => {
                out.push("id name gammon".to_string());
                out.push("id author gammon developers".to_string());
                out.push(format!("id version {VERSION}"));
                out.push("readyok".to_string());
            }
            Err(e) => sorry(out, format!("cannot load the evaluator: {e:#}")),
        },
        "isready" => match engine.get() {
            Ok(_) => out.push("readyok".to_string()),
            Err(e) => sorry(out, format!("cannot load the evaluator: {e:#}")),
        },
        "stop" => {}
        "quit" => return Flow::Quit,
        _ => {
            let parsed = if line.starts_with("board:") {
                FibsBoard::parse(line).map(|b| (b.position, b.context.dice)).map_err(|e| format!("FIBS board: {e}"))
            } else if line.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("XGID=")) || line.contains(':') {
                Xgid::parse(line).map(|x| (x.position, x.context.dice)).map_err(|e| format!("XGID {line:?}: {e}"))
            } else {
                Err(format!("unknown request {line:?}: expected ubgi, an XGID, a FIBS board, stop or quit"))
            };
            let (pos, dice) = match parsed {
                Ok(p) => p,
                Err(why) => {
                    sorry(out, why);
                    return Flow::Continue;
                }
            };
            let dice = match dice {
                DiceState::Rolled(d) => d,
                DiceState::ToRoll => {
                    sorry(out, "the dice are not rolled (00): cube decisions are not implemented yet");
                    return Flow::Continue;
                }
                _ => {
                    sorry(out, "a cube action is pending (D, B, R): cube decisions are not implemented yet");
                    return Flow::Continue;
                }
            };
            if pos.game_result().is_some() {
                sorry(out, "the game is over in this position");
                return Flow::Continue;
            }
            match engine.get() {
                Ok(evaluator) => out.push(choose(evaluator, &pos, dice).0.to_ubgi(false)),
                Err(e) => sorry(out, format!("cannot load the evaluator: {e:#}")),
            }
        }
    }
    Flow::Continue
}
