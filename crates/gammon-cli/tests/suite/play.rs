//! `gammon play` with scripted input.
#![allow(clippy::unwrap_used)]

use gammon_rules::{parse_move, Dice, Position};
use gammon_testkit::Output;

/// Runs `gammon play <args>` with `input` on standard input.
fn play(args: &[&str], input: &[u8]) -> Output {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    gammon_testkit::run(env!("CARGO_BIN_EXE_gammon"), &all, input)
}

/// Standard output of a game that must end with exit status 0.
fn transcript(args: &[&str], input: &str) -> String {
    let out = play(args, input.as_bytes());
    assert!(out.success(), "{}\n{}", out.stderr, out.stdout);
    out.stdout
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
    let a = transcript(&["--seed", "7", "--engine", "pubeval", "--no-cube"], &input);
    assert!(a.contains("Dice seed: 7"), "{a}");
    let last = a.lines().last().unwrap();
    assert!(last.starts_with("You win ") || last.starts_with("The engine wins "), "{last}");
    assert!(last.contains("point"), "{last}");
    let b = transcript(&["--seed", "7", "--engine", "pubeval", "--no-cube"], &input);
    assert_eq!(a, b);
}

#[test]
fn garbage_input_never_crashes() {
    let input: &[u8] =
        b"31\n\xff\xfe\x00\n////\n24/\nbar/off\n99999999999999999999999\n13/10(9)\n6/off\n8/5 6/5 4/1\n*\n()\nquit\n";
    let out = play(&["--manual-dice"], input);
    assert!(out.success(), "{}", out.stderr);
    let stdout = out.stdout;
    assert!(stdout.matches("Illegal move:").count() >= 7, "{stdout}");
}

#[test]
fn a_missing_weights_file_is_a_clear_error() {
    let out = play(&["--weights", "/no/such/weights.bin"], b"");
    assert!(!out.success());
    let err = out.stderr;
    assert!(err.contains("/no/such/weights.bin"), "{err}");
}

/// The Position ID of a position with the human on roll: `(point, checkers)`
/// for each side, each in its own numbering (1..=24; 25 is the bar).
fn position_id(human: &[(usize, u8)], engine: &[(usize, u8)]) -> String {
    let board = |list: &[(usize, u8)]| {
        let mut b = [0u8; 25];
        for &(point, n) in list {
            b[point - 1] = n;
        }
        b
    };
    Position::from_boards(&board(human), &board(engine)).unwrap().to_position_id()
}

/// The human bears off 3 checkers from his 2-point; the engine has all 15 in
/// its home board: the engine must drop a double.
fn human_far_ahead() -> String {
    position_id(&[(2, 3)], &[(4, 5), (5, 5), (6, 5)])
}

/// The human has 5 checkers on his 6-point (10 off); the engine has 2 on its
/// 1-point: after the human's roll the engine doubles (double, pass).
fn engine_wins_next_roll() -> String {
    position_id(&[(6, 5)], &[(1, 2)])
}

/// The human's last checker is on his 1-point; the engine's 15 are on its
/// midpoint: any roll wins a gammon.
fn gammon_next_roll() -> String {
    position_id(&[(1, 1)], &[(13, 15)])
}

/// The text after the first line containing `marker`.
fn after<'a>(out: &'a str, marker: &str) -> &'a str {
    let at = out.find(marker).unwrap_or_else(|| panic!("no {marker:?} in\n{out}"));
    &out[at..]
}

#[test]
fn the_human_doubles_at_the_start_and_the_engine_takes_and_owns_the_cube() {
    // The engine wins the opening roll (1 against 3) and plays 31; then I
    // double, the engine takes, I roll 21 and play the first move; the
    // engine rolls 42 and moves; I own no cube, so no double is offered.
    let out = transcript(&["--manual-dice"], "13\nd\n21\n1\n42\n21\nquit\n");
    assert!(out.contains("a money game with the doubling cube"), "{out}");
    assert!(out.contains("Cube: 1, centred."), "{out}");
    assert!(out.contains("Roll or double? [r/d]: d"), "{out}");
    assert!(out.contains("You double to 2."), "{out}");
    assert!(out.contains("The engine takes: the cube is at 2, owned by the engine."), "{out}");
    let rest = after(&out, "The engine takes");
    assert!(rest.contains("Cube: 2, owned by the engine."), "{out}");
    // The engine owns the cube: my next turn starts with the roll.
    assert_eq!(out.matches("Roll or double?").count(), 1, "{out}");
    assert!(!out.contains("The engine doubles"), "{out}");
    assert!(rest.contains("Roll for you (e.g. 31): 21"), "{out}");
}

