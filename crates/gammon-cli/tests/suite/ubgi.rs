//! `gammon ubgi`: scripted dialogues in both UBGI drafts.
//!
//! One test binary per command, all tests: its sections (v0.2, 0.01, the
//! cube) share the helpers at the top.
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

// ------------------------------------------------------------------ v0.2

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

// ----------------------------------------------------------------- 0.01

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

// ------------------------------------------------------------------ cube

/// A race: X (on roll) 70 pips, O 78 (X wins about 80%, no gammons): a
/// double, and O must pass.
const RACE: &str = "-----CCCB--------c-cccc---";
/// X has closed his board with three O checkers on the bar and borne off
/// three: he wins a gammon most of the time: too good to double.
const TOO_GOOD: &str = "cBBBBBB------------dd---d-";
/// The same seen from the loser: X has three checkers on the bar against a
/// closed board.
const HOPELESS: &str = "-D---DD------------bbbbbbC";
/// The starting position.
const START: &str = "-b----E-C---eE---c-e----B-";

/// An XGID: `board`, then cube (log2), owner, turn, dice, scores, rules,
/// match length.
fn x(board: &str, rest: &str) -> String {
    format!("XGID={board}:{rest}:10")
}

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

// ------------------------------------------- refused commands, start-up, docs

/// The starting position as a Position ID.
const START_ID: &str = "4HPwATDgc/ABMA";

/// The replies of a v0.2 session without its `info` lines.
fn replies(input: &str) -> Vec<String> {
    v02(input).into_iter().filter(|l| !l.starts_with("info ")).collect()
}

#[test]
fn v02_refused_dice_forget_the_dice_and_keep_the_position() {
    for bad in ["dice 7 7", "dice 0 3", "dice 3", "dice 3 1 2", "dice", "dice x y"] {
        let r = replies(&format!("position gnubgid {START_ID}\ndice 6 6\ngo\n{bad}\ngo\ngo turn\ndice 3 1\ngo\n"));
        assert_eq!(r.len(), 5, "{bad}: {r:#?}");
        assert!(r[0].starts_with("bestmove "), "{bad}: {r:?}");
        assert!(r[1].starts_with("error "), "{bad} is refused: {r:?}");
        assert!(r[2].starts_with("error bad_state missing dice"), "{bad}: go after it: {r:?}");
        assert!(r[3].starts_with("error bad_state missing dice"), "{bad}: go turn after it: {r:?}");
        // The position was not touched: new dice are enough.
        check_ubgi_move(&Position::STARTING, dice(3, 1), r[4].strip_prefix("bestmove ").unwrap(), true);
    }
}

#[test]
fn v02_refused_positions_forget_the_position_its_context_and_the_dice() {
    let race = x(RACE, "0:0:1:00:0:0:0:0");
    for bad in [
        "position gnubgid garbage",
        "position gnubgid",
        "position xgid XGID=nonsense",
        "position xgid -b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10",
        "position xgid",
        "position fen xyz",
        "position",
    ] {
        // A Position ID then a refused position; an XGID (with its context
        // and dice) then a refused position.
        for (good, dice_cmd) in [(format!("gnubgid {START_ID}"), "dice 3 1\n"), (x(START, "0:0:1:31:0:0:0:0"), "")] {
            let good = if good.starts_with("XGID") { format!("xgid {good}") } else { good };
            let r = replies(&format!(
                "position {good}\n{dice_cmd}go\n{bad}\ngo\ngo cube\ngo turn\nposition gnubgid {START_ID}\ngo\ndice 3 1\ngo\n"
            ));
            assert_eq!(r.len(), 7, "{bad}: {r:#?}");
            assert!(r[0].starts_with("bestmove "), "{bad}: {r:?}");
            assert!(r[1].starts_with("error "), "{bad} is refused: {r:?}");
            for answer in &r[2..5] {
                assert!(answer.starts_with("error bad_state missing position"), "{bad}: {r:#?}");
            }
            // The dice went with the position they were given for.
            assert!(r[5].starts_with("error bad_state missing dice"), "{bad}: {r:#?}");
            check_ubgi_move(&Position::STARTING, dice(3, 1), r[6].strip_prefix("bestmove ").unwrap(), true);
        }
        // A cube question after a refused position has no position either.
        let r = replies(&format!("position xgid {race}\ngo cube\n{bad}\ngo cube\n"));
        assert_eq!(r.len(), 3, "{bad}: {r:#?}");
        assert!(r[0].starts_with("bestcube "), "{bad}: {r:?}");
        assert!(r[2].starts_with("error bad_state missing position"), "{bad}: {r:?}");
    }
}

