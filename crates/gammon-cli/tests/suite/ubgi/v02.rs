//! The v0.2 draft (the default protocol): handshake, moves, keys, errors.

use super::*;

#[test]
fn v02_handshake_and_isready() {
    let lines = v02("ubgi\nisready\nquit\n");
    assert!(lines[0].starts_with("id name gammon "), "{lines:?}");
    assert!(lines.contains(&"id author gammon developers".to_string()));
    assert!(lines.contains(&"proto 0.2".to_string()));
    for key in ["engine.ply", "engine.threads", "engine.seed"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("key {key} int "))), "{key}: {lines:?}");
    }
    let ok = lines.iter().position(|l| l == "ubgiok").unwrap();
    assert_eq!(&lines[ok + 1..], ["readyok"]);
}

#[test]
fn v02_bestmove_for_the_start_position_with_31_is_legal() {
    let lines = v02("ubgi\nisready\nnewgame\nposition gnubgid 4HPwATDgc/ABMA\ndice 3 1\ngo\nquit\n");
    let moves = bestmoves(&lines);
    assert_eq!(moves.len(), 1, "{lines:?}");
    check_ubgi_move(&Position::STARTING, dice(3, 1), &moves[0], true);
    // Only `info` lines may come between the handshake and `bestmove`.
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    let best = lines.iter().position(|l| l.starts_with("bestmove ")).unwrap();
    assert!(lines[ready + 1..best].iter().all(|l| l.starts_with("info ")), "{lines:?}");
}

