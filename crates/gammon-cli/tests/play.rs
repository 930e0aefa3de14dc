//! `gammon play` with scripted input.
#![allow(clippy::unwrap_used)]

use gammon_rules::{parse_move, Dice, Position};
mod common;

use std::process::Output;

/// Runs `gammon play <args>` with `input` on standard input.
fn play(args: &[&str], input: &[u8]) -> Output {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    common::run(&all, input)
}

/// Standard output of a game that must end with exit status 0.
fn transcript(args: &[&str], input: &str) -> String {
    let out = play(args, input.as_bytes());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    stdout
}

fn start31() -> Dice {
    Dice::new(3, 1).unwrap()
}

#[test]
fn illegal_move_is_refused_with_the_reason_then_a_legal_move_is_played() {
    // Opening roll: I roll 3, the engine 1, so I move first with 31.
    let out = transcript(&["--seed", "5", "--manual-dice"], "31\n13/8\n8/5 6/5\nquit\n");
    assert!(out.contains("Opening roll: you rolled 3, the engine rolled 1. You move first with 31."), "{out}");
    assert!(out.contains("Your move (31):"), "{out}");
    let reason = parse_move(&Position::STARTING, start31(), "13/8").unwrap_err().to_string();
    assert!(out.contains(&format!("Illegal move: {reason}.")), "{out}");
    assert!(out.contains("You play 8/5 6/5."), "{out}");
    // The engine's roll is asked for; `quit` ends the game there.
    assert!(out.contains("Roll for the engine"), "{out}");
    assert!(out.contains("not scored"), "{out}");
    // The board after my move, from my side.
    assert!(out.contains("Pip counts: X 163, O 167"), "{out}");
}

#[test]
fn hint_lists_the_engines_best_moves_with_equities() {
    let out = transcript(&["--manual-dice"], "31\nhint\nquit\n");
    let ranked: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).collect();
    assert_eq!(ranked.len(), 5, "{out}");
    for (i, line) in ranked.iter().enumerate() {
        let rest = line.trim_start().strip_prefix(&format!("{}. ", i + 1)).unwrap();
        // `<move>  <equity>[  (<difference>)]`: the move is what comes before the equity.
        let equity_at = rest.find(['+', '-']).unwrap();
        let notation = rest[..equity_at].trim();
        parse_move(&Position::STARTING, start31(), notation).unwrap();
        let equity: f32 = rest[equity_at..].split_whitespace().next().unwrap().parse().unwrap();
        assert!(equity.abs() <= 3.0, "{line}");
    }
    assert!(out.contains("11 more"), "{out}");
}

#[test]
fn moves_board_help_and_choosing_by_number() {
    let out = transcript(&["--manual-dice"], "31\nmoves\nboard\nhelp\n0\n17\n\n1\nquit\n");
    assert!(out.contains("16 legal moves:"), "{out}");
    assert!(out.contains("Position ID: 4HPwATDgc/ABMA (you on roll)"), "{out}");
    assert!(out.contains("hint "), "{out}");
    assert!(out.contains("There is no move 0"), "{out}");
    assert!(out.contains("There is no move 17"), "{out}");
    assert!(out.contains("Type your move"), "{out}");
    let played = out.lines().find_map(|l| l.strip_prefix("You play ")).unwrap();
    parse_move(&Position::STARTING, start31(), played.trim_end_matches('.')).unwrap();
}

#[test]
fn end_of_input_ends_cleanly() {
    let out = transcript(&["--manual-dice"], "31\n");
    assert!(out.contains("End of input"), "{out}");
    let out = transcript(&["--seed", "3"], "");
    assert!(out.contains("End of input") || out.contains("wins"), "{out}");
    let out = transcript(&["--manual-dice"], "");
    assert!(out.contains("End of input"), "{out}");
}

#[test]
fn opening_ties_are_rolled_again_and_the_engine_may_start() {
    let out = transcript(&["--manual-dice"], "44\nxyz\n15\n31\nquit\n");
    assert!(out.contains("Both dice show 4: roll again."), "{out}");
    assert!(out.contains("Cannot read \"xyz\" as dice"), "{out}");
    assert!(out.contains("The engine moves first with 51."), "{out}");
    assert!(out.contains("The engine rolls 51 and plays "), "{out}");
    // Then my roll (31) and my prompt.
    assert!(out.contains("Your move (31):"), "{out}");
}

#[test]
fn first_option_chooses_who_starts() {
    let out = transcript(&["--seed", "11", "--first", "engine"], "quit\n");
    assert!(out.contains("The engine moves first"), "{out}");
    let out = transcript(&["--manual-dice", "--first", "human"], "22\n42\nquit\n");
    assert!(out.contains("cannot be a double"), "{out}");
    assert!(out.contains("Your move (42):"), "{out}");
}

#[test]
fn a_whole_game_to_the_end_is_reproducible_from_its_seed() {
    // Always the first legal move; empty lines for forced moves would also do.
    let input = "1\n".repeat(2000);
    let a = transcript(&["--seed", "7", "--engine", "pubeval"], &input);
    assert!(a.contains("Dice seed: 7"), "{a}");
    let last = a.lines().last().unwrap();
    assert!(last.starts_with("You win ") || last.starts_with("The engine wins "), "{last}");
    assert!(last.contains("point"), "{last}");
    let b = transcript(&["--seed", "7", "--engine", "pubeval"], &input);
    assert_eq!(a, b);
}

#[test]
fn garbage_input_never_crashes() {
    let input: &[u8] =
        b"31\n\xff\xfe\x00\n////\n24/\nbar/off\n99999999999999999999999\n13/10(9)\n6/off\n8/5 6/5 4/1\n*\n()\nquit\n";
    let out = play(&["--manual-dice"], input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.matches("Illegal move:").count() >= 7, "{stdout}");
}

#[test]
fn a_missing_weights_file_is_a_clear_error() {
    let out = play(&["--weights", "/no/such/weights.bin"], b"");
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("/no/such/weights.bin"), "{err}");
}
