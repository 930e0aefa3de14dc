//! Cube decisions in both drafts.

use super::*;

/// X has closed his board with three O checkers on the bar and borne off
/// three: he wins a gammon most of the time: too good to double.
const TOO_GOOD: &str = "cBBBBBB------------dd---d-";
/// The same seen from the loser: X has three checkers on the bar against a
/// closed board.
const HOPELESS: &str = "-D---DD------------bbbbbbC";

/// The same board seen from the other side (for an XGID with the top
/// player on roll).
fn flip(board: &str) -> String {
    board
        .chars()
        .rev()
        .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
        .collect()
}

/// The `best*` answers of a v0.2 session (no `info` lines).
fn answers(lines: &[String]) -> Vec<&str> {
    lines.iter().map(String::as_str).filter(|l| !l.starts_with("info ")).collect()
}

#[test]
fn v02_go_cube_doubles_when_it_should() {
    let script = [
        // Money, centred cube.
        format!("position xgid {}", x(RACE, "0:0:1:00:0:0:0:0")),
        "go cube".into(),
        format!("position xgid {}", x(START, "0:0:1:00:0:0:0:0")),
        "go cube".into(),
        // Too good: no double (play on for the gammon).
        format!("position xgid {}", x(TOO_GOOD, "0:0:1:00:0:0:0:0")),
        "go cube".into(),
        // X owns the 2-cube: a redouble.
        format!("position xgid {}", x(RACE, "1:1:1:00:0:0:0:0")),
        "go cube".into(),
        // O owns the cube: X may not double.
        format!("position xgid {}", x(RACE, "1:-1:1:00:0:0:0:0")),
        "go cube".into(),
        // 5-point match, 4-2, Crawford game: nobody may double.
        format!("position xgid {}", x(RACE, "0:0:1:00:4:2:1:5")),
        "go cube".into(),
        // Post-Crawford, X leads 4-2: doubling gains him nothing.
        format!("position xgid {}", x(RACE, "0:0:1:00:4:2:0:5")),
        "go cube".into(),
        // Post-Crawford, X trails 2-4: he doubles.
        format!("position xgid {}", x(RACE, "0:0:1:00:2:4:0:5")),
        "go cube".into(),
        // A Position ID is money with a centred cube, whatever came before.
        format!("position gnubgid {}", Xgid::parse(&x(RACE, "0:0:1:00:0:0:0:0")).unwrap().position.to_position_id()),
        "go cube".into(),
        // The top player on roll: the same decision.
        format!("position xgid {}", x(&flip(RACE), "0:0:-1:00:0:0:0:0")),
        "go role cube".into(),
    ]
    .join("\n");
    let lines = v02(&format!("{script}\n"));
    assert_eq!(
        answers(&lines),
        [
            "bestcube double",
            "bestcube nodouble",
            "bestcube nodouble",
            "bestcube double",
            "bestcube nodouble",
            "bestcube nodouble",
            "bestcube nodouble",
            "bestcube double",
            "bestcube double",
            "bestcube double",
        ],
        "{lines:#?}"
    );
    // Every answer comes with its numbers and gnubg's verdict.
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info score ")).collect();
    assert_eq!(infos.len(), 10, "{lines:#?}");
    assert!(infos[0].ends_with("action Double/pass"), "{}", infos[0]);
    assert!(infos[2].ends_with("action Too_good_to_double/pass"), "{}", infos[2]);
    assert!(infos[4].ends_with("action No_double_(cube_not_available)"), "{}", infos[4]);
    assert!(infos[5].ends_with("action Never_double/take_(dead_cube)"), "{}", infos[5]);
}

