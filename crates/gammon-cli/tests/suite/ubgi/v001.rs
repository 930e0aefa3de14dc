//! The draft 0.01 protocol: XGID requests, moves as numbers, `sorry`.

use super::*;

#[test]
fn v001_handshake() {
    let lines = v001("ubgi\nquit\n");
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].starts_with("id name "));
    assert!(lines[1].starts_with("id author "));
    assert!(lines[2].starts_with("id version "));
    assert_eq!(lines[3], "readyok");
}

#[test]
fn v001_answers_an_xgid_with_a_legal_move() {
    let lines = v001("ubgi\nXGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10\n");
    assert_eq!(lines.len(), 5, "{lines:?}");
    check_ubgi_move(&Position::STARTING, dice(3, 1), &lines[4], false);
}

#[test]
fn v001_every_roll_and_both_perspectives() {
    let mut script = String::new();
    for d in ALL_ROLLS {
        script.push_str(&xgid(Position::STARTING, DiceState::Rolled(d)));
        script.push('\n');
    }
    let lines = v001(&script);
    assert_eq!(lines.len(), ALL_ROLLS.len());
    for (d, m) in ALL_ROLLS.iter().zip(&lines) {
        check_ubgi_move(&Position::STARTING, *d, m, false);
    }
    // The mover as the top player (turn -1): the same position, the same numbering.
    let lines = v001("XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:0:10\n");
    check_ubgi_move(&Position::STARTING, dice(3, 1), &lines[0], false);
}

#[test]
fn v001_writes_bar_as_25_and_off_as_0() {
    let bar = on_the_bar();
    let off = bearing_off();
    let script =
        format!("{}\n{}\n", xgid(bar, DiceState::Rolled(dice(4, 1))), xgid(off, DiceState::Rolled(dice(6, 5))));
    let lines = v001(&script);
    assert_eq!(lines.len(), 2, "{lines:?}");
    check_ubgi_move(&bar, dice(4, 1), &lines[0], false);
    assert!(lines[0].starts_with("25/"), "{lines:?}");
    check_ubgi_move(&off, dice(6, 5), &lines[1], false);
    assert!(lines[1].contains("/0"), "{lines:?}");
}

#[test]
fn v001_blank_line_when_no_checker_can_move() {
    let pos = Position::from_position_id(BLOCKED).unwrap();
    let out = ubgi(&["--protocol", "0.01"], format!("{}\nquit\n", xgid(pos, DiceState::Rolled(dice(6, 5)))).as_bytes());
    assert!(out.success());
    assert_eq!(out.stdout, "\n");
}

#[test]
fn v001_sorry_for_unanswerable_requests_and_garbage_and_keeps_running() {
    let script = "\
XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:31:10
XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:31:10
XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10
XGID=-a------------------------:0:0:1:00:0:0:0:0:10
XGID=nonsense
hello engine
board:too:short
stop
XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10
quit
XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10
";
    let out = ubgi(&["--protocol", "0.01"], script.as_bytes());
    assert!(out.success());
    let text = out.stdout;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{lines:?}");
    assert!(lines[..7].iter().all(|l| *l == "sorry"), "{lines:?}");
    check_ubgi_move(&Position::STARTING, dice(3, 1), lines[7], false);
    // The reasons go to standard error.
    let err = out.stderr;
    assert!(err.contains("match equity table") && err.contains("game is over"), "{err}");
}

#[test]
fn v001_reads_fibs_boards() {
    let board = "board:arena:gnubg:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
    let lines = v001(&format!("{board}\n"));
    assert_eq!(lines.len(), 1);
    check_ubgi_move(&Position::STARTING, dice(3, 1), &lines[0], false);
}
