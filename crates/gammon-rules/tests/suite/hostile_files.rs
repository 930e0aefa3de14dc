//! Match files and position texts built to hurt: huge lines and names,
//! other encodings and other programs' files, rules pushed to their edges
//! (issue 26).

use crate::chain;
use gammon_rules::{
    parse_mat, parse_match_text, parse_position_text, parse_sgf, read_match_file, read_match_file_until_error,
    ContextError, CubeOwner, Dice, FibsBoard, GameContext, MatchId, MatchRecord, Position, ReadMatchError, Seat, Xgid,
};
use std::path::Path;

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

/// A folder of its own for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gammon-hostile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    let mut bytes = if little_endian { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
    for unit in text.encode_utf16() {
        bytes.extend(if little_endian { unit.to_le_bytes() } else { unit.to_be_bytes() });
    }
    bytes
}

fn sample(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches").join(name)).unwrap()
}

#[test]
fn a_match_file_reads_the_same_in_every_encoding_and_line_end() {
    let dir = scratch("encodings");
    for name in ["three_point.mat", "three_point.sgf"] {
        let text = sample(name);
        let expected = parse_match_text(&text).unwrap();
        let lf = text.replace("\r\n", "\n");
        let variants: [(&str, Vec<u8>); 6] = [
            ("utf8-bom", [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat()),
            ("utf16le", utf16(&text, true)),
            ("utf16be", utf16(&text, false)),
            ("crlf", lf.replace('\n', "\r\n").into_bytes()),
            ("cr", lf.replace('\n', "\r").into_bytes()),
            ("utf16le-cr-bom", utf16(&format!("\u{feff}{}", lf.replace('\n', "\r")), true)),
        ];
        for (how, bytes) in variants {
            let path = dir.join(format!("{how}-{name}"));
            std::fs::write(&path, &bytes).unwrap();
            let read = read_match_file(&path).unwrap_or_else(|e| panic!("{how} {name}: {}", chain(&e)));
            assert_eq!(read.games.len(), expected.games.len(), "{how} {name}");
            assert_eq!(read.players, expected.players, "{how} {name}");
            let moves = |m: &MatchRecord| m.games.iter().map(|g| g.records.len()).collect::<Vec<_>>();
            assert_eq!(moves(&read), moves(&expected), "{how} {name}");
            // An upload (text already read) gets the same treatment.
            if let Ok(text) = String::from_utf8(bytes) {
                assert_eq!(parse_match_text(&text).unwrap().games.len(), expected.games.len(), "{how} {name}");
            }
        }
    }
    // A BOM before SGF text is still SGF (it was read as .mat).
    let bom_sgf = format!("\u{feff}{}", sample("three_point.sgf"));
    assert!(parse_match_text(&bom_sgf).is_ok());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn other_programs_files_are_named_by_their_content() {
    let shared = gammon_testkit::shared_dir().join("matches");
    let first = |folder: &str, ext: &str| {
        let mut files: Vec<_> = std::fs::read_dir(shared.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        files.into_iter().next().unwrap_or_else(|| panic!("no .{ext} file in {folder}"))
    };
    let dir = scratch("kinds");
    // .xg and OGXM files are read by their content whatever their name.
    for path in [first("xg", "xg"), first("ogxm", "ogxm"), first("ogxm", "gvab")] {
        let renamed = dir.join("match.mat");
        std::fs::copy(&path, &renamed).unwrap();
        let (a, b) = (read_match_file_until_error(&renamed), read_match_file_until_error(&path));
        assert_eq!(a.unwrap(), b.unwrap(), "{}", path.display());
    }
    std::fs::remove_dir_all(dir).unwrap();
    let e = parse_match_text("RGMH\u{1}\u{0}").unwrap_err().to_string();
    assert!(e.contains("eXtreme Gammon") && e.contains("binary"), "{e}");
    // OGXM files are read from their bytes (ogxm_files/), never as text.
    assert!(read_match_file(first("ogxm", "ogxm")).is_ok());
    let e = parse_match_text("OGXM\u{2}\u{0}").unwrap_err().to_string();
    assert!(e.contains("OGXM") && e.contains("not as text"), "{e}");
}

#[test]
fn binary_junk_is_not_text() {
    let dir = scratch("junk");
    let path = dir.join("junk.mat");
    std::fs::write(&path, [0x00, 0xC3, 0x28, 0xFF]).unwrap();
    let e = read_match_file(&path).unwrap_err();
    assert!(matches!(e, ReadMatchError::NotText { .. }), "{e:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A numbered `.mat` line with one action in the left (0) or right (1)
/// column, aligned with the player line of [`money_game`].
fn mat_line(n: usize, column: usize, action: &str) -> String {
    let (left, right) = if column == 0 { (action, "") } else { ("", action) };
    format!("{n:3}) {left:<28}{right}\n")
}

/// A money game in which the players double each other, turn by turn, up
/// to `doubles` times and then once more; every move is legal.
fn money_game(doubles: u32) -> String {
    let mut text = format!(" 0 point match\n\n Game 1\n {:<31}B : 0\n", "A : 0");
    let rolls = ["31", "42", "53", "64", "21", "65", "43", "52", "61", "54", "32", "62", "41", "63"];
    let mut pos = Position::STARTING;
    let mut n = 0;
    for (turn, roll) in rolls.iter().enumerate() {
        let (mover, other) = (turn % 2, 1 - turn % 2);
        if turn > 0 {
            n += 1;
            let value = 1u64 << turn;
            text.push_str(&mat_line(n, mover, &format!("Doubles => {value}")));
            if turn as u32 > doubles {
                return text;
            }
            text.push_str(&mat_line(n, other, "Takes"));
        }
        let dice: Dice = roll.parse().unwrap();
        let mv = pos.legal_moves(dice).moves()[0];
        let written = pos.format_move(&mv);
        pos = gammon_rules::parse_move(&pos, dice, &written).unwrap().1;
        n += 1;
        text.push_str(&mat_line(n, mover, &format!("{roll}: {written}")));
    }
    panic!("not enough rolls for {doubles} doubles");
}

#[test]
fn a_redouble_past_the_largest_cube_names_the_cube_limit() {
    // Up to 1024 the game replays; the redouble to 2048 is refused for the
    // cube limit, not for whose cube it is.
    let (record, error) = gammon_rules::parse_mat_until_error(&money_game(9)).unwrap();
    assert!(error.is_none() && record.games.len() == 1, "{error:?}");
    let e = parse_mat(&money_game(10)).unwrap_err().to_string();
    assert!(e.contains("may not double here") && e.contains("largest cube allowed, 1024"), "{e}");
    assert!(!e.contains("player's cube") && !e.contains("owns the cube"), "{e}");
}

#[test]
fn a_double_by_the_player_without_the_cube_says_so() {
    let text = format!(
        " 0 point match\n\n Game 1\n {:<31}B : 0\n{}{}{}{}",
        "A : 0",
        mat_line(1, 0, "31: 8/5 6/5"),
        mat_line(2, 1, "Doubles => 2"),
        mat_line(2, 0, "Takes"),
        mat_line(3, 1, "42: 8/4 6/4"),
    ) + &mat_line(4, 0, "Doubles => 4");
    // A took: A owns the cube and doubles legally; B doubling instead is not.
    assert!(parse_mat(&text).is_ok(), "{:?}", parse_mat(&text));
    let by_b = format!(
        " 0 point match\n\n Game 1\n {:<31}B : 0\n{}{}{}{}{}",
        "A : 0",
        mat_line(1, 0, "31: 8/5 6/5"),
        mat_line(2, 1, "Doubles => 2"),
        mat_line(2, 0, "Takes"),
        mat_line(3, 1, "42: 8/4 6/4"),
        mat_line(4, 0, "53: 8/3 6/3"),
    ) + &mat_line(5, 1, "Doubles => 4");
    let e = parse_mat(&by_b).unwrap_err().to_string();
    assert!(e.contains("the opponent owns the cube"), "{e}");
}

#[test]
fn wins_and_the_match_must_end_the_match() {
    let game = |length: u32, wins: &str| {
        format!(
            " {length} point match\n\n Game 1\n {:<31}B : 0\n{}{}{}          {:<28}{wins}\n",
            "A : 0",
            mat_line(1, 0, "31: 8/5 6/5"),
            mat_line(2, 1, "Doubles => 2"),
            mat_line(3, 0, "Drops"),
            ""
        )
    };
    // 1 point at 0-0 of a 5-point match does not end it.
    let e = parse_mat(&game(5, "Wins 1 point and the match")).unwrap_err().to_string();
    assert!(e.contains("and the match") && e.contains("needs 5"), "{e}");
    // Without the claim the same game is fine, and the claim is fine where true.
    assert!(parse_mat(&game(5, "Wins 1 point")).is_ok());
    assert!(parse_mat(&game(1, "Wins 1 point and the match")).is_ok());
    // XG ends a money session's export so: the session's end, read as a win.
    let money = parse_mat(&game(0, "Wins 1 point and the match")).unwrap();
    assert_eq!(money.games[0].result, Some((gammon_rules::Seat::One, 1)));
}

#[test]
fn set_up_properties_in_the_root_node_are_refused_by_name() {
    let plain = "(;GM[6]MI[length:1][game:0][ws:0][bs:0]PW[A]PB[B]\n;B[31qtst])";
    assert!(parse_sgf(plain).is_ok());
    for prop in ["AE[a:y]", "AB[aa]", "AW[xx]", "CP[1]"] {
        let text = plain.replace("PB[B]", &format!("PB[B]{prop}"));
        let e = parse_sgf(&text).unwrap_err().to_string();
        assert!(e.contains(&format!("{}[…] in the root node", &prop[..2])), "{prop}: {e}");
    }
}

#[test]
fn a_cube_of_one_is_centred_in_every_format() {
    let owned = |ctx: GameContext| ctx.validate();
    for owner in [CubeOwner::OnRoll, CubeOwner::Opponent] {
        let e = owned(GameContext { cube_owner: owner, ..GameContext::new_match(5) }).unwrap_err();
        assert_eq!(e, ContextError::OwnedCubeAtOne(owner));
        assert!(e.to_string().contains("a cube of 1 is centred"), "{e}");
        // Owned at 2 is what a taken double gives.
        assert!(owned(GameContext { cube_owner: owner, cube_value: 2, ..GameContext::new_match(5) }).is_ok());
    }
    // XGID: cube field 0 (1 = 2^0) with owner 1.
    let xgid = "XGID=-b----E-C---eE---c-e----B-:0:1:1:31:3:1:0:5:10";
    let e = Xgid::parse(xgid).unwrap_err();
    assert!(matches!(e, gammon_rules::XgidError::Context(ContextError::OwnedCubeAtOne(_))), "{e:?}");
    assert!(Xgid::parse(&xgid.replace(":0:1:1:31:", ":0:0:1:31:")).is_ok());
    // Match ID: cube 1 owned by player 0.
    let centred = MatchId::from_context(&GameContext::new_match(5), Seat::Zero).unwrap();
    let owned_id = MatchId { cube_owner: Some(Seat::Zero), ..centred };
    let text = |id: MatchId| format!("{}:{id}", Position::STARTING.to_position_id());
    assert!(parse_position_text(&text(centred)).is_ok());
    let e = chain(&parse_position_text(&text(owned_id)).unwrap_err());
    assert!(e.contains("a cube of 1 is centred"), "{e}");
    // FIBS: at a cube of 1 a lone "may double" flag does not make an owner.
    let clip = "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:0:0:1:-1:0:25:0:0:0:0:2:0:0:0";
    let board = FibsBoard::parse(clip).unwrap_or_else(|e| panic!("{}", chain(&e)));
    assert_eq!((board.context.cube_value, board.context.cube_owner), (1, CubeOwner::Centered));
}