#[test]
fn v02_deeper_chequer_play_makes_the_five_point_with_31() {
    let lines = v02("ubgi\nset engine.ply 2\nget engine.ply\nposition gnubgid 4HPwATDgc/ABMA\ndice 3 1\ngo\nquit\n");
    assert!(lines.iter().any(|l| l == "value engine.ply 2"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 2 ")), "{lines:?}");
    // 8/5 6/5 is the standard opening 31 (every strong engine plays it).
    assert_eq!(bestmoves(&lines), ["8/5 6/5"], "{lines:?}");
    // The same from the command line, with the first draft.
    let out =
        ubgi(&["--protocol", "0.01", "--ply", "2"], b"ubgi\nXGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10\n");
    let text = out.stdout;
    assert!(text.lines().any(|l| l.trim() == "8/5 6/5"), "{text}");
}

#[test]
fn v02_go_chequer_answers_every_roll_legally() {
    let mut script = String::from("ubgi\nposition gnubgid 4HPwATDgc/ABMA\n");
    for d in ALL_ROLLS {
        script.push_str(&format!("dice {} {}\ngo chequer\n", d.high(), d.low()));
    }
    let moves = bestmoves(&v02(&script));
    assert_eq!(moves.len(), ALL_ROLLS.len());
    for (d, m) in ALL_ROLLS.iter().zip(&moves) {
        check_ubgi_move(&Position::STARTING, *d, m, true);
    }
}

#[test]
fn v02_writes_bar_and_off_as_words() {
    let bar = on_the_bar();
    let off = bearing_off();
    let script = format!(
        "position gnubgid {}\ndice 4 1\ngo\nposition gnubgid {}\ndice 6 5\ngo\n",
        bar.to_position_id(),
        off.to_position_id()
    );
    let moves = bestmoves(&v02(&script));
    assert_eq!(moves.len(), 2);
    check_ubgi_move(&bar, dice(4, 1), &moves[0], true);
    assert!(moves[0].starts_with("bar/"), "{moves:?}");
    check_ubgi_move(&off, dice(6, 5), &moves[1], true);
    assert!(moves[1].contains("/off"), "{moves:?}");
}

#[test]
fn v02_pass_when_no_checker_can_move() {
    let pos = Position::from_position_id(BLOCKED).unwrap();
    assert!(pos.legal_moves(dice(6, 5)).is_empty());
    let lines = v02(&format!("position gnubgid {BLOCKED}\ndice 6 5\ngo\n"));
    assert_eq!(lines, ["bestmove pass"]);
}

#[test]
fn v02_errors_are_reported_and_the_engine_keeps_running() {
    let script = "\
ubgi
go
position gnubgid 4HPwATDgc/ABMA
go
dice 7 1
dice
position gnubgid not-an-id
position fen xyz
go turn
go sideways
frobnicate
Position gnubgid 4HPwATDgc/ABMA
set engine.ply 4
set engine.ply 0
set engine.ply deep
set engine.threads 0
set engine.threads 1025
set no.such.key 1
set engine.ply
get no.such.key
position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:31:10
go cube
position xgid XGID=nonsense
dice 3 1
go
position gnubgid 4HPwATDgc/ABMA
go
isready
quit
";
    let lines = v02(script);
    let ok = lines.iter().position(|l| l == "ubgiok").unwrap();
    let replies: Vec<&str> = lines[ok + 1..].iter().map(String::as_str).filter(|l| !l.starts_with("info ")).collect();
    let expected_prefixes = [
        "error bad_state missing position",
        "error bad_state missing dice",
        "error bad_value dice",
        "error bad_command",
        "error bad_value Position ID",
        "error bad_command",
        // The refused positions took the position with them.
        "error bad_state missing position",
        "error bad_command",
        "error bad_command",
        "error bad_command",
        "error unsupported engine.ply 4",
        "error bad_value engine.ply",
        "error bad_value engine.ply",
        "error bad_value engine.threads",
        // Above the one limit of every --threads.
        "error bad_value engine.threads \"1025\": must be 1..1024",
        "error unsupported key no.such.key",
        "error bad_command expected: set <key> <value>",
        "error unsupported key no.such.key",
        "error unsupported a 31-point match is longer than the match equity table",
        "error bad_value XGID",
        "error bad_state missing position",
        "bestmove ",
        "readyok",
    ];
    assert_eq!(replies.len(), expected_prefixes.len(), "{replies:#?}");
    for (reply, prefix) in replies.iter().zip(expected_prefixes) {
        assert!(reply.starts_with(prefix), "expected {prefix:?}, got {reply:?}");
    }
    check_ubgi_move(&Position::STARTING, dice(3, 1), replies[21].strip_prefix("bestmove ").unwrap(), true);
}

#[test]
fn v02_keys_get_and_set() {
    let lines = v02(
        "keys\nget engine.ply\nset engine.ply 1\nset engine.threads 4\nget engine.threads\nset engine.seed 42\nget engine.seed\nset game.variant backgammon\nget game.variant\n",
    );
    let keys: Vec<&String> = lines.iter().filter(|l| l.starts_with("key ")).collect();
    assert!(keys.len() >= 3, "{lines:?}");
    let values: Vec<&String> = lines.iter().filter(|l| !l.starts_with("key ")).collect();
    assert_eq!(
        values,
        ["value engine.ply 1", "value engine.threads 4", "value engine.seed 42", "value game.variant backgammon"]
    );
}

#[test]
fn v02_xgid_positions_carry_their_dice() {
    let start31 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10";
    // The XGID's dice replace earlier ones; `00` clears them.
    let lines = v02(&format!(
        "dice 6 6\nposition xgid {start31}\ngo\nposition xgid -b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10\ngo\n"
    ));
    let replies: Vec<&String> = lines.iter().filter(|l| !l.starts_with("info ")).collect();
    assert_eq!(replies.len(), 2, "{lines:?}");
    check_ubgi_move(&Position::STARTING, dice(3, 1), replies[0].strip_prefix("bestmove ").unwrap(), true);
    assert!(replies[1].starts_with("error bad_state missing dice"), "{lines:?}");
}

#[test]
fn v02_newgame_forgets_the_position() {
    let lines = v02("position gnubgid 4HPwATDgc/ABMA\ndice 3 1\nnewgame\ngo\n");
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("error bad_state missing position"), "{lines:?}");
}

#[test]
fn v02_quit_and_end_of_input_stop_the_engine() {
    assert_eq!(v02("quit\nisready\n"), Vec::<String>::new());
    assert_eq!(v02("isready\n"), ["readyok"]);
    assert_eq!(v02(""), Vec::<String>::new());
}

#[test]
fn v02_survives_binary_garbage() {
    let out = ubgi(&[], b"\xff\xfe\x00garbage\n\n   \nisready\n");
    assert!(out.success());
    let text = out.stdout;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("error bad_command"));
    assert_eq!(lines[1], "readyok");
}

#[test]
fn v02_other_evaluators() {
    let lines = ubgi(&["--engine", "pubeval"], b"position gnubgid 4HPwATDgc/ABMA\ndice 3 1\ngo\n").stdout;
    // pubeval makes its 5-point with 31.
    assert!(lines.lines().any(|l| l == "bestmove 8/5 6/5" || l == "bestmove 6/5 8/5"), "{lines}");
    // Weights that do not load: see bad_start_up_options_fail_before_the_handshake.
}