#[test]
fn v02_refused_settings_and_commands_forget_the_position_and_dice() {
    for bad in [
        "set engine.ply 9",
        "set engine.ply 0",
        "set engine.ply",
        "set engine.cubeply x",
        "set engine.threads 0",
        "set engine.seed -1",
        "set game.variant nackgammon",
        "set no.such.key 1",
        "set",
        "setoption name Threads value 2",
        "newgame now",
        // Keywords are case-sensitive: this sets nothing, and the engine
        // cannot know what it was meant to set.
        "Position gnubgid 4HPwATDgc/ABMA",
        "frobnicate",
    ] {
        let r = replies(&format!(
            "position gnubgid {START_ID}\ndice 3 1\ngo\n{bad}\ngo\ngo turn\nposition gnubgid {START_ID}\ndice 3 1\ngo\n"
        ));
        assert_eq!(r.len(), 5, "{bad}: {r:#?}");
        assert!(r[0].starts_with("bestmove "), "{bad}: {r:?}");
        assert!(r[1].starts_with("error "), "{bad} is refused: {r:?}");
        assert!(r[2].starts_with("error bad_state missing position"), "{bad}: {r:#?}");
        assert!(r[3].starts_with("error bad_state missing position"), "{bad}: {r:#?}");
        assert!(r[4].starts_with("bestmove "), "{bad}: {r:#?}");
    }
    // A refused value leaves the key as it was (`get` shows it).
    let r = replies("set engine.ply 2\nset engine.ply 9\nget engine.ply\n");
    assert_eq!(r[1..], ["value engine.ply 2"], "{r:?}");
}

#[test]
fn v02_queries_and_accepted_commands_keep_the_position_and_dice() {
    let r = replies(&format!(
        "position gnubgid {START_ID}\ndice 3 1\nisready\nkeys\nget engine.ply\nget no.such.key\ngo sideways\nset engine.threads 2\nstop\ngo\n"
    ));
    let last = r.last().unwrap();
    check_ubgi_move(&Position::STARTING, dice(3, 1), last.strip_prefix("bestmove ").unwrap(), true);
}

/// A weights file that is not one, in a fresh temporary folder.
fn corrupt_weights() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gammon-ubgi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("corrupt.net");
    std::fs::write(&path, b"these are not weights\n").unwrap();
    path
}

#[test]
fn bad_start_up_options_fail_before_the_handshake() {
    let corrupt = corrupt_weights();
    let corrupt = corrupt.to_str().unwrap();
    let missing = "/no/such/dir/weights.net";
    for protocol in ["0.2", "0.01"] {
        for (args, names) in [
            (vec!["--weights", corrupt], corrupt),
            (vec!["--weights", missing], missing),
            (vec!["--engine", corrupt], corrupt),
            (vec!["--engine", missing], missing),
            (vec!["--engine", "no-such-engine"], "no-such-engine"),
        ] {
            let mut all = vec!["--protocol", protocol];
            all.extend(args.iter().copied());
            let out = ubgi(&all, b"ubgi\nisready\nquit\n");
            assert!(!out.success() && out.code.is_some(), "{all:?}: {out:?}");
            // Nothing on standard output: no handshake a GUI could wait on.
            assert_eq!(out.stdout, "", "{all:?}");
            assert!(
                out.stderr.lines().any(|l| l.starts_with("error: ") && l.contains(names)),
                "{all:?}: {}",
                out.stderr
            );
        }
    }
    let _ = std::fs::remove_file(corrupt);
}