#[test]
fn the_engine_drops_when_the_human_is_far_ahead() {
    let id = human_far_ahead();
    let out = transcript(&["--manual-dice", "--position", &id], "d\n");
    assert!(out.contains(&format!("Starting from position {id}: you are on roll.")), "{out}");
    assert!(out.contains("You double to 2."), "{out}");
    assert_eq!(out.lines().last().unwrap(), "The engine drops: you win 1 point.", "{out}");
}

#[test]
fn the_engine_doubles_and_the_human_drops() {
    let id = engine_wins_next_roll();
    // I roll 21 (after `r`) and play the first move; the engine doubles.
    let out = transcript(&["--manual-dice", "--position", &id], "r\n21\n1\nd\n");
    assert!(out.contains("The engine doubles to 2. Take or drop? [t/d]: d"), "{out}");
    assert_eq!(out.lines().last().unwrap(), "You drop: the engine wins 1 point.", "{out}");
}

#[test]
fn cube_prompts_take_commands_and_refuse_garbage() {
    let out = transcript(&["--manual-dice", "--position", "start"], "xyz\nhint\nhelp\nboard\nr\n31\nquit\n");
    assert!(out.contains("Type r to roll or d to double"), "{out}");
    assert!(out.contains("Proper cube action for you: No double"), "{out}");
    assert!(out.contains("offer the engine the cube"), "{out}");
    assert!(out.contains("Roll for you (e.g. 31): 31"), "{out}");
    assert!(out.contains("Your move (31):"), "{out}");

    let id = engine_wins_next_roll();
    let out = transcript(&["--manual-dice", "--position", &id], "r\n21\n1\nhint\nxyz\nb\nhelp\nt\nquit\n");
    assert!(out.contains("your correct answer: drop"), "{out}");
    assert!(out.contains("Type t to take or d to drop"), "{out}");
    assert!(out.contains("Beavers are not allowed here"), "{out}");
    assert!(out.contains("lose the game at the cube value"), "{out}");
    assert!(out.contains("You take: the cube is at 2, owned by you."), "{out}");
    assert!(out.contains("Roll for the engine (e.g. 31): quit"), "{out}");
}

#[test]
fn the_crawford_game_has_no_doubles() {
    // A 2-point match: the engine wins the first game by my drop (0-1), so
    // the second game is the Crawford game.
    let id = engine_wins_next_roll();
    let input = "r\n21\n1\nd\n31\n8/5 6/5\n64\n42\n1\n53\nquit\n";
    let out = transcript(&["--manual-dice", "--match", "2", "--position", &id], input);
    assert!(out.contains("a 2-point match against"), "{out}");
    assert!(out.contains("Game 1 of the 2-point match: you 0, the engine 0."), "{out}");
    assert!(out.contains("Score: you 0, the engine 1 (match to 2)."), "{out}");
    let crawford = after(&out, "Game 2 of the 2-point match: you 0, the engine 1. This is the Crawford game");
    assert!(crawford.contains("Cube: 1, centred (Crawford game: nobody may double)."), "{out}");
    assert!(crawford.contains("Match to 2: you 0, the engine 1."), "{out}");
    // Nobody is offered a double: my rolls are asked for at once.
    assert!(!crawford.contains("Roll or double?"), "{out}");
    assert!(!crawford.contains("doubles"), "{out}");
    assert!(crawford.contains("Roll for you (e.g. 31): 42"), "{out}");
    assert!(crawford.contains("The engine rolls 64 and plays"), "{out}");
    assert!(crawford.contains("The engine rolls 53 and plays"), "{out}");
    assert!(
        out.ends_with("You leave the match at you 0, the engine 1; the game in progress is not scored.\n"),
        "{out}"
    );
}

