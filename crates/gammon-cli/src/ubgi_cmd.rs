//! `gammon ubgi`: a UBGI (Universal Backgammon Interface) engine on standard
//! input and output.
//!
//! One request per line; every reply line is flushed at once; logs go to
//! standard error only. The engine plays cubeless chequer moves with the
//! shipped net (or `--engine`/`--weights`) at UBGI 1 ply by default (gnubg
//! 0-ply: every legal move is evaluated, no lookahead; `--ply 2` or `3`
//! searches gnubg 1 or 2 plies deep through gnubg's move filter), and answers cube questions
//! searched `--cube-ply` gnubg plies deep (default 2, gnubg's standard; see
//! `gammon cube` and [`analyse_position_nply`]). Two drafts of UBGI exist
//! and are incompatible; `--protocol` chooses one.
//!
//! # Cube decisions (both drafts)
//!
//! The cube, its owner, the score, the match length and the Crawford,
//! Jacoby and beaver rules come from the XGID (or FIBS board in 0.01);
//! matches use the Kazaross-XG2 match equity table (up to 25 points). The
//! player on roll, before rolling, doubles when the proper action (gnubg's
//! verdict) is a double, optional doubles included; "too good to double" is
//! not a double, nor is any position where he may not double (the opponent
//! owns the cube, the Crawford game, a dead cube, the maximum cube). A
//! pending cube action (XGID dice field) is answered by the side who must
//! act, from the doubler's analysis:
//!
//! - `D` (the player on roll doubled): the opponent takes when double/take
//!   is worth no more to the doubler than double/pass, drops otherwise; in
//!   money play with beavers he beavers when the doubler is the underdog
//!   after a take (double/take < 0);
//! - `B` (the opponent beavered): the doubler, who must answer (gammon_rules
//!   `Xgid` docs), accepts the cube at four times when that is worth more
//!   than passing it (losing twice the cube): double/take >= -1 normalised;
//!   a raccoon is never proposed;
//! - `R` (the doubler raccooned): the opponent accepts the cube at eight
//!   times unless passing (losing four times the cube) is better:
//!   double/take <= +1.
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
//! | `newgame` | nothing (forgets the position, the dice and the cube context) |
//! | `keys` | one `key <name> <type> <default> [!] <description>` line per key |
//! | `get <key>` | `value <key> <value>` |
//! | `set <key> <value>` | nothing on success |
//! | `position gnubgid <ID>`, `position xgid <XGID>` | nothing on success |
//! | `dice <d1> <d2>` (also `dice 31`) | nothing on success |
//! | `go`, `go chequer` (and v0.1's `go role chequer`) | `info depth 1 score <equity> pv <move>` (when there was a choice), then `bestmove <move>` |
//! | `go cube` (and `go role cube`) | `info score <best> nd <no double> dt <double/take> dp <double/pass> action <gnubg's verdict>`, then `bestcube double` or `bestcube nodouble`; with a cube action pending in the XGID (`D`, `B`, `R`): `bestcube take`, `bestcube drop` or (`D` with beavers) `bestcube beaver` |
//! | `go turn` (and `go role turn`) | the same `info` line, then `bestturn cube=<double\|nodouble> move=<move>` |
//! | `stop` | nothing (searches are not asynchronous) |
//! | `quit` (or end of input) | nothing; the engine exits |
//!
//! The spec (its commit of `docs/ubgi-v0.2-spec.md` that defines
//! `engine.ply`, and the earlier one) names the answers `bestcube
//! <double|nodouble>` and `bestturn cube=<double|nodouble> move=<payload>`
//! and nothing for the answer to a double; `bestcube take`, `drop` and
//! `beaver` are this engine's words for it, `take` and `drop` as in draft
//! 0.01 (`drop` rather than `pass`, which a move payload uses). In `info`
//! the equities are normalised to the cube (gnubg's "equivalent to money"
//! in a match) and the verdict is written with `/` for the comma and `_` for
//! spaces (`Double/take`, `Too_good_to_double/pass`). `go cube` ignores
//! dice already given (the decision comes before the roll); `go turn` needs
//! them: its cube decision is made before the roll and its move is the one
//! for those dice (after a take). `go`, `go chequer` and `go turn` while a
//! cube action is pending are `bad_state`.
//!
//! Keys: `engine.ply` (int 1..3, default `--ply`: UBGI counts plies from 1
//! = gnubg's 0-ply; 0 or less is `bad_value`, 4 and more `unsupported`),
//! `engine.cubeply` (int 0..2, the depth of cube decisions in gnubg's
//! numbering, the engine-specific native key the spec allows; default
//! `--cube-ply`), `engine.threads` (1..256, accepted; a 1-ply decision runs
//! on one thread), `engine.seed` (any `u64`, accepted; the engine is
//! deterministic) and `game.variant` (only `backgammon`), following bkgm's
//! runtime. `!` marks the minor keys, as the spec describes. The spec names
//! no keys for the cube or the score, so there are none: give them with
//! `position xgid`. A `position gnubgid` is money play with a centred cube,
//! Jacoby and beavers off.
//!
//! A move is written as every single-die step in the order played, points
//! in the mover's numbering, `bar` and `off` as words, no `*` and no `(2)`:
//! `bestmove 24/18 18/13`, `bestmove bar/22 6/off`; `bestmove pass` when no
//! checker can move ([`Move::to_ubgi`]`(true)`).
//!
//! Errors are one line `error <code> <detail>` with the four codes of the
//! spec: `bad_command` (unknown command or malformed syntax), `bad_value`
//! (an unreadable Position ID, XGID, dice or key value), `bad_state` (`go`
//! without a position or dice, a finished game, a pending cube action for a
//! move, an evaluator that does not load) and `unsupported` (`engine.ply`
//! above 3, unknown keys, v0.1's `setoption`, a cube question in a match
//! longer than the match equity table). After an error the engine keeps
//! running. Keywords are case-sensitive (spec §1).
//!
//! Choices where the drafts are silent:
//! * The controller need not send `ubgi` first; the evaluator is loaded on
//!   `ubgi`, `isready` or the first `go`, whichever comes first.
//! * `position gnubgid` keeps the dice already given (the arena and bgci
//!   send `position`, `dice`, `go` in that order, wildbg keeps them too);
//!   `position xgid` replaces them with the XGID's dice, or clears them when
//!   the XGID says the dice are not rolled yet (`00`) or a cube action is
//!   pending. Chequer moves are cubeless money moves in every context.
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
//! | the same with the dice not rolled (`00`) | `double` or `roll` (`roll` whenever the player on roll may not double) |
//! | the same with a cube action pending (`D`, `B`, `R`) | `take` or `drop`, by the side who must answer (see above; a correct beaver is answered `take`, the draft has no word for it) |
//! | `stop` | nothing |
//! | `quit` (or end of input) | nothing; the engine exits |
//! | anything else | `sorry` (the reason goes to standard error), e.g. a cube question in a match longer than 25 points |
//!
//! `isready` is answered `readyok` as well (not in the draft; harmless).
//!
//! The arena in `shared/arena` (`players.UbgiPlayer`) speaks both drafts
//! and tells them apart by the last line of the handshake (`ubgiok` or
//! `readyok`).

