//! Property tests: XGID, Match ID and FIBS boards round-trip for random
//! positions and game states, and their parsers never panic.
#![allow(clippy::unwrap_used)]

use gammon_rules::{CubeOwner, Dice, DiceState, FibsBoard, GameContext, MatchId, Position, Seat, SideBoard, Xgid};
use proptest::prelude::*;

fn position_strategy() -> impl Strategy<Value = Position> {
    let slots = || prop::collection::vec(prop_oneof![4 => 1u8..=24, 1 => Just(0u8), 1 => Just(25u8)], 15);
    (slots(), slots()).prop_map(|(mine, theirs)| {
        let mut me: SideBoard = [0; 25];
        let mut him: SideBoard = [0; 25];
        for s in mine.into_iter().filter(|&s| s > 0) {
            me[usize::from(s) - 1] += 1;
        }
        for s in theirs.into_iter().filter(|&s| s > 0) {
            let taken = (1..=24).contains(&s) && me[usize::from(25 - s) - 1] > 0;
            him[usize::from(if taken { 25 } else { s }) - 1] += 1;
        }
        if me.iter().chain(&him).all(|&n| n == 0) {
            me[0] = 1;
        }
        Position::from_boards(&me, &him).unwrap()
    })
}

fn context_strategy() -> impl Strategy<Value = GameContext> {
    let dice = prop_oneof![
        3 => Just(DiceState::ToRoll),
        4 => (1u8..=6, 1u8..=6).prop_map(|(a, b)| DiceState::Rolled(Dice::new(a, b).unwrap())),
        1 => Just(DiceState::Doubled),
        1 => Just(DiceState::Beavered),
        1 => Just(DiceState::Raccooned),
    ];
    let owner = prop_oneof![Just(CubeOwner::Centered), Just(CubeOwner::OnRoll), Just(CubeOwner::Opponent)];
    (0u32..=25, 0u32..25, 0u32..25, 0u32..=6, owner, dice, any::<bool>(), any::<bool>(), any::<bool>())
        .prop_map(|(length, a, b, cube_log2, owner, dice, crawford, jacoby, beaver)| {
            let mut ctx = if length == 0 { GameContext::money() } else { GameContext::new_match(length) };
            ctx.cube_value = 1 << cube_log2;
            ctx.cube_owner = if cube_log2 == 0 { CubeOwner::Centered } else { owner };
            ctx.dice = dice;
            if length > 0 {
                ctx.score = (a % length, b % length);
                let one_away = ctx.score.0 + 1 == length || ctx.score.1 + 1 == length;
                ctx.crawford = crawford && one_away;
                if ctx.crawford {
                    ctx.cube_value = 1;
                    ctx.cube_owner = CubeOwner::Centered;
                }
            } else {
                ctx.score = (a, b);
                ctx.jacoby = jacoby;
                ctx.beaver = beaver;
            }
            ctx
        })
        .prop_filter("a state the rules allow", |ctx| ctx.validate().is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn xgid_round_trips(position in position_strategy(), context in context_strategy()) {
        let x = Xgid { position, context };
        let text = x.to_string();
        prop_assert_eq!(Xgid::parse(&text), Ok(x), "{}", text);
    }

    #[test]
    fn match_id_round_trips(context in context_strategy(), seat in prop_oneof![Just(Seat::Zero), Just(Seat::One)]) {
        // A Match ID cannot hold beavers or raccoons, nor money scores above 15 bits.
        if let Ok(id) = MatchId::from_context(&context, seat) {
            let text = id.to_string();
            prop_assert_eq!(text.len(), 12);
            let back = MatchId::parse(&text).unwrap();
            prop_assert_eq!(back, id);
            // The Match ID has no bit for beavers nor for a cube limit.
            let mut expected = context;
            expected.beaver = false;
            expected.max_cube = GameContext::DEFAULT_MAX_CUBE;
            prop_assert_eq!(back.to_context(), Ok(expected));
        } else {
            prop_assert!(matches!(context.dice, DiceState::Beavered | DiceState::Raccooned) || context.score.0 >= 1 << 15 || context.score.1 >= 1 << 15);
        }
    }

    #[test]
    fn fibs_round_trips(position in position_strategy(), context in context_strategy()) {
        let board = FibsBoard {
            player_name: "you".into(),
            opponent_name: "them".into(),
            you_on_roll: true,
            position,
            context,
        };
        if let Ok(line) = board.to_line() {
            let back = FibsBoard::parse(&line);
            prop_assert!(back.is_ok(), "{}: {:?}", line, back);
        }
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,80}") {
        let _ = Xgid::parse(&text);
        let _ = MatchId::parse(&text);
        let _ = FibsBoard::parse(&text);
        let _ = Position::from_position_id(&text);
    }

    #[test]
    fn xgid_parser_survives_mutations(i in 0usize..60, c in any::<char>()) {
        let base = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:D:2:3:0:7:10";
        let mut chars: Vec<char> = base.chars().collect();
        let i = i % chars.len();
        chars[i] = c;
        let text: String = chars.into_iter().collect();
        if let Ok(x) = Xgid::parse(&text) {
            prop_assert_eq!(Xgid::parse(&x.to_string()), Ok(x));
        }
    }
}