#[test]
fn v02_go_cube_answers_a_pending_double() {
    let script = [
        // X doubled; O's answer.
        format!("position xgid {}", x(RACE, "0:0:1:D:0:0:0:0")),
        "go cube".into(),
        format!("position xgid {}", x(START, "0:0:1:D:0:0:0:0")),
        "go cube".into(),
        format!("position xgid {}", x(HOPELESS, "0:0:1:D:0:0:0:0")),
        "go cube".into(),
        // Beavers allowed (rules 2): O beavers a double of the even start.
        format!("position xgid {}", x(START, "0:0:1:D:0:0:2:0")),
        "go cube".into(),
        // ... and a hopeless double.
        format!("position xgid {}", x(HOPELESS, "0:0:1:D:0:0:2:0")),
        "go cube".into(),
        // O beavered: X accepts or passes the cube at four times.
        format!("position xgid {}", x(START, "0:0:1:B:0:0:2:0")),
        "go cube".into(),
        format!("position xgid {}", x(HOPELESS, "0:0:1:B:0:0:2:0")),
        "go cube".into(),
        // X raccooned: O accepts or passes the cube at eight times.
        format!("position xgid {}", x(START, "0:0:1:R:0:0:3:0")),
        "go cube".into(),
        format!("position xgid {}", x(TOO_GOOD, "0:0:1:R:0:0:2:0")),
        "go cube".into(),
        // A redouble in a match: X 2-away, O 4-away, X owns the 2-cube and
        // redoubles to 4: O takes, the match rides on this game either way.
        format!("position xgid {}", x(RACE, "1:1:1:D:3:1:0:5")),
        "go cube".into(),
        // While a cube action is pending no move is asked for.
        "dice 3 1".into(),
        "go".into(),
        "go turn".into(),
        format!("position xgid {}", x(START, "0:0:1:31:0:0:0:0")),
        "go".into(),
    ]
    .join("\n");
    let lines = v02(&format!("{script}\n"));
    let a = answers(&lines);
    assert_eq!(
        a[..10],
        [
            "bestcube drop",
            "bestcube take",
            "bestcube take",
            "bestcube beaver",
            "bestcube beaver",
            "bestcube take",
            "bestcube drop",
            "bestcube take",
            "bestcube drop",
            "bestcube take",
        ],
        "{lines:#?}"
    );
    assert!(a[10].starts_with("error bad_state a cube action is pending"), "{a:?}");
    assert!(a[11].starts_with("error bad_state a cube action is pending"), "{a:?}");
    check_ubgi_move(&Position::STARTING, dice(3, 1), a[12].strip_prefix("bestmove ").unwrap(), true);
    assert_eq!(a.len(), 13, "{a:?}");
}

#[test]
fn v02_go_turn_gives_the_cube_decision_and_the_move() {
    let race = Xgid::parse(&x(RACE, "0:0:1:00:0:0:0:0")).unwrap().position;
    let script = format!(
        "position xgid {}\ndice 3 1\ngo turn\nposition gnubgid 4HPwATDgc/ABMA\ngo turn\ndice 6 5\ngo turn\nposition xgid {}\ngo turn\n",
        x(RACE, "0:0:1:00:0:0:0:0"),
        x(START, "0:0:1:00:0:0:0:0")
    );
    let lines = v02(&script);
    let a = answers(&lines);
    assert_eq!(a.len(), 4, "{lines:#?}");
    let race_move = a[0].strip_prefix("bestturn cube=double move=").unwrap();
    check_ubgi_move(&race, dice(3, 1), race_move, true);
    // The dice stay with a new Position ID.
    let start_move = a[1].strip_prefix("bestturn cube=nodouble move=").unwrap();
    check_ubgi_move(&Position::STARTING, dice(3, 1), start_move, true);
    check_ubgi_move(&Position::STARTING, dice(6, 5), a[2].strip_prefix("bestturn cube=nodouble move=").unwrap(), true);
    // An XGID before the roll clears the dice.
    assert!(a[3].starts_with("error bad_state missing dice"), "{a:?}");
    // The move is the one `go` plays.
    let go = v02(&format!("position xgid {}\ndice 3 1\ngo\n", x(RACE, "0:0:1:00:0:0:0:0")));
    assert_eq!(bestmoves(&go), [race_move]);
}