use crate::evaluators;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use gammon_engine::api::{self, pending_answer, EngineError, PendingAnswer};
use gammon_engine::cube::{CubeAnalysis, CubeError};
use gammon_eval::Evaluator;
use gammon_rules::{
    BeaverAnswer, CubeAnswer, Dice, DiceState, FibsBoard, GameContext, Move, Position, RaccoonAnswer, Xgid,
};
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
    /// Depth of cube decisions in gnubg plies (0 = static evaluation and
    /// Janowski's model; 2 = gnubg's standard). UBGI 0.2 may change it with
    /// `set engine.cubeply`.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=MAX_CUBE_PLY as i64))]
    cube_ply: u8,
    /// Depth of chequer play in UBGI plies (1 = gnubg 0-ply: the net's best
    /// move; 2 and 3 = gnubg 1- and 2-ply searches with gnubg's move
    /// filter). UBGI 0.2 may change it with `set engine.ply`.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=MAX_PLY as i64))]
    ply: u8,
}

/// The deepest chequer search offered, in UBGI plies (3 = gnubg 2-ply).
const MAX_PLY: u8 = 3;

/// The deepest cube search offered.
const MAX_CUBE_PLY: u8 = 2;

/// Runs `gammon ubgi` on standard input and output.
pub fn run(args: &UbgiArgs) -> Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(args, stdin.lock(), stdout.lock())
}

/// The engine (the evaluator inside the engine API), loaded on first use.
struct Engine<'a> {
    args: &'a UbgiArgs,
    api: Option<api::Engine<Box<dyn Evaluator>>>,
}

impl Engine<'_> {
    fn api(&mut self) -> Result<&api::Engine<Box<dyn Evaluator>>> {
        if self.api.is_none() {
            let evaluator: Box<dyn Evaluator> = match (&self.args.engine, &self.args.weights) {
                (_, Some(path)) => Box::new(evaluators::net(Some(path))?),
                (Some(spec), None) => evaluators::by_name(spec)?,
                (None, None) => Box::new(evaluators::net(None)?),
            };
            eprintln!("gammon ubgi: evaluator {}", evaluator.name());
            self.api = Some(api::Engine::new(evaluator));
        }
        match &self.api {
            Some(e) => Ok(e),
            None => anyhow::bail!("no evaluator"),
        }
    }

    fn get(&mut self) -> Result<&dyn Evaluator> {
        Ok(self.api()?.evaluator().as_ref())
    }
}