#[test]
fn match_score_counts_drops_and_gammons() {
    // The engine drops my double: 1-0; the next game starts at 1-0 with the
    // cube centred at 1.
    let id = human_far_ahead();
    let out = transcript(&["--manual-dice", "--match", "3", "--position", &id], "d\n13\nd\nquit\n");
    assert!(out.contains("The engine drops: you win 1 point."), "{out}");
    assert!(out.contains("Score: you 1, the engine 0 (match to 3)."), "{out}");
    let game2 = after(&out, "Game 2 of the 3-point match: you 1, the engine 0.");
    assert!(!game2.contains("Crawford"), "{out}");
    assert!(game2.contains("Cube: 1, centred."), "{out}");
    assert!(game2.contains("Match to 3: you 1, the engine 0."), "{out}");
    // In game 2 I may double (2-away, cube 1).
    assert!(game2.contains("You double to 2."), "{out}");

    // A gammon played out: 2 points.
    let id = gammon_next_roll();
    let out = transcript(&["--manual-dice", "--match", "5", "--position", &id], "r\n21\n1\n");
    assert!(out.contains("You win a gammon (2 points)."), "{out}");
    assert!(out.contains("Score: you 2, the engine 0 (match to 5)."), "{out}");
    assert!(out.contains("Game 2 of the 5-point match: you 2, the engine 0."), "{out}");
    assert!(out.contains("End of input: the match is abandoned."), "{out}");

    // Winning the match: a 1-point match won by a drop.
    let id = human_far_ahead();
    let out = transcript(&["--manual-dice", "--match", "2", "--position", &id], "d\n");
    assert!(out.contains("Score: you 1, the engine 0 (match to 2)."), "{out}");
    let id = engine_wins_next_roll();
    let out = transcript(&["--manual-dice", "--match", "1", "--position", &id], "21\n1\n21\n");
    // 1-point match: the cube is dead, nobody doubles; the engine bears off.
    assert!(!out.contains("Roll or double?") && !out.contains("doubles"), "{out}");
    assert!(out.contains("The engine wins a single game (1 point)."), "{out}");
    assert!(out.ends_with("The engine wins the match, 1-0.\n"), "{out}");
}

#[test]
fn jacoby_counts_an_unturned_gammon_single() {
    let id = gammon_next_roll();
    let out = transcript(&["--manual-dice", "--jacoby", "--position", &id], "r\n21\n1\n");
    assert!(out.contains("Rules: the Jacoby rule"), "{out}");
    assert_eq!(
        out.lines().last().unwrap(),
        "You win a gammon, counted as a single game under the Jacoby rule (the cube was not turned): 1 point.",
        "{out}"
    );
    let out = transcript(&["--manual-dice", "--position", &id], "r\n21\n1\n");
    assert_eq!(out.lines().last().unwrap(), "You win a gammon (2 points).", "{out}");
    // Jacoby does not apply in a match.
    let out = transcript(&["--manual-dice", "--jacoby", "--match", "3", "--position", &id], "21\n1\n");
    assert!(out.contains("--jacoby applies only to money play"), "{out}");
    assert!(out.contains("You win a gammon (2 points)."), "{out}");
}

#[test]
fn beavers_by_the_engine_and_by_the_human() {
    // At the start the side on roll should not double: with beavers the
    // engine beavers.
    let out = transcript(&["--manual-dice", "--beaver", "--position", "start"], "d\nquit\n");
    assert!(out.contains("Rules: beavers."), "{out}");
    assert!(out.contains("The engine beavers: it takes and redoubles at once; the cube is at 4, owned by the engine."));

    // The engine doubles, I beaver a winning double: the engine raccoons
    // (the engine's cube player, with raccoons allowed wherever beavers
    // are), I accept without being asked, the engine bears off: 8 points.
    let id = engine_wins_next_roll();
    let out = transcript(&["--manual-dice", "--beaver", "--position", &id], "r\n21\n1\nb\n21\n");
    assert!(out.contains("Take or drop (or beaver)? [t/d/b]: b"), "{out}");
    assert!(out.contains("You beaver: the cube is at 4, owned by you."), "{out}");
    assert!(out.contains("The engine raccoons: it redoubles your beaver; the cube is at 8, owned by you"), "{out}");
    assert!(out.contains("Cube: 8, owned by you."), "{out}");
    assert_eq!(
        out.lines().last().unwrap(),
        "The engine wins a single game (1 point) with the cube at 8: 8 points.",
        "{out}"
    );
}

