//! gnubg's Match IDs of the oracle's cube settings.
//!
//! This replaces the unit test `oracle_match_ids` in `src/match_id.rs`,
//! which skips silently when the oracle folder is missing (and ignores
//! `GAMMON_ORACLE`); here a missing folder fails.
#![allow(clippy::unwrap_used)]

use gammon_rules::{CubeOwner, DiceState, GameContext, MatchId, Seat};
use gammon_testkit::{read_oracle, CubeMatch, CubeMoney};

/// Parses `text`, checks what every oracle Match ID shares (player 0 on
/// roll, centred cube of 1, dice to roll, written back the same) and
/// returns its context.
fn context_of(text: &str) -> GameContext {
    let id = MatchId::parse(text).unwrap();
    assert_eq!(id.to_string(), text);
    assert_eq!(id.on_roll, Seat::Zero, "{text}");
    let ctx = id.to_context().unwrap();
    assert_eq!((ctx.cube_value, ctx.cube_owner, ctx.dice), (1, CubeOwner::Centered, DiceState::ToRoll));
    assert_eq!(MatchId::from_context(&ctx, Seat::Zero).unwrap(), id);
    ctx
}

#[test]
fn match_ids_of_the_match_decisions() {
    let records: Vec<CubeMatch> = read_oracle("cube_match.jsonl");
    assert!(!records.is_empty(), "cube_match.jsonl is empty");
    for r in &records {
        let ctx = context_of(&r.match_id);
        assert_eq!([ctx.score.0, ctx.score.1], r.score, "{}", r.match_id);
        assert_eq!(ctx.match_length, r.match_length);
        assert_eq!(ctx.crawford, r.crawford);
    }
}

#[test]
fn match_ids_of_the_money_decisions() {
    let records: Vec<CubeMoney> = read_oracle("cube_money.jsonl");
    assert!(!records.is_empty(), "cube_money.jsonl is empty");
    for r in &records {
        assert_eq!(context_of(&r.match_id), GameContext::money());
    }
}