/// An answer to a pending cube action, in UBGI's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Take,
    Drop,
    Beaver,
}

/// The cube decision of the player on roll in `pos` (before rolling) in
/// `ctx` (its dice state is ignored), searched `plies` deep; or the UBGI
/// 0.2 error code and the reason.
fn cube_analysis(
    engine: &mut Engine<'_>,
    pos: &Position,
    ctx: &GameContext,
    plies: u8,
) -> std::result::Result<CubeAnalysis, (&'static str, String)> {
    let api = engine.api().map_err(|e| ("bad_state", format!("cannot load the evaluator: {e:#}")))?;
    let before_roll = GameContext { dice: DiceState::ToRoll, ..*ctx };
    api.decide_cube(pos, &before_roll, plies).map(|d| d.analysis).map_err(|e| match e {
        EngineError::GameOver => ("bad_state", "the game is over in this position".to_string()),
        EngineError::Cube(e @ CubeError::MatchTooLong { .. }) => ("unsupported", e.to_string()),
        EngineError::Cube(e @ CubeError::Context(_)) => ("bad_value", e.to_string()),
        e => ("bad_state", e.to_string()),
    })
}

/// The answer to the cube action pending in `pending` ([`pending_answer`]):
/// accepting a beaver or a raccoon is `take`.
fn answer_pending(a: &CubeAnalysis, pending: DiceState) -> Answer {
    match pending_answer(a, pending) {
        Some(PendingAnswer::Double(CubeAnswer::Beaver)) => Answer::Beaver,
        Some(
            PendingAnswer::Double(CubeAnswer::Pass)
            | PendingAnswer::Beaver(BeaverAnswer::Pass)
            | PendingAnswer::Raccoon(RaccoonAnswer::Pass),
        ) => Answer::Drop,
        _ => Answer::Take,
    }
}

/// The engine's choice for `pos` (player on roll to move) and `dice` at
/// `ply` UBGI plies (1 = gnubg's 0-ply): the move, and its cubeless equity
/// for the mover when there was a choice.
fn choose_at(engine: &mut Engine<'_>, pos: &Position, dice: Dice, ply: u8) -> Result<(Move, Option<f32>)> {
    let api = engine.api()?;
    if ply <= 1 {
        let chosen = api.choose_move(pos, dice, 0)?;
        let equity = (chosen.choices > 1).then(|| -api.evaluator().evaluate(&chosen.result).equity());
        return Ok((chosen.mv, equity));
    }
    let ranked = api.analyse_roll(pos, dice, ply - 1)?.moves;
    Ok(match ranked.as_slice() {
        [] => (Move::NONE, None),
        [only] => (only.move_, None),
        [best, ..] => (best.move_, Some(best.equity)),
    })
}

/// What a request line asks of the session.
enum Flow {
    Continue,
    Quit,
}

/// Reads requests from `input` and answers on `out` until `quit` or the end
/// of the input.
fn serve(args: &UbgiArgs, mut input: impl BufRead, mut out: impl Write) -> Result<()> {
    let mut engine = Engine { args, api: None };
    let mut session = Session::new(args.cube_ply, args.ply);
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
            Protocol::V0_01 => handle_v0_01(&mut engine, line, args.cube_ply, &mut replies),
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
    /// Cube, score and rules: an XGID's, money with a centred cube for a
    /// Position ID. Its dice state tells whether a cube action is pending.
    context: GameContext,
    cube_ply: u8,
    /// Chequer-play depth in UBGI plies.
    ply: u8,
    threads: u32,
    seed: u64,
}

impl Session {
    fn new(cube_ply: u8, ply: u8) -> Self {
        Session { position: None, dice: None, context: GameContext::money(), cube_ply, ply, threads: 1, seed: 0 }
    }
}