#[test]
fn v02_cube_depth_is_a_key() {
    let script = format!(
        "get engine.cubeply\nset engine.cubeply 0\nget engine.cubeply\nposition xgid {}\ngo cube\nset engine.cubeply 1\ngo cube\nset engine.cubeply 3\nset engine.cubeply x\nget engine.cubeply\n",
        x(RACE, "0:0:1:00:0:0:0:0")
    );
    let lines = v02(&script);
    let a = answers(&lines);
    assert_eq!(a.len(), 7, "{a:?}");
    assert_eq!(a[..4], ["value engine.cubeply 2", "value engine.cubeply 0", "bestcube double", "bestcube double"]);
    assert!(a[4].starts_with("error bad_value engine.cubeply"), "{a:?}");
    assert!(a[5].starts_with("error bad_value engine.cubeply"), "{a:?}");
    assert_eq!(a[6], "value engine.cubeply 1");
    // The command line sets the default.
    let out = ubgi(&["--cube-ply", "0"], b"get engine.cubeply\nkeys\n");
    let text = out.stdout;
    assert!(text.starts_with("value engine.cubeply 0\n"), "{text}");
    assert!(text.contains("key engine.cubeply int 0..2 0 "), "{text}");
}

#[test]
fn v02_cube_answers_at_depth_0_follow_gammon_cube() {
    // `set engine.cubeply 0` answers as `gammon cube --ply 0`; the default
    // as `gammon cube` (2 plies). The info line carries the same numbers.
    for (ply, set) in [("0", "set engine.cubeply 0\n"), ("2", "")] {
        for rest in ["0:0:1:00:0:0:0:0", "0:0:1:00:3:1:0:5", "1:1:1:00:0:0:0:0"] {
            let xgid = x(RACE, rest);
            let out = gammon_testkit::run(env!("CARGO_BIN_EXE_gammon"), &["cube", &xgid, "--ply", ply, "--json"], b"");
            let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
            let lines = v02(&format!("{set}position xgid {xgid}\ngo cube\n"));
            let doubles = json["doubles"].as_bool().unwrap();
            assert_eq!(answers(&lines), [if doubles { "bestcube double" } else { "bestcube nodouble" }], "{xgid}");
            let info = lines.iter().find(|l| l.starts_with("info ")).unwrap();
            assert!(info.contains(&format!("nd {:.4} ", json["no_double"].as_f64().unwrap())), "{info} {json}");
            assert!(info.contains(&format!("dt {:.4} ", json["double_take"].as_f64().unwrap())), "{info} {json}");
        }
    }
}

#[test]
fn v001_cube_decisions() {
    let script = [
        x(RACE, "0:0:1:00:0:0:0:0"),
        x(START, "0:0:1:00:0:0:0:0"),
        x(TOO_GOOD, "0:0:1:00:0:0:0:0"),
        // O owns the cube; the Crawford game; the post-Crawford leader.
        x(RACE, "1:-1:1:00:0:0:0:0"),
        x(RACE, "0:0:1:00:4:2:1:5"),
        x(RACE, "0:0:1:00:4:2:0:5"),
        // The post-Crawford trailer doubles; X 2-away owning the 2-cube may
        // not usefully redouble (dead cube).
        x(RACE, "0:0:1:00:2:4:0:5"),
        x(RACE, "1:1:1:00:3:1:0:5"),
        // Pending doubles, beavers and raccoons.
        x(RACE, "0:0:1:D:0:0:0:0"),
        x(START, "0:0:1:D:0:0:0:0"),
        x(START, "0:0:1:D:0:0:2:0"),
        x(HOPELESS, "0:0:1:B:0:0:2:0"),
        x(START, "0:0:1:B:0:0:2:0"),
        x(TOO_GOOD, "0:0:1:R:0:0:2:0"),
        x(START, "0:0:1:R:0:0:2:0"),
        // A move still gets a move.
        x(START, "0:0:1:31:0:0:0:0"),
    ]
    .join("\n");
    let lines = v001(&format!("{script}\n"));
    assert_eq!(
        lines[..15],
        [
            "double", "roll", "roll", "roll", "roll", "roll", "double", "roll", "drop", "take", "take", "drop", "take",
            "drop", "take"
        ],
        "{lines:#?}"
    );
    check_ubgi_move(&Position::STARTING, dice(3, 1), &lines[15], false);
    assert_eq!(lines.len(), 16);
    // A FIBS board before the roll (dice 0 0): the starting position.
    let board = "board:arena:gnubg:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
    assert_eq!(v001(&format!("{board}\n")), ["roll"]);
}
