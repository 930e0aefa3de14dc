//! Match files and position texts built to hurt: huge lines and names,
//! other encodings and other programs' files, rules pushed to their edges
//! (issue 26).

use crate::chain;
use gammon_rules::{parse_mat, parse_position_text, parse_sgf, Dice, Position, Xgid};

/// A message short enough to read: the longest quote is 80 characters.
fn assert_short(message: &str) {
    assert!(message.len() < 400, "{} bytes: {}…", message.len(), &message[..400.min(message.len())]);
}

const ONE_POINT: &str = " 1 point match\n\n Game 1\n A : 0         B : 0\n";

#[test]
fn a_huge_illegal_move_line_gives_a_short_error() {
    let moves = "8/5 ".repeat(250_000);
    let text = format!("{ONE_POINT}  1) 31: {moves}\n");
    let e = parse_mat(&text).unwrap_err().to_string();
    assert_short(&e);
    assert!(e.contains("illegal move \"8/5 8/5") && e.contains("characters)"), "{e}");
}

#[test]
fn huge_unreadable_words_give_short_errors() {
    let junk = "x".repeat(1_000_000);
    for text in [
        format!("{junk} point match\n"),
        format!(" 1 point match\n\n Game {junk}\n"),
        format!(" 1 point match\n\n Game 1\n {junk}\n"),
        format!("{ONE_POINT}  1) {junk}\n"),
        format!("{ONE_POINT}  1) 31: 8/5 6/5   Doubles => {junk}\n"),
        format!("{ONE_POINT}  1) 31: 8/5 6/5\n      Wins {junk} point\n"),
    ] {
        let e = parse_mat(&text).unwrap_err().to_string();
        assert_short(&e);
        assert!(e.contains("xxxxxxxx"), "the quote shows the start of what is refused: {e}");
    }
}

#[test]
fn a_huge_player_name_is_cut_in_errors() {
    let name = "N".repeat(1_000_000);
    let text = format!(" 1 point match\n\n Game 1\n {name} : 0         B : 0\n  1) 31: 8/3\n");
    let e = parse_mat(&text).unwrap_err().to_string();
    assert_short(&e);
    assert!(e.contains(&format!("({}…)", "N".repeat(64))), "{e}");
}

#[test]
fn huge_sgf_values_give_short_errors() {
    let junk = "q".repeat(1_000_000);
    let upper = "Q".repeat(1_000_000);
    for text in [
        format!("(;GM[{junk}])"),
        format!("(;GM[6]MI[length:{junk}])"),
        format!("(;GM[6]RE[{junk}])"),
        format!("(;GM[6]CV[{junk}])"),
        format!("(;GM[6]MI[length:1]PW[A]PB[B];B[{junk}])"),
        format!("(;GM[6]MI[length:1]PW[A]PB[B];PL[B]DI[{junk}];B[31qtst])"),
        format!("(;GM[6];{upper})"),
    ] {
        let e = parse_sgf(&text).unwrap_err().to_string();
        assert_short(&e);
    }
}

#[test]
fn huge_positions_and_moves_give_short_errors() {
    let junk = "Z".repeat(1_000_000);
    for text in [junk.clone(), format!("XGID={junk}:0:0:1:00:0:0:0:0:10"), format!("{junk}:{junk}")] {
        let e = parse_position_text(&text).unwrap_err();
        assert_short(&chain(&e));
    }
    let xgid = format!("XGID=-b----E-C---eE---c-e----B-:0:0:1:{junk}:0:0:0:0:10");
    assert_short(&chain(&Xgid::parse(&xgid).unwrap_err()));
    let dice: Result<Dice, _> = junk.parse();
    assert_short(&chain(&dice.unwrap_err()));
    let bad_move = gammon_rules::parse_move(&Position::STARTING, "31".parse().unwrap(), &junk).unwrap_err();
    assert_short(&chain(&bad_move));
}