/// The text of docs/ubgi.md.
fn ubgi_doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ubgi.md");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(text.len() < 1 << 20, "{path} is too large");
    text
}

#[test]
fn docs_ubgi_md_names_every_command_and_key_the_engine_accepts() {
    let doc = ubgi_doc();
    let lines = v02("keys\nfrobnicate\n");
    // The keys, as the engine's `keys` lists them.
    let keys: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("key ")?.split(' ').next()).collect();
    assert!(keys.len() >= 5, "{lines:?}");
    // The commands, as the engine's error for an unknown one lists them.
    let unknown = lines.iter().find(|l| l.starts_with("error bad_command")).unwrap();
    let (_, list) = unknown.split_once("commands: ").unwrap_or_else(|| panic!("{unknown}"));
    let commands: Vec<&str> = list.trim_end_matches(')').split(", ").collect();
    assert!(commands.len() >= 12, "{unknown}");
    for name in keys.iter().chain(&commands) {
        // Written as code: `name` alone or with its arguments (`get <key>`).
        let documented = doc.contains(&format!("`{name}`")) || doc.contains(&format!("`{name} "));
        assert!(documented, "docs/ubgi.md does not document `{name}`");
    }
}

#[test]
fn help_points_to_the_protocol_documentation() {
    let out = ubgi(&["--help"], b"");
    assert!(out.success(), "{}", out.stderr);
    for needle in ["docs/ubgi.md", "ubgiok", "--protocol", "engine.ply"] {
        assert!(out.stdout.contains(needle), "{needle}: {}", out.stdout);
    }
}

/// The `--help` text of `gammon <command>` (of `gammon` for "").
fn help(command: &str) -> String {
    let args: &[&str] = if command.is_empty() { &["--help"] } else { &[command, "--help"] };
    let out = gammon_testkit::run(env!("CARGO_BIN_EXE_gammon"), args, b"");
    assert!(out.success(), "{command}: {}", out.stderr);
    out.stdout
}

#[test]
fn readme_says_which_commands_take_which_weights_options() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let readme = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = readme.find("The shipped weights").expect("README: the weights paragraph");
    let paragraph = readme[start..].split("\n\n").next().unwrap();
    // Every command of `gammon --help` is named there.
    let top = help("");
    let commands: Vec<&str> = top
        .split("Commands:")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .map_while(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 10, "{top}");
    for c in &commands {
        assert!(paragraph.contains(&format!("`{c}`")), "README's weights paragraph does not name `{c}`:\n{paragraph}");
    }
    // And what it says of each is what the command takes.
    for (command, options) in [
        ("eval", &["--weights"][..]),
        ("analyse", &["--weights"]),
        ("cube", &["--weights"]),
        ("rollout", &["--weights"]),
        ("serve", &["--weights"]),
        ("play", &["--weights", "--engine"]),
        ("ubgi", &["--weights", "--engine"]),
        ("duel", &["--a", "--b"]),
        ("train", &["--init"]),
        ("distill", &["--from"]),
        ("fit", &["--from"]),
    ] {
        let text = help(command);
        for option in options {
            assert!(text.contains(&format!("{option} ")), "gammon {command} has no {option}");
        }
        let takes_weights = text.contains("--weights ");
        assert_eq!(takes_weights, options.contains(&"--weights"), "gammon {command}: --weights");
    }
    for command in ["moves", "position", "convert"] {
        let text = help(command);
        assert!(!text.contains("--weights") && !text.contains("--engine"), "{command}: {text}");
    }
}

/// A line of 100,000 `x`, then a line that is not UTF-8, then `next`.
fn unreadable_lines_then(next: &str) -> Vec<u8> {
    let mut input = vec![b'x'; 100_000];
    input.extend(b"\n\xff\xfe go\n");
    input.extend(next.as_bytes());
    input
}

