//! `gammon ubgi`: scripted dialogues in both UBGI drafts.
//!
//! The helpers here serve the sections: the v0.2 draft (`v02`), draft 0.01
//! (`v001`), the cube (`cube`), and refused commands, start-up options and
//! the docs (`refused`).
#![allow(clippy::unwrap_used)]

use gammon_rules::{parse_move, Dice, DiceState, GameContext, MoveList, Position, Xgid, ALL_ROLLS};
use gammon_testkit::Output;

/// Runs `gammon ubgi <args>` with `input` on standard input.
fn ubgi(args: &[&str], input: &[u8]) -> Output {
    let mut all = vec!["ubgi"];
    all.extend_from_slice(args);
    gammon_testkit::run(env!("CARGO_BIN_EXE_gammon"), &all, input)
}

/// The reply lines of a v0.2 session (default protocol).
fn v02(input: &str) -> Vec<String> {
    let out = ubgi(&[], input.as_bytes());
    assert!(out.success(), "{}", out.stderr);
    out.stdout.lines().map(str::to_string).collect()
}

/// The reply lines of a draft 0.01 session.
fn v001(input: &str) -> Vec<String> {
    let out = ubgi(&["--protocol", "0.01"], input.as_bytes());
    assert!(out.success(), "{}", out.stderr);
    out.stdout.lines().map(str::to_string).collect()
}

/// The `bestmove` payloads of a v0.2 session.
fn bestmoves(lines: &[String]) -> Vec<String> {
    lines.iter().filter_map(|l| l.strip_prefix("bestmove ")).map(str::to_string).collect()
}

fn dice(a: u8, b: u8) -> Dice {
    Dice::new(a, b).unwrap()
}

/// Checks that `text` is written as single-die steps (`from/to` pairs, no
/// `*`, no `(n)`) and is a legal move; returns the result.
fn check_ubgi_move(pos: &Position, d: Dice, text: &str, words: bool) -> Position {
    assert!(!text.contains('*') && !text.contains('('), "{text:?}");
    let mut list = MoveList::new();
    list.generate(pos, d);
    let pairs: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(pairs.len(), usize::from(list.dice_used()), "{text:?} for {d}");
    for pair in &pairs {
        let (from, to) = pair.split_once('/').unwrap();
        if words {
            assert!(from != "25" && to != "0", "{text:?}: v0.2 writes bar and off as words");
        } else {
            assert!(from != "bar" && to != "off", "{text:?}: 0.01 writes bar = 25, off = 0");
        }
        let point = |p: &str| match p {
            "bar" => 25,
            "off" => 0,
            n => n.parse::<u8>().unwrap(),
        };
        let (from, to) = (point(from), point(to));
        let pips = from - to;
        let fits = |die: u8| pips == die || (to == 0 && pips < die);
        assert!(fits(d.high()) || fits(d.low()), "{pair} is not one die of {d}");
    }
    let (_, after) = parse_move(pos, d, text).unwrap_or_else(|e| panic!("{text:?} for {d}: {e}"));
    assert!(list.positions().contains(&after));
    after
}

fn xgid(pos: Position, dice: DiceState) -> String {
    Xgid { position: pos, context: GameContext { dice, ..GameContext::money() } }.to_string()
}

/// My checkers: 1 on the bar, the rest spread; the opponent's home board
/// has two open points.
fn on_the_bar() -> Position {
    let mut me = [0u8; 25];
    me[24] = 1; // bar
    me[5] = 5;
    me[7] = 3;
    me[12] = 4;
    me[23] = 2;
    let mut him = [0u8; 25];
    him[5] = 5;
    him[4] = 2;
    him[3] = 2;
    him[2] = 2;
    him[12] = 4;
    Position::from_boards(&me, &him).unwrap()
}

/// Bearing off: all my checkers home.
fn bearing_off() -> Position {
    let mut me = [0u8; 25];
    me[0] = 3;
    me[1] = 3;
    me[2] = 3;
    me[4] = 3;
    me[5] = 3;
    let mut him = [0u8; 25];
    him[0] = 5;
    him[1] = 5;
    him[2] = 5;
    Position::from_boards(&me, &him).unwrap()
}

/// Two of mine on the bar against a closed board.
const BLOCKED: &str = "27YBAAA8Dz4ADA";

/// A race: X (on roll) 70 pips, O 78 (X wins about 80%, no gammons): a
/// double, and O must pass.
const RACE: &str = "-----CCCB--------c-cccc---";
/// The starting position.
const START: &str = "-b----E-C---eE---c-e----B-";

/// An XGID: `board`, then cube (log2), owner, turn, dice, scores, rules,
/// match length.
fn x(board: &str, rest: &str) -> String {
    format!("XGID={board}:{rest}:10")
}

mod cube;
mod refused;
mod v001;
mod v02;