#[test]
fn murphy_turns_the_cube_on_equal_opening_dice() {
    let out = transcript(&["--manual-dice", "--murphy", "2"], "44\n55\n66\n31\n8/5 6/5\nquit\n");
    assert!(out.contains("automatic doubles (Murphy rule, up to 2 doubles)"), "{out}");
    assert!(out.contains("Both dice show 4: automatic double (Murphy rule), the cube is now at 2, centred."), "{out}");
    assert!(out.contains("Both dice show 5: automatic double (Murphy rule), the cube is now at 4, centred."), "{out}");
    // Two automatic doubles at most.
    assert!(out.contains("Both dice show 6: roll again."), "{out}");
    assert!(out.contains("You play 8/5 6/5."), "{out}");
    assert!(after(&out, "You play").contains("Cube: 4, centred."), "{out}");

    let out = transcript(&["--manual-dice", "--murphy", "1"], "22\n31\n8/5 6/5\nquit\n");
    assert!(after(&out, "You play").contains("Cube: 2, centred."), "{out}");
    // Only in money play.
    let out = transcript(&["--manual-dice", "--murphy", "2", "--match", "3"], "44\n31\nquit\n");
    assert!(out.contains("--murphy applies only to money play"), "{out}");
    assert!(out.contains("Both dice show 4: roll again."), "{out}");
    // Seeded dice: the same game twice.
    let a = transcript(&["--seed", "1", "--murphy", "3"], "quit\n");
    let b = transcript(&["--seed", "1", "--murphy", "3"], "quit\n");
    assert_eq!(a, b);
}

#[test]
fn no_cube_plays_the_cubeless_game() {
    let out = transcript(&["--manual-dice", "--no-cube"], "13\n31\nquit\n");
    assert!(out.contains("a cubeless money game"), "{out}");
    assert!(!out.contains("Cube:"), "{out}");
    assert!(!out.contains("Roll or double?"), "{out}");
    assert!(out.contains("Roll for you (e.g. 31): 31"), "{out}");
    assert!(out.contains("Your move (31):"), "{out}");
}

#[test]
fn a_whole_game_with_the_cube_is_reproducible() {
    // Roll, the first legal move, take every double; stray answers are
    // refused and asked again.
    let input = "r\n1\nt\n".repeat(1500);
    let a = transcript(&["--seed", "7"], &input);
    let last = a.lines().last().unwrap();
    assert!(
        last.starts_with("You win ")
            || last.starts_with("The engine wins ")
            || last.starts_with("The engine drops")
            || last.starts_with("You drop"),
        "{last}"
    );
    assert!(last.contains("point"), "{last}");
    let b = transcript(&["--seed", "7"], &input);
    assert_eq!(a, b);
}

#[test]
fn bad_options_are_clear_errors() {
    let out = play(&["--match", "99"], b"");
    assert!(!out.success());
    assert!(out.stderr.contains("99-point match"), "{}", out.stderr);
    let out = play(&["--position", "nonsense"], b"");
    assert!(!out.success());
    assert!(out.stderr.contains("nonsense"));
    let out = play(&["--no-cube", "--jacoby"], b"");
    assert!(!out.success());
}

#[test]
fn pubeval_moves_but_the_net_takes_the_cube_decisions() {
    let out = transcript(&["--seed", "3", "--engine", "pubeval"], "quit\n");
    assert!(out.contains("Cube decisions: "), "{out}");
    let out = transcript(&["--seed", "3", "--engine", "pubeval", "--no-cube"], "quit\n");
    assert!(!out.contains("Cube decisions: "), "{out}");
}