/// The keys of `keys`, `get` and `set`, as `key` lines (`engine.cubeply`'s
/// default is the `--cube-ply` option).
fn key_lines(cube_ply: u8, ply: u8) -> Vec<String> {
    vec![
        format!("key engine.ply int 1..{MAX_PLY} {ply} root-inclusive decision depth (1 = gnubg 0-ply, 3 = gnubg 2-ply)"),
        format!(
            "key engine.cubeply int 0..{MAX_CUBE_PLY} {cube_ply} cube decision depth in gnubg plies (0 = static evaluation and Janowski's model, 2 = gnubg's standard)"
        ),
        "key engine.threads int 1..256 1 ! worker threads (accepted; a 1-ply decision runs on one thread)".to_string(),
        "key engine.seed int * 0 ! random seed (accepted; the engine is deterministic)".to_string(),
        "key game.variant enum backgammon backgammon game variant".to_string(),
    ]
}

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
                        out.extend(key_lines(engine.args.cube_ply, engine.args.ply));
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
                    self.context = GameContext::money();
                }
            }
            "keys" => {
                if no_args(out) {
                    out.extend(key_lines(engine.args.cube_ply, engine.args.ply));
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
                "cube" | "role cube" => out.extend(self.go_cube(engine)),
                "turn" | "role turn" => out.extend(self.go_turn(engine)),
                _ => out.push(error("bad_command", "expected: go [chequer | cube | turn]")),
            },
            "stop" => {}
            "quit" => return Flow::Quit,
            _ => out.push(error("bad_command", format!("unknown command {command:?}"))),
        }
        Flow::Continue
    }

    fn get(&self, key: &str) -> Option<String> {
        match key {
            "engine.ply" => Some(self.ply.to_string()),
            "engine.cubeply" => Some(self.cube_ply.to_string()),
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
                Ok(n @ 1..=3) => {
                    self.ply = n as u8;
                    None
                }
                Ok(n) if n < 1 => Some(error("bad_value", "engine.ply must be at least 1 (1 = gnubg 0-ply)")),
                Ok(n) => Some(error("unsupported", format!("engine.ply {n}: at most {MAX_PLY} (gnubg 2-ply)"))),
                Err(_) => Some(error("bad_value", format!("engine.ply {value:?} is not an integer"))),
            },
            "engine.cubeply" => match value.parse::<u8>() {
                Ok(n @ 0..=MAX_CUBE_PLY) => {
                    self.cube_ply = n;
                    None
                }
                _ => Some(error("bad_value", format!("engine.cubeply {value:?}: must be 0..{MAX_CUBE_PLY}"))),
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
                    self.context = GameContext::money();
                    None
                }
                Err(e) => Some(error("bad_value", format!("Position ID {text:?}: {e}"))),
            },
            "xgid" => match Xgid::parse(text) {
                Ok(x) => {
                    self.position = Some(x.position);
                    self.dice = x.context.dice.dice();
                    self.context = x.context;
                    None
                }
                Err(e) => Some(error("bad_value", format!("XGID {text:?}: {e}"))),
            },
            _ => Some(expected()),
        }
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
    fn best_move(
        &self,
        engine: &mut Engine<'_>,
        pos: &Position,
    ) -> std::result::Result<(String, Option<String>), String> {
        let Some(dice) = self.dice else {
            return Err(error("bad_state", "missing dice (send: dice <d1> <d2>)"));
        };
        let (m, equity) = choose_at(engine, pos, dice, self.ply)
            .map_err(|e| error("bad_state", format!("cannot choose a move: {e:#}")))?;
        let text = m.to_ubgi(true);
        let info = equity.map(|eq| format!("info depth {} score {eq:.4} pv {text}", self.ply));
        Ok((text, info))
    }

    fn go(&self, engine: &mut Engine<'_>) -> Vec<String> {
        let mut run = || -> std::result::Result<Vec<String>, String> {
            let pos = self.position()?;
            self.no_pending("go chequer")?;
            let (text, info) = self.best_move(engine, &pos)?;
            Ok(info.into_iter().chain([format!("bestmove {text}")]).collect())
        };
        run().unwrap_or_else(|e| vec![e])
    }

    /// The cube decision of the position's context, or the error line.
    fn cube(&self, engine: &mut Engine<'_>, pos: &Position) -> std::result::Result<CubeAnalysis, String> {
        cube_analysis(engine, pos, &self.context, self.cube_ply).map_err(|(code, why)| error(code, why))
    }

    /// `go cube`: `bestcube double|nodouble` before the roll; `bestcube
    /// take|drop|beaver` when the XGID has a cube action pending.
    fn go_cube(&self, engine: &mut Engine<'_>) -> Vec<String> {
        let mut run = || -> std::result::Result<Vec<String>, String> {
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
    fn go_turn(&self, engine: &mut Engine<'_>) -> Vec<String> {
        let mut run = || -> std::result::Result<Vec<String>, String> {
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

// ----------------------------------------------------------------- UBGI 0.01

/// Logs why a request got `sorry` and answers it.
fn sorry(out: &mut Vec<String>, why: impl std::fmt::Display) {
    eprintln!("gammon ubgi: sorry: {why}");
    out.push("sorry".to_string());
}

fn handle_v0_01(engine: &mut Engine<'_>, line: &str, cube_ply: u8, out: &mut Vec<String>) -> Flow {
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
                FibsBoard::parse(line).map(|b| (b.position, b.context)).map_err(|e| format!("FIBS board: {e}"))
            } else if line.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("XGID=")) || line.contains(':') {
                Xgid::parse(line).map(|x| (x.position, x.context)).map_err(|e| format!("XGID {line:?}: {e}"))
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