#[test]
fn v02_answers_an_unreadable_line_with_an_error_and_goes_on() {
    let input = unreadable_lines_then("isready\nposition gnubgid 4HPwATDgc/ABMA\ndice 3 1\ngo\n");
    let out = ubgi(&[], &[b"ubgi\n".as_slice(), &input].concat());
    assert!(out.success(), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().skip_while(|l| *l != "ubgiok").skip(1).collect();
    assert!(lines[0].starts_with("error bad_command line too long"), "{lines:?}");
    assert!(lines[1].starts_with("error bad_command the line is not UTF-8"), "{lines:?}");
    assert_eq!(lines[2], "readyok", "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{lines:?}");
}

#[test]
fn v001_answers_an_unreadable_line_with_sorry_and_goes_on() {
    let request = xgid(Position::STARTING, DiceState::Rolled(dice(3, 1)));
    let out = ubgi(&["--protocol", "0.01"], &unreadable_lines_then(&format!("{request}\n")));
    assert!(out.success(), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(&lines[..2], ["sorry", "sorry"], "{lines:?}");
    check_ubgi_move(&Position::STARTING, dice(3, 1), lines[2], false);
    assert!(out.stderr.contains("sorry: line too long"), "{}", out.stderr);
    assert!(out.stderr.contains("sorry: the line is not UTF-8"), "{}", out.stderr);
}

#[test]
fn an_impossible_xgid_is_refused_with_its_reason_once() {
    let board = "XGID=-OA-----------------------:0:0:1:31:0:0:0:0:10";
    let lines = v02(&format!("ubgi\nposition xgid {board}\n"));
    let error = lines.iter().find(|l| l.starts_with("error ")).unwrap();
    assert!(error.starts_with("error bad_value "), "{error}");
    assert_eq!(error.matches("impossible board").count(), 1, "{error}");
    assert_eq!(error.matches("16 checkers").count(), 1, "{error}");
    let out = ubgi(&["--protocol", "0.01"], format!("{board}\n").as_bytes());
    assert_eq!(out.stdout.trim(), "sorry");
    assert_eq!(out.stderr.matches("16 checkers").count(), 1, "{}", out.stderr);
}

#[test]
fn ply_counts_gnubg_plies_and_engine_ply_the_protocol_s() {
    // `--ply 1` is gnubg 1-ply: the protocol's root-inclusive `engine.ply` 2.
    let out = ubgi(&["--ply", "1"], b"ubgi\nget engine.ply\nposition gnubgid 4HPwATDgc/ABMA\ndice 3 1\ngo\n");
    assert!(out.success(), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines.contains(&"value engine.ply 2"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("key engine.ply int 1..3 2 ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 2 ")), "{lines:?}");
    // The default is gnubg 0-ply, `engine.ply` 1, as before.
    let lines = v02("ubgi\nget engine.ply\n");
    assert!(lines.iter().any(|l| l == "value engine.ply 1"), "{lines:?}");
    // `set engine.ply 3` is gnubg 2-ply, the deepest; `--ply 3` is refused.
    let lines = v02("ubgi\nset engine.ply 3\nget engine.ply\nset engine.ply 4\n");
    assert!(lines.iter().any(|l| l == "value engine.ply 3"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("error unsupported engine.ply 4")), "{lines:?}");
    assert!(!ubgi(&["--ply", "3"], b"").success());
    assert!(ubgi(&["--ply", "0"], b"ubgi\n").success());
}

#[test]
fn every_depth_option_says_it_counts_gnubg_plies() {
    for command in ["analyse", "cube", "play", "rollout", "ubgi"] {
        let text = help(command);
        let ply = text.split("--ply <PLY>").nth(1).unwrap_or_else(|| panic!("{command}: no --ply in\n{text}"));
        let ply = ply.split("\n      --").next().unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(ply.contains("counted as gnubg") && ply.contains("static evaluation"), "{command} --ply: {ply}");
    }
    // `eval` has no depth: it says its evaluation is gnubg's 0-ply.
    let text = help("eval").split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("0-ply, counted as gnubg counts plies"), "{text}");
}