#[test]
fn after_the_crawford_game_only_the_trailer_doubles() {
    // I trail 0-2 in a 3-point match after the Crawford game: I may double,
    // and the engine drops in a position it cannot save.
    let id = human_far_ahead();
    let args = ["--manual-dice", "--match", "3", "--score", "0-2", "--post-crawford", "--position", &id];
    let out = transcript(&args, "d\n");
    assert!(out.contains("Game 1 of the 3-point match: you 0, the engine 2. After the Crawford game"), "{out}");
    assert!(out.contains("The engine drops: you win 1 point."), "{out}");
    assert!(out.contains("Score: you 1, the engine 2 (match to 3)."), "{out}");
    assert!(out.contains("Game 2 of the 3-point match: you 1, the engine 2. After the Crawford game"), "{out}");

    // I lead 2-0: I am never offered the cube; the engine (trailer) doubles
    // when it is about to win, I take, and it wins 2 points: 2-2, where
    // the cube is dead.
    let id = engine_wins_next_roll();
    let args = ["--manual-dice", "--match", "3", "--score", "2-0", "--post-crawford", "--position", &id];
    let out = transcript(&args, "21\n1\nt\n21\n");
    assert!(!out.contains("Roll or double?"), "{out}");
    assert!(out.contains("The engine doubles to 2. Take or drop? [t/d]: t"), "{out}");
    assert!(out.contains("The engine wins a single game (1 point) with the cube at 2: 2 points."), "{out}");
    assert!(out.contains("Game 2 of the 3-point match: you 2, the engine 2. Both sides need one point"), "{out}");

    // Without --post-crawford, a player one point away plays the Crawford game first.
    let out = transcript(&["--manual-dice", "--match", "3", "--score", "2-0"], "");
    assert!(out.contains("This is the Crawford game"), "{out}");
    // Scores that do not fit are refused.
    for bad in [
        &["--match", "3", "--score", "3-0"][..],
        &["--score", "1-0"],
        &["--match", "5", "--score", "1-1", "--post-crawford"],
    ] {
        let out = play(bad, b"");
        assert!(!out.success(), "{bad:?}");
    }
}

/// All 15 of mine on my midpoint; the engine's last checker on its
/// 1-point, out of my reach: the engine wins a gammon next turn, whatever I
/// roll, never a backgammon.
fn engine_wins_a_gammon() -> String {
    position_id(&[(13, 15)], &[(1, 1)])
}

#[test]
fn a_resigned_single_is_declined_where_the_engine_wins_a_gammon_and_a_gammon_is_accepted() {
    let id = engine_wins_a_gammon();
    // At the cube prompt, before my roll.
    let out = transcript(&["--manual-dice", "--position", &id], "resign\nresign single\nresign gammon\n");
    assert!(out.contains("You offer to resign a single game."), "{out}");
    assert!(out.contains("The engine declines (0-ply"), "{out}");
    assert!(out.contains("The engine has declined your offer of a single game this turn"), "{out}");
    assert!(out.contains("You offer to resign a gammon."), "{out}");
    assert!(out.contains("The engine accepts (0-ply"), "{out}");
    assert_eq!(out.lines().last().unwrap(), "The engine wins a gammon by resignation: 2 points.", "{out}");
}

#[test]
fn a_resignation_after_the_roll_and_a_generous_one_at_the_start() {
    let id = engine_wins_a_gammon();
    // After my roll, at the move prompt (the roll prompt points there).
    let out = transcript(&["--manual-dice", "--position", &id], "r\nresign\n21\nresign gammon\n");
    assert!(
        out.contains("Roll for you (e.g. 31): resign\nType the dice here; you may resign at your move prompt"),
        "{out}"
    );
    assert!(out.contains("Your move (21): resign gammon"), "{out}");
    assert_eq!(out.lines().last().unwrap(), "The engine wins a gammon by resignation: 2 points.", "{out}");
    // A single offered after the opening roll is more than the engine
    // expects from an even game.
    let out = transcript(&["--manual-dice"], "31\nresign\n");
    assert!(out.contains("Your move (31): resign"), "{out}");
    assert_eq!(out.lines().last().unwrap(), "The engine wins a single game by resignation: 1 point.", "{out}");
    // Unknown levels are refused and the prompt repeats.
    let out = transcript(&["--manual-dice"], "31\nresign twice\nquit\n");
    assert!(out.contains("Cannot resign \"twice\""), "{out}");
    assert!(out.contains("not scored"), "{out}");
}

#[test]
fn jacoby_makes_a_single_resignation_enough_and_no_cube_values_it_cubeless() {
    let id = engine_wins_a_gammon();
    // Under Jacoby a gammon counts single while the cube is centred: a
    // single is all the engine can get.
    let out = transcript(&["--manual-dice", "--jacoby", "--position", &id], "resign\n");
    assert_eq!(out.lines().last().unwrap(), "The engine wins a single game by resignation: 1 point.", "{out}");
    // And a resigned gammon counts single too.
    let out = transcript(&["--manual-dice", "--jacoby", "--position", &id], "resign gammon\n");
    assert_eq!(
        out.lines().last().unwrap(),
        "The engine wins a gammon by resignation, counted as a single game under the Jacoby rule (the cube was not turned): 1 point.",
        "{out}"
    );
    // Without the cube there is no cube prompt: the resignation comes at the roll prompt.
    let out = transcript(&["--manual-dice", "--no-cube", "--position", &id], "resign\nresign gammon\n");
    assert!(out.contains("Engine depth: 0-ply moves.\n"), "{out}");
    assert!(
        out.contains("Roll for you (e.g. 31): resign\nYou offer to resign a single game.\nThe engine declines"),
        "{out}"
    );
    assert_eq!(out.lines().last().unwrap(), "The engine wins a gammon by resignation: 2 points.", "{out}");
}

