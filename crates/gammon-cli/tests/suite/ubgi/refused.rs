//! Refused commands, start-up options and the documentation.

use super::*;

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
