//! `gammon ubgi`: a UBGI (Universal Backgammon Interface) engine on standard
//! input and output.
//!
//! One request per line; every reply line is flushed at once; logs go to
//! standard error only. The engine plays cubeless chequer moves with the
//! shipped net (or `--engine`/`--weights`) at gnubg 0-ply by default (every
//! legal move is evaluated, no lookahead; `--ply 1` or `2` searches gnubg 1
//! or 2 plies deep through gnubg's move filter), and answers cube questions
//! searched `--cube-ply` gnubg plies deep (default 2, gnubg's standard; see
//! `gammon cube` and [`analyse_position_nply`]). Two drafts of UBGI exist
//! and are incompatible; `--protocol` chooses one. The user's documentation
//! is `docs/ubgi.md`.
//!
//! The evaluator is loaded before the first request is read: a bad
//! `--engine` or `--weights` ends the program with an error and a failure
//! exit, before any answer (a controller waiting for `ubgiok` or `readyok`
//! sees the engine exit, instead of waiting for a handshake that never
//! comes).
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
//! Depth: every option and the session count plies as gnubg does (0 = the
//! net's static evaluation), as every other command does; only the key
//! `engine.ply` and `info depth` count the protocol's root-inclusive plies
//! (UBGI 1 = gnubg 0-ply), converted where they are read and written
//! (`keys::ubgi_ply`, `keys::gnubg_ply`).
//!
//! Keys: `engine.ply` (int 1..3, default `--ply` + 1: UBGI counts plies from 1
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
//! move) and `unsupported` (`engine.ply`
//! above 3, unknown keys, v0.1's `setoption`, a cube question in a match
//! longer than the match equity table). After an error the engine keeps
//! running. Keywords are case-sensitive (spec §1).
//!
//! A refused command leaves no stale state ([`command::Forget`]): a refused
//! `dice` forgets the dice; a refused `position` forgets the position, its
//! cube context and the dice (a `position xgid` sets the dice, and dice
//! given before a refused position were meant for it); a refused `set`,
//! `setoption`, `newgame` with arguments or an unknown command forgets the
//! same, the key keeping its value. `go` then answers `bad_state` until a
//! position and dice are given again.
//!
//! Choices where the drafts are silent:
//! * The controller need not send `ubgi` first.
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
//! | `ubgi` | `id name gammon`, `id author gammon developers`, `id version <version>`, `readyok` |
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
//!
//! [`analyse_position_nply`]: gammon_engine::cube::analyse_position_nply
//! [`Move::to_ubgi`]: gammon_rules::Move::to_ubgi

mod command;
mod engine;
mod keys;
mod v0_01;
mod v0_2;

use crate::line_input::{read_text_line, TextLine};
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use engine::Engine;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use v0_2::Session;

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
#[command(after_help = HELP)]
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
    /// Depth of chequer play in plies, counted as gnubg does (0 = the net's
    /// static evaluation: its best move; 1 and 2 = searches with gnubg's
    /// move filter). UBGI 0.2 may change it with `set engine.ply`, which
    /// counts the protocol's plies: `engine.ply` = this + 1.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=MAX_PLY as i64))]
    ply: u8,
}

/// The essentials of the protocol, after the options in `--help`.
const HELP: &str = "\
Reads one request per line on standard input and answers on standard output
(logs go to standard error). The evaluator is loaded before the first request:
a bad --engine or --weights is an `error:` and a non-zero exit.

UBGI 0.2 (default; bgci, wildbg): send `ubgi` and wait for `ubgiok`, then e.g.
  position gnubgid 4HPwATDgc/ABMA
  dice 3 1
  go                      -> bestmove 8/5 6/5
`go cube` and `go turn` answer cube questions; `keys`, `get` and `set` read
and change the keys engine.ply, engine.cubeply, engine.threads, engine.seed
and game.variant. Errors are `error <code> <detail>`. A refused `position`,
`set`, `setoption`, `newgame` or unknown command forgets the position and the
dice, a refused `dice` the dice: `go` answers `error bad_state` until they
are sent again.

UBGI draft 0.01 (--protocol 0.01): `ubgi` is answered `readyok`; each request
is an XGID or a FIBS board, answered with a move, `double`/`roll` or
`take`/`drop` on one line, or `sorry`.

Depth: --ply, --cube-ply and engine.cubeply count plies as gnubg does (0 =
the net's static evaluation), as every gammon command does; only the key
engine.ply (and `info depth`) counts the protocol's plies, one more
(engine.ply 1 = gnubg 0-ply = --ply 0).

Every command, answer, error and key: docs/ubgi.md.";

/// The longest request line read: a FIBS board line, the longest request,
/// has about 200 characters.
const MAX_LINE_BYTES: usize = 4096;

/// The deepest chequer search offered, in gnubg plies (UBGI 3).
const MAX_PLY: u8 = 2;

/// The deepest cube search offered.
const MAX_CUBE_PLY: u8 = 2;

/// Runs `gammon ubgi` on standard input and output.
pub fn run(args: &UbgiArgs) -> Result<()> {
    // Every start-up option is checked (clap checks the others) before the
    // first request is read: a bad one is an `error:` and a failure exit,
    // never a handshake answered with an error.
    let engine = Engine::load(args)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(&engine, stdin.lock(), stdout.lock())
}

/// What a request line asks of the session.
enum Flow {
    Continue,
    Quit,
}

/// Reads requests from `input` and answers on `out` until `quit` or the end
/// of the input.
fn serve(engine: &Engine<'_>, mut input: impl BufRead, mut out: impl Write) -> Result<()> {
    let args = engine.args;
    let mut session = Session::new(args.cube_ply, args.ply);
    let mut replies: Vec<String> = Vec::new();
    loop {
        // A line that cannot be read is answered, and the session goes on.
        let line = match read_text_line(&mut input, MAX_LINE_BYTES).context("reading standard input")? {
            TextLine::End => return Ok(()),
            TextLine::Text(line) if line.is_empty() => continue,
            TextLine::Text(line) => Ok(line),
            TextLine::TooLong => Err(format!("line too long (limit {MAX_LINE_BYTES} bytes)")),
            TextLine::NotUtf8 => Err("the line is not UTF-8 text".to_string()),
        };
        replies.clear();
        let flow = match (args.protocol, &line) {
            (Protocol::V0_2, Ok(line)) => session.handle(engine, line, &mut replies),
            (Protocol::V0_01, Ok(line)) => v0_01::handle(engine, line, args.cube_ply, &mut replies),
            (Protocol::V0_2, Err(why)) => session.refuse_unreadable(why, &mut replies),
            (Protocol::V0_01, Err(why)) => {
                v0_01::sorry(&mut replies, why);
                Flow::Continue
            }
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

/// An error line: `error <code> <detail>`.
fn error(code: &str, detail: impl std::fmt::Display) -> String {
    format!("error {code} {detail}")
}