#[test]
fn an_accepted_resignation_in_a_match_scores_and_the_crawford_game_follows() {
    // 5-point match at 0-2: the engine accepts a gammon, 0-4, and the next
    // game is the Crawford game.
    let id = engine_wins_a_gammon();
    let out =
        transcript(&["--manual-dice", "--match", "5", "--score", "0-2", "--position", &id], "resign\nresign gammon\n");
    // A single would leave it 2-away: worth less than the gammon it wins.
    assert!(out.contains("The engine declines (0-ply: playing on is worth"), "{out}");
    assert!(out.contains("match winning chances"), "{out}");
    assert!(out.contains("The engine wins a gammon by resignation: 2 points."), "{out}");
    assert!(out.contains("Score: you 0, the engine 4 (match to 5)."), "{out}");
    assert!(out.contains("Game 2 of the 5-point match: you 0, the engine 4. This is the Crawford game"), "{out}");
    // The last point of the match by resignation.
    let out = transcript(&["--manual-dice", "--match", "5", "--score", "0-4", "--position", &id], "21\nresign\n");
    assert!(out.ends_with("The engine wins the match, 5-0.\n"), "{out}");
}

#[test]
fn the_engines_depth_is_stated_and_hints_say_theirs() {
    let out = transcript(&["--manual-dice"], "31\nhint\nquit\n");
    assert_eq!(out.lines().nth(1), Some("Engine depth: 0-ply moves and cube."), "{out}");
    assert!(out.contains("Hint (0-ply): the engine's choice"), "{out}");
    let out = transcript(&["--manual-dice", "--ply", "1"], "31\nhint\nquit\n");
    assert_eq!(out.lines().nth(1), Some("Engine depth: 1-ply moves and cube."), "{out}");
    assert!(out.contains("Hint (1-ply): the engine's choice"), "{out}");
    let out = transcript(&["--manual-dice", "--ply", "1", "--position", "start"], "hint\nquit\n");
    assert!(out.contains("The engine's cube analysis ("), "{out}");
    assert!(out.contains(", 1-ply).\nYou are X"), "{out}");
    let out = play(&["--ply", "4"], b"");
    assert!(!out.success() && out.stderr.contains("--ply"), "{}", out.stderr);
}

#[test]
fn an_unreadable_line_is_refused_and_the_prompt_comes_again() {
    let mut input = b"31\n".to_vec();
    input.extend(vec![b'x'; 100_000]);
    input.extend(b"\n\xff\xfe 8/5 6/5\n8/5 6/5\nquit\n");
    let out = play(&["--seed", "5", "--manual-dice"], &input);
    assert!(out.success(), "{}", out.stderr);
    let stdout = out.stdout;
    assert_eq!(stdout.matches("error: line too long (limit ").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("error: the line is not UTF-8 text").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("Your move (31):").count(), 3, "{stdout}");
    assert!(stdout.contains("You play 8/5 6/5."), "{stdout}");
    assert!(!stdout.contains("xxxx"), "the long line is not echoed: {stdout}");
}

#[test]
fn a_match_longer_than_25_points_needs_a_table_that_covers_it() {
    let refused = play(&["--match", "30", "--seed", "1"], b"quit\n");
    assert!(!refused.success() && refused.stderr.contains("covers matches up to 25 points"), "{}", refused.stderr);
    let table = crate::cube::long_table_file(32);
    let out = transcript(&["--match", "30", "--seed", "1", "--met", table.to_str().unwrap()], "quit\n");
    assert!(out.contains("a 30-point match") && out.contains("Match equity table: Made-up 32."), "{out}");
    std::fs::remove_file(table).unwrap();
}

/// A fresh folder for saved games.
fn save_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-play-save-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn save_writes_a_game_left_part_way_with_what_was_played() {
    use gammon_rules::{read_match_file, MatAction, Seat};
    let dir = save_dir("quit");
    for name in ["game.mat", "game.sgf"] {
        let path = dir.join(name);
        // I move 31 first (manual dice: I roll 3, the engine 1), then leave
        // at the engine's roll prompt.
        let out = transcript(&["--manual-dice", "--save", path.to_str().unwrap()], "31\n8/5 6/5\nquit\n");
        assert!(out.contains(&format!("Saved 1 game to {}.", path.display())), "{out}");
        let m = read_match_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((m.match_length, &m.players), (0, &["You".to_string(), "gammon".to_string()]), "{name}");
        let g = &m.games[0];
        assert_eq!(g.records.len(), 1, "{name}: one move played");
        assert_eq!(g.records[0].player, Seat::Zero, "{name}: I am the left column");
        let (mv, _) = parse_move(&Position::STARTING, start31(), "8/5 6/5").unwrap();
        assert!(matches!(&g.records[0].action, MatAction::Move { dice, mv: m, .. } if *dice == start31() && *m == mv));
        assert_eq!(g.result, None, "{name}: the game is not over");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_writes_a_whole_match_with_its_cube_actions_and_results_as_played() {
    use gammon_rules::{read_match_file, MatAction, Seat};
    let dir = save_dir("match");
    let path = dir.join("match.sgf");
    // Roll, the first legal move, take every double, to the end of a 3-point match.
    let input = "r\n1\nt\n".repeat(3000);
    let out = transcript(&["--seed", "8", "--match", "3", "--save", path.to_str().unwrap()], &input);
    let m = read_match_file(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.match_length, 3);
    // The transcript's final score is the saved games' results added up.
    let mut score = [0u32; 2];
    for g in &m.games {
        assert_eq!(g.score, score, "game {}", g.number);
        let (winner, points) = g.result.expect("every game of a finished match has a result");
        score[winner.index()] += points;
    }
    let line = out.lines().find(|l| l.contains("wins the match")).unwrap();
    let (you, engine) = (score[Seat::Zero.index()], score[Seat::One.index()]);
    assert!(
        line == format!("You win the match, {you}-{engine}.")
            || line == format!("The engine wins the match, {engine}-{you}."),
        "{line} vs saved {score:?}"
    );
    // Every double the transcript shows is in the file, each with its take.
    let doubles =
        m.games.iter().flat_map(|g| &g.records).filter(|r| matches!(r.action, MatAction::Double { .. })).count();
    let takes = m.games.iter().flat_map(|g| &g.records).filter(|r| matches!(r.action, MatAction::Take)).count();
    let said = out.matches("You take:").count() + out.matches("The engine takes").count();
    assert!(said > 0, "seed 8 has a taken double: {out}");
    assert_eq!((doubles, takes), (said, said), "{out}");
    // And gammon converts it to .mat with the same games.
    let mat = dir.join("match.mat");
    let c = gammon_testkit::run(
        env!("CARGO_BIN_EXE_gammon"),
        &["convert", path.to_str().unwrap(), mat.to_str().unwrap()],
        b"",
    );
    assert!(c.success(), "{}", c.stderr);
    assert_eq!(read_match_file(&mat).unwrap().games.len(), m.games.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_refuses_what_it_cannot_write_before_the_game() {
    let out = play(&["--save", "/tmp/x.xg"], b"");
    assert!(!out.success() && out.stderr.contains("cannot write them"), "{}", out.stderr);
    assert!(out.stdout.is_empty(), "refused before the game: {}", out.stdout);
    let out = play(&["--save", "/tmp/x.mat", "--position", "start"], b"");
    assert!(!out.success() && out.stderr.contains("--position"), "{}", out.stderr);
    let out = play(&["--save", "/tmp/x.mat", "--murphy", "2"], b"");
    assert!(!out.success() && out.stderr.contains("--murphy"), "{}", out.stderr);
    // A path that cannot be written: a missing folder, a folder.
    let out = play(&["--save", "/nonexistent-dir/x.mat"], b"");
    assert!(!out.success() && out.stderr.contains("/nonexistent-dir"), "{}", out.stderr);
    assert!(out.stdout.is_empty(), "refused before the game: {}", out.stdout);
    let dir = save_dir("folder");
    let folder = dir.join("a.mat");
    std::fs::create_dir(&folder).unwrap();
    let out = play(&["--save", folder.to_str().unwrap()], b"");
    assert!(!out.success() && out.stdout.is_empty(), "{}", out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}
