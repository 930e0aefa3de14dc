//! One game loop for every game gammon plays: duels, self-play, training
//! data, rollout trials, a game against a human.
//!
//! [`play_game`] owns the flow of a game: the opening roll, a roll per turn,
//! passes when no checker can move, the cube offers and answers (take,
//! pass, beaver, raccoon), the end of the game and the points it is worth,
//! resignations offered by the side on roll and their answers, and one
//! limit on its length ([`MAX_TURNS`]). Who decides and who watches
//! is a [`Table`]: two [`Player`]s and a [`CubePolicy`] make one
//! ([`Seats`]), and callers with more to do (learning after every move,
//! stopping a rollout trial early) implement the trait themselves.
//!
//! One file because the loop and the [`Table`] it calls are one contract,
//! read together: about 480 lines, the rest tests. The state between two
//! decisions, and what the rules allow there, is [`Game`]'s; this loop asks
//! the table for what it needs, in a fixed order.

#[cfg(test)]
use crate::context::DiceState;
use crate::context::GameContext;
use crate::dice::Dice;
use crate::dice_source::DiceSource;
use crate::game_result::GameResult;
use crate::game_state::{Action, Game, Need};
use crate::match_play::{BeaverAnswer, Cube, CubeAnswer, MatchState, RaccoonAnswer};
use crate::movegen::MoveList;
use crate::position::Position;
use crate::seat::Seat;
use thiserror::Error;

/// The most half-moves of one game. Only a broken (or untrained) player
/// gets near it; a game stopped there ends as [`GameEnd::Stopped`].
pub const MAX_TURNS: u32 = 10_000;

/// A decider gave up the game (a human quit, the input ended, a callback
/// failed): the game ends unscored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("the game was abandoned")]
pub struct Abandoned;

/// The answer of a decider, or [`Abandoned`].
pub type Decision<T> = Result<T, Abandoned>;

/// What the table wants before a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Go on: the cube, then the roll.
    Play,
    /// Stop the game here (a truncated rollout trial, an exact database
    /// value): it ends as [`GameEnd::Stopped`].
    Stop,
}

/// One player's chequer play.
pub trait Player {
    /// The index in `moves` (two or more legal results of `dice` in `pos`,
    /// the side on roll to move) of the move to play. An index out of range
    /// plays the first move.
    fn choose_move(&mut self, pos: &Position, dice: Dice, moves: &MoveList) -> Decision<usize>;
}

/// The cube decisions of both players. Each call gets the position seen by
/// the side on roll and his [`GameContext`], whose `dice` field says what
/// is pending (XGID's `00`, `D`, `B`, `R`), as the cube analysis takes it.
pub trait CubePolicy {
    /// Before `seat`'s roll, when he may double: does he?
    fn offers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<bool>;
    /// `seat` (the opponent of the side on roll) answers the double.
    /// A `Beaver` where beavers are not allowed counts as a take.
    fn answers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<CubeAnswer>;
    /// `seat` (the doubler, on roll) answers a beaver. A `Raccoon` where it
    /// is not allowed counts as accepting.
    fn answers_beaver(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<BeaverAnswer> {
        let _ = (seat, pos, ctx);
        Ok(BeaverAnswer::Accept)
    }
    /// `seat` (the beaverer) answers a raccoon.
    fn answers_raccoon(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<RaccoonAnswer> {
        let _ = (seat, pos, ctx);
        Ok(RaccoonAnswer::Accept)
    }
}

/// Nobody ever doubles: cubeless play.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoCube;

impl CubePolicy for NoCube {
    fn offers_double(&mut self, _: Seat, _: &Position, _: &GameContext) -> Decision<bool> {
        Ok(false)
    }
    fn answers_double(&mut self, _: Seat, _: &Position, _: &GameContext) -> Decision<CubeAnswer> {
        Ok(CubeAnswer::Take)
    }
}

/// Everything that decides and watches in one game. Only the move choice
/// is required; the other methods default to "roll the dice source", "go
/// on", "never double" and "watch nothing".
pub trait Table {
    /// `seat` chooses among the legal moves (one or more; see [`Player`]).
    /// [`Seats`] plays a forced move without asking its player.
    fn choose_move(&mut self, seat: Seat, pos: &Position, dice: Dice, moves: &MoveList) -> Decision<usize>;

    /// Before `seat`'s turn (`turn` half-moves played so far, the position
    /// seen by him, before the cube and the roll): go on or stop.
    fn before_roll(&mut self, seat: Seat, pos: &Position, turn: u32) -> Decision<Flow> {
        let _ = (seat, pos, turn);
        Ok(Flow::Play)
    }

    /// The roll of `seat` for a turn after the opening one. A table with
    /// typed dice overrides it.
    fn roll(&mut self, seat: Seat, dice: &mut dyn DiceSource) -> Decision<Dice> {
        let _ = seat;
        Ok(dice.roll())
    }

    /// See [`CubePolicy::offers_double`]. Asked only when the rules let
    /// `seat` double.
    fn offers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<bool> {
        let _ = (seat, pos, ctx);
        Ok(false)
    }
    /// See [`CubePolicy::answers_double`].
    fn answers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<CubeAnswer> {
        let _ = (seat, pos, ctx);
        Ok(CubeAnswer::Take)
    }
    /// See [`CubePolicy::answers_beaver`].
    fn answers_beaver(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<BeaverAnswer> {
        let _ = (seat, pos, ctx);
        Ok(BeaverAnswer::Accept)
    }
    /// See [`CubePolicy::answers_raccoon`].
    fn answers_raccoon(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<RaccoonAnswer> {
        let _ = (seat, pos, ctx);
        Ok(RaccoonAnswer::Accept)
    }

    /// `seat`, on roll, offers to resign: the result he gives up (single,
    /// gammon, backgammon), or `None` to play on. Asked before the cube
    /// offer (`ctx.dice` is `ToRoll`) and after the roll, before the move
    /// (`Rolled`), again after each declined offer until it returns `None`.
    /// Once an offer is declined, only a higher one counts in the same turn
    /// (gnubg's rule): a lower or equal offer is taken as `None`.
    fn offers_resignation(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<Option<GameResult>> {
        let _ = (seat, pos, ctx);
        Ok(None)
    }
    /// `seat` answers the resignation of `offered` by his opponent (on roll
    /// in `pos` with `ctx`): accept (the game ends, he wins `offered`) or
    /// decline (play goes on).
    fn accepts_resignation(
        &mut self,
        seat: Seat,
        pos: &Position,
        ctx: &GameContext,
        offered: GameResult,
    ) -> Decision<bool> {
        let _ = (seat, pos, ctx, offered);
        Ok(false)
    }

    /// The cube changed hands: a double was taken (or beavered,
    /// raccooned); `cube` is the cube now.
    fn cube_changed(&mut self, cube: &Cube) -> Decision<()> {
        let _ = cube;
        Ok(())
    }

    /// After a turn (see [`Turn`]).
    fn after_turn(&mut self, turn: &Turn<'_>) -> Decision<()> {
        let _ = turn;
        Ok(())
    }
}

/// One turn played, for [`Table::after_turn`].
#[derive(Debug, Clone, Copy)]
pub struct Turn<'a> {
    /// Who moved.
    pub seat: Seat,
    /// The position before the roll, seen by him.
    pub before: Position,
    /// The roll.
    pub dice: Dice,
    /// The legal moves of the roll (empty: the turn passed).
    pub moves: &'a MoveList,
    /// The index in `moves` of the move played (`None`: the turn passed).
    pub played: Option<usize>,
    /// The position after the move, seen by the opponent (now on roll);
    /// `before.switched()` when the turn passed.
    pub after: Position,
}

/// Two players and a cube policy: the usual [`Table`].
#[allow(missing_debug_implementations)]
pub struct Seats<'a> {
    /// The players of seat Zero and seat One.
    pub players: [&'a mut dyn Player; 2],
    /// The cube decisions of both.
    pub cube: &'a mut dyn CubePolicy,
}

impl Table for Seats<'_> {
    fn choose_move(&mut self, seat: Seat, pos: &Position, dice: Dice, moves: &MoveList) -> Decision<usize> {
        if moves.len() == 1 {
            return Ok(0);
        }
        self.players[seat.index()].choose_move(pos, dice, moves)
    }
    fn offers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<bool> {
        self.cube.offers_double(seat, pos, ctx)
    }
    fn answers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<CubeAnswer> {
        self.cube.answers_double(seat, pos, ctx)
    }
    fn answers_beaver(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<BeaverAnswer> {
        self.cube.answers_beaver(seat, pos, ctx)
    }
    fn answers_raccoon(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<RaccoonAnswer> {
        self.cube.answers_raccoon(seat, pos, ctx)
    }
}

/// How a game begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameStart {
    /// The position, seen by `on_roll`.
    pub position: Position,
    /// The seat to move first.
    pub on_roll: Seat,
    /// The first roll.
    pub first_roll: FirstRoll,
    /// The cube at the start (after any automatic doubles).
    pub cube: Cube,
}

/// The first roll of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstRoll {
    /// The opening roll from the dice source ([`DiceSource::opening`]): two
    /// different dice, no cube action before it.
    Opening,
    /// Dice already rolled (an opening roll decided by the caller).
    Given(Dice),
    /// A turn like any other: the cube, then [`Table::roll`] (a game started
    /// from a position in the middle of a game).
    Turn,
}

impl GameStart {
    /// A game from the starting position with an opening roll, `first` to
    /// move, the cube at 1 centred.
    pub const fn opening(first: Seat) -> Self {
        GameStart { position: Position::STARTING, on_roll: first, first_roll: FirstRoll::Opening, cube: Cube::START }
    }

    /// A game from `position` (seen by `on_roll`, before his roll).
    pub const fn from_position(position: Position, on_roll: Seat) -> Self {
        GameStart { position, on_roll, first_roll: FirstRoll::Turn, cube: Cube::START }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    /// Played to the end: `winner` bore off all his checkers.
    Finished {
        /// Who won.
        winner: Seat,
        /// Single, gammon or backgammon.
        result: GameResult,
        /// Points won: the result times the cube (or as the Jacoby rule has it).
        points: u32,
    },
    /// A double (or beaver, or raccoon) was passed.
    Passed {
        /// Who won: the side that did not pass.
        winner: Seat,
        /// Points won.
        points: u32,
    },
    /// The side on roll resigned and his opponent accepted.
    Resigned {
        /// Who won: the side that accepted.
        winner: Seat,
        /// What was resigned: single, gammon or backgammon.
        result: GameResult,
        /// Points won: the result times the cube, or the cube alone under
        /// the Jacoby rule ([`MatchState::points`]), as a game played out.
        points: u32,
    },
    /// Stopped before the end, by [`Flow::Stop`] or after [`MAX_TURNS`].
    Stopped {
        /// The seat on roll in the final position.
        on_roll: Seat,
    },
}

impl GameEnd {
    /// The winner and his points, unless the game was stopped.
    pub const fn winner(&self) -> Option<(Seat, u32)> {
        match *self {
            GameEnd::Finished { winner, points, .. }
            | GameEnd::Passed { winner, points }
            | GameEnd::Resigned { winner, points, .. } => Some((winner, points)),
            GameEnd::Stopped { .. } => None,
        }
    }

    /// Points won by `seat` (negative: lost; 0 for a stopped game).
    pub fn points_for(&self, seat: Seat) -> i64 {
        match self.winner() {
            Some((w, p)) if w == seat => i64::from(p),
            Some((_, p)) => -i64::from(p),
            None => 0,
        }
    }
}

/// What [`play_game`] returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRecord {
    /// How it ended.
    pub end: GameEnd,
    /// Half-moves played.
    pub turns: u32,
    /// The last position, seen by the seat on roll there (for a finished
    /// game: the loser, or the winner if he is on roll).
    pub position: Position,
    /// The cube at the end.
    pub cube: Cube,
}

/// Plays one game under `state`'s rules and score (for the cube and the
/// points; the score itself is not changed: record the result with
/// [`MatchState::record`]).
///
/// Each turn: [`Table::before_roll`]; then, if the rules let the side on
/// roll double, the cube offer and its answers; then the roll, the move
/// ([`Table::choose_move`]; none: the turn passes) and
/// [`Table::after_turn`]. Before the cube offer and again after the roll the
/// side on roll may offer to resign ([`Table::offers_resignation`]); an
/// accepted offer ends the game as [`GameEnd::Resigned`]. A finished (or
/// resigned) game scores its result times the cube, as
/// [`MatchState::points`] has it.
///
/// # Errors
/// [`Abandoned`] if a decider gave up.
pub fn play_game(
    table: &mut dyn Table,
    dice: &mut dyn DiceSource,
    start: &GameStart,
    state: &MatchState,
) -> Decision<GameRecord> {
    let mut game = Game::new(*state, start.position, start.on_roll, start.cube, None);
    let mut list = MoveList::new();
    loop {
        if let Some(end) = game.end() {
            return Ok(record(&game, end));
        }
        let (seat, pos, turns) = (game.on_roll(), *game.position(), game.turns());
        if table.before_roll(seat, &pos, turns)? == Flow::Stop || turns >= MAX_TURNS {
            game.stop();
            return Ok(record(&game, GameEnd::Stopped { on_roll: seat }));
        }
        let roll = match (turns, start.first_roll) {
            (0, FirstRoll::Opening) => dice.opening(),
            (0, FirstRoll::Given(d)) => d,
            _ => {
                resignation(table, &mut game)?;
                if let Need::RollOrDouble { may_double: true, .. } = game.next() {
                    cube_exchange(table, &mut game)?;
                }
                if let Some(end) = game.end() {
                    return Ok(record(&game, end));
                }
                table.roll(seat, dice)?
            }
        };
        taken(&mut game, Action::Roll(roll));
        resignation(table, &mut game)?;
        if let Some(end) = game.end() {
            return Ok(record(&game, end));
        }
        list.generate(&pos, roll);
        let (after, played) = match list.len() {
            0 => (pos.switched(), None),
            n => {
                let i = table.choose_move(seat, &pos, roll, &list)?;
                let i = if i < n { i } else { 0 };
                (list.positions()[i], Some(i))
            }
        };
        table.after_turn(&Turn { seat, before: pos, dice: roll, moves: &list, played, after })?;
        // One of the list's results (or the pass): no second generation.
        game.moved(after);
    }
}

/// The record of a game that ended with `end`.
fn record(game: &Game, end: GameEnd) -> GameRecord {
    GameRecord { end, turns: game.turns(), position: *game.position(), cube: *game.cube() }
}

/// Applies an action the loop has checked against [`Game::next`]: the
/// state machine takes it.
fn taken(game: &mut Game, action: Action) {
    let applied = game.apply(action);
    debug_assert!(applied.is_ok(), "{action:?}: {applied:?}");
}

/// The resignations the side on roll offers, and their answers: the game
/// ends if one is accepted. An offer not above one declined this turn
/// (the state machine refuses it) ends the asking, so a table cannot offer
/// for ever.
fn resignation(table: &mut dyn Table, game: &mut Game) -> Decision<()> {
    let (seat, pos, ctx) = (game.on_roll(), *game.position(), game.context());
    while let Some(offered) = table.offers_resignation(seat, &pos, &ctx)? {
        if game.apply(Action::Resign(offered)).is_err() {
            break;
        }
        let accepted = table.accepts_resignation(seat.other(), &pos, &ctx, offered)?;
        taken(game, if accepted { Action::AcceptResignation } else { Action::RejectResignation });
        if accepted {
            break;
        }
    }
    Ok(())
}

/// The offer of the side on roll (who may double) and the answers to it.
/// A beaver or raccoon where the rules have none counts as a take.
fn cube_exchange(table: &mut dyn Table, game: &mut Game) -> Decision<()> {
    let (doubler, pos) = (game.on_roll(), *game.position());
    let taker = doubler.other();
    if !table.offers_double(doubler, &pos, &game.context())? {
        return Ok(());
    }
    taken(game, Action::Double);
    let may_beaver = matches!(game.next(), Need::AnswerDouble { may_beaver: true, .. });
    match table.answers_double(taker, &pos, &game.context())? {
        CubeAnswer::Pass => {
            taken(game, Action::Pass);
            return Ok(());
        }
        CubeAnswer::Beaver if may_beaver => taken(game, Action::Beaver),
        CubeAnswer::Take | CubeAnswer::Beaver => return turned(table, game),
    }
    let may_raccoon = matches!(game.next(), Need::AnswerBeaver { may_raccoon: true, .. });
    match table.answers_beaver(doubler, &pos, &game.context())? {
        BeaverAnswer::Pass => {
            taken(game, Action::Pass);
            return Ok(());
        }
        BeaverAnswer::Raccoon if may_raccoon => taken(game, Action::Raccoon),
        BeaverAnswer::Accept | BeaverAnswer::Raccoon => return turned(table, game),
    }
    match table.answers_raccoon(taker, &pos, &game.context())? {
        RaccoonAnswer::Pass => {
            taken(game, Action::Pass);
            Ok(())
        }
        RaccoonAnswer::Accept => turned(table, game),
    }
}

/// The pending double (beaver, raccoon) accepted: tells the table the cube
/// changed.
fn turned(table: &mut dyn Table, game: &mut Game) -> Decision<()> {
    taken(game, Action::Take);
    table.cube_changed(game.cube())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice_source::RandomDice;
    use crate::match_play::MatchRules;

    /// Plays the first legal move.
    struct First;
    impl Player for First {
        fn choose_move(&mut self, _: &Position, _: Dice, _: &MoveList) -> Decision<usize> {
            Ok(0)
        }
    }

    /// Plays the last legal move.
    struct Last;
    impl Player for Last {
        fn choose_move(&mut self, _: &Position, _: Dice, moves: &MoveList) -> Decision<usize> {
            Ok(moves.len() - 1)
        }
    }

    fn cubeless(seed: u64) -> GameRecord {
        let (mut a, mut b) = (First, Last);
        let mut seats = Seats { players: [&mut a, &mut b], cube: &mut NoCube };
        let state = MatchState::new(MatchRules::cubeless());
        play_game(&mut seats, &mut RandomDice::new(seed, 0), &GameStart::opening(Seat::Zero), &state).unwrap()
    }

    #[test]
    fn games_end_with_a_winner_and_are_reproducible() {
        for seed in 0..20 {
            let r = cubeless(seed);
            assert_eq!(r, cubeless(seed));
            let GameEnd::Finished { winner, result, points } = r.end else { panic!("{r:?}") };
            assert_eq!(points, result.points());
            // The final position is seen by the seat on roll after the last move.
            let on_roll = if r.turns.is_multiple_of(2) { Seat::Zero } else { Seat::One };
            let (on_roll_won, _) = r.position.game_result().unwrap();
            assert_eq!(winner == on_roll, on_roll_won);
        }
    }

    /// Doubles at every chance; answers with a fixed script.
    struct Script {
        answers: Vec<CubeAnswer>,
        beaver: BeaverAnswer,
        offers: u32,
    }
    impl CubePolicy for Script {
        fn offers_double(&mut self, _: Seat, _: &Position, ctx: &GameContext) -> Decision<bool> {
            assert_eq!(ctx.dice, DiceState::ToRoll);
            self.offers += 1;
            Ok(true)
        }
        fn answers_double(&mut self, _: Seat, _: &Position, ctx: &GameContext) -> Decision<CubeAnswer> {
            assert_eq!(ctx.dice, DiceState::Doubled);
            Ok(if self.answers.is_empty() { CubeAnswer::Take } else { self.answers.remove(0) })
        }
        fn answers_beaver(&mut self, _: Seat, _: &Position, ctx: &GameContext) -> Decision<BeaverAnswer> {
            assert_eq!(ctx.dice, DiceState::Beavered);
            Ok(self.beaver)
        }
    }

    fn with_cube(rules: MatchRules, answers: Vec<CubeAnswer>, beaver: BeaverAnswer) -> (GameRecord, u32) {
        let (mut a, mut b) = (First, First);
        let mut policy = Script { answers, beaver, offers: 0 };
        let record = {
            let mut seats = Seats { players: [&mut a, &mut b], cube: &mut policy };
            let state = MatchState::new(rules);
            play_game(&mut seats, &mut RandomDice::new(3, 0), &GameStart::opening(Seat::Zero), &state).unwrap()
        };
        (record, policy.offers)
    }

    #[test]
    fn a_pass_ends_the_game_at_the_cube_before_the_double() {
        // Seat One doubles first (the opening roll has no cube action): Zero takes (cube 2, Zero's),
        // Zero redoubles at his next turn and One passes: Zero wins 2.
        let (r, offers) =
            with_cube(MatchRules::money(), vec![CubeAnswer::Take, CubeAnswer::Pass], BeaverAnswer::Accept);
        assert_eq!(offers, 2);
        assert_eq!(r.end, GameEnd::Passed { winner: Seat::Zero, points: 2 });
        assert_eq!(r.turns, 2);
    }

    #[test]
    fn beavers_and_their_answers() {
        let beaver = MatchRules { beaver: true, ..MatchRules::money() };
        // One doubles, Zero beavers, One passes the beaver: Zero wins twice the cube.
        let (r, _) = with_cube(beaver, vec![CubeAnswer::Beaver], BeaverAnswer::Pass);
        assert_eq!(r.end, GameEnd::Passed { winner: Seat::Zero, points: 2 });
        // Accepted: the cube is at 4, Zero's; then only Zero may double.
        let (r, _) = with_cube(beaver, vec![CubeAnswer::Beaver, CubeAnswer::Pass], BeaverAnswer::Accept);
        assert_eq!(r.end, GameEnd::Passed { winner: Seat::Zero, points: 4 });
        // Without the beaver rule a beaver is a take.
        let (r, _) = with_cube(MatchRules::money(), vec![CubeAnswer::Beaver, CubeAnswer::Pass], BeaverAnswer::Pass);
        assert_eq!(r.end, GameEnd::Passed { winner: Seat::Zero, points: 2 });
    }

    #[test]
    fn the_crawford_game_has_no_cube_action() {
        let mut state = MatchState::new(MatchRules::new_match(3));
        state.record(Seat::One, 2);
        assert!(state.is_crawford());
        let (mut a, mut b) = (First, First);
        let mut policy = Script { answers: vec![], beaver: BeaverAnswer::Accept, offers: 0 };
        let mut seats = Seats { players: [&mut a, &mut b], cube: &mut policy };
        let r = play_game(&mut seats, &mut RandomDice::new(3, 0), &GameStart::opening(Seat::Zero), &state).unwrap();
        assert!(matches!(r.end, GameEnd::Finished { .. }));
        assert_eq!(policy.offers, 0);
    }

    #[test]
    fn a_table_can_stop_the_game() {
        struct StopAt(u32);
        impl Table for StopAt {
            fn choose_move(&mut self, _: Seat, _: &Position, _: Dice, _: &MoveList) -> Decision<usize> {
                Ok(0)
            }
            fn before_roll(&mut self, _: Seat, _: &Position, turn: u32) -> Decision<Flow> {
                Ok(if turn >= self.0 { Flow::Stop } else { Flow::Play })
            }
        }
        let state = MatchState::new(MatchRules::cubeless());
        let r = play_game(&mut StopAt(5), &mut RandomDice::new(1, 1), &GameStart::opening(Seat::One), &state).unwrap();
        assert_eq!(r.turns, 5);
        assert_eq!(r.end, GameEnd::Stopped { on_roll: Seat::Zero });
        assert_eq!(r.end.points_for(Seat::Zero), 0);
    }

    #[test]
    fn a_finished_start_position_ends_at_once() {
        let over = Position::from_position_id("AAAAAAAA/38AAA").unwrap();
        let state = MatchState::new(MatchRules::cubeless());
        let (mut a, mut b) = (First, First);
        let mut seats = Seats { players: [&mut a, &mut b], cube: &mut NoCube };
        let r = play_game(&mut seats, &mut RandomDice::new(1, 1), &GameStart::from_position(over, Seat::One), &state)
            .unwrap();
        assert_eq!(r.turns, 0);
        assert_eq!(r.end.winner().map(|w| w.0), Some(Seat::Zero));
    }

    /// Seat Zero offers `offers` in turn at each chance; seat One accepts an
    /// offer of at least `accepts`.
    struct Resigns {
        offers: Vec<GameResult>,
        accepts: GameResult,
        asked: u32,
        answered: u32,
    }
    impl Table for Resigns {
        fn choose_move(&mut self, _: Seat, _: &Position, _: Dice, _: &MoveList) -> Decision<usize> {
            Ok(0)
        }
        fn offers_resignation(&mut self, seat: Seat, _: &Position, _: &GameContext) -> Decision<Option<GameResult>> {
            if seat != Seat::Zero {
                return Ok(None);
            }
            self.asked += 1;
            Ok(if self.offers.len() > 1 { Some(self.offers.remove(0)) } else { self.offers.first().copied() })
        }
        fn accepts_resignation(
            &mut self,
            seat: Seat,
            _: &Position,
            _: &GameContext,
            offered: GameResult,
        ) -> Decision<bool> {
            assert_eq!(seat, Seat::One);
            self.answered += 1;
            Ok(offered >= self.accepts)
        }
    }

    fn resigned(state: &MatchState, cube: Cube, offers: Vec<GameResult>, accepts: GameResult) -> (GameRecord, Resigns) {
        let mut table = Resigns { offers, accepts, asked: 0, answered: 0 };
        let start = GameStart { cube, ..GameStart::from_position(Position::STARTING, Seat::Zero) };
        let r = play_game(&mut table, &mut RandomDice::new(2, 0), &start, state).unwrap();
        (r, table)
    }

    #[test]
    fn an_accepted_resignation_scores_the_result_times_the_cube() {
        let money = MatchState::new(MatchRules::money());
        let (r, _) = resigned(&money, Cube::START, vec![GameResult::Gammon], GameResult::Single);
        assert_eq!(r.end, GameEnd::Resigned { winner: Seat::One, result: GameResult::Gammon, points: 2 });
        assert_eq!((r.turns, r.end.points_for(Seat::Zero)), (0, -2));
        let four = Cube { value: 4, owner: Some(Seat::Zero), automatic: 0 };
        let (r, _) = resigned(&money, four, vec![GameResult::Backgammon], GameResult::Single);
        assert_eq!(r.end.winner(), Some((Seat::One, 12)));
    }

    #[test]
    fn a_declined_resignation_allows_only_a_higher_offer_in_the_same_turn() {
        let money = MatchState::new(MatchRules::money());
        // Single declined, then gammon accepted, before the first roll.
        let (r, t) = resigned(&money, Cube::START, vec![GameResult::Single, GameResult::Gammon], GameResult::Gammon);
        assert_eq!(r.end, GameEnd::Resigned { winner: Seat::One, result: GameResult::Gammon, points: 2 });
        assert_eq!((r.turns, t.answered), (0, 2));
        // A table that offers a single for ever, always declined: one answer
        // per turn of seat Zero, and the game is played to its end.
        let (r, t) = resigned(&money, Cube::START, vec![GameResult::Single], GameResult::Gammon);
        assert!(matches!(r.end, GameEnd::Finished { .. }), "{r:?}");
        let zero_turns = r.turns.div_ceil(2);
        assert_eq!(t.answered, zero_turns);
        // Asked before the roll, again after the decline, and after the roll.
        assert_eq!(t.asked, 3 * zero_turns);
    }

    #[test]
    fn jacoby_counts_a_resigned_gammon_single_while_the_cube_is_centred() {
        let jacoby = MatchState::new(MatchRules { jacoby: true, ..MatchRules::money() });
        let (r, _) = resigned(&jacoby, Cube::START, vec![GameResult::Gammon], GameResult::Single);
        assert_eq!(r.end, GameEnd::Resigned { winner: Seat::One, result: GameResult::Gammon, points: 1 });
        let (r, _) = resigned(&jacoby, Cube::START, vec![GameResult::Backgammon], GameResult::Single);
        assert_eq!(r.end.winner(), Some((Seat::One, 1)));
        // A turned cube: gammons count again, times the cube.
        let (r, _) = resigned(&jacoby, Cube::START.taken(Seat::One), vec![GameResult::Gammon], GameResult::Single);
        assert_eq!(r.end.winner(), Some((Seat::One, 4)));
        // Jacoby is a money rule: a resigned gammon in a match is 2 points.
        let in_match = MatchState::new(MatchRules { jacoby: true, ..MatchRules::new_match(7) });
        let (r, _) = resigned(&in_match, Cube::START, vec![GameResult::Gammon], GameResult::Single);
        assert_eq!(r.end.winner(), Some((Seat::One, 2)));
    }

    #[test]
    fn a_resignation_in_a_match_scores_and_starts_the_crawford_game() {
        let rules = MatchRules::new_match(5);
        // Zero 0, One 2: One wins a resigned gammon, 0-4, and is one point
        // away: the next game is the Crawford game.
        let mut state = MatchState::at_score(rules, [0, 2], false).unwrap();
        let (r, _) = resigned(&state, Cube::START, vec![GameResult::Gammon], GameResult::Single);
        let (winner, points) = r.end.winner().unwrap();
        assert_eq!(state.record(winner, points), None);
        assert_eq!(state.score(), [0, 4]);
        assert!(state.is_crawford());
        // A single resigned in the Crawford game wins One the match.
        let (r, _) = resigned(&state, Cube::START, vec![GameResult::Single], GameResult::Single);
        let (winner, points) = r.end.winner().unwrap();
        assert_eq!(state.record(winner, points), Some(Seat::One));
        // Post-Crawford, the trailer's cube at 2: a resigned single is 2
        // points, and the game after it is still post-Crawford.
        let mut post = MatchState::at_score(rules, [1, 4], true).unwrap();
        let (r, _) = resigned(&post, Cube::START.taken(Seat::Zero), vec![GameResult::Single], GameResult::Single);
        assert_eq!(r.end.winner(), Some((Seat::One, 2)));
        let mut trailer_wins = post;
        assert_eq!(trailer_wins.record(Seat::Zero, 2), None);
        assert!(trailer_wins.is_post_crawford() && !trailer_wins.is_crawford());
        assert_eq!(post.record(Seat::One, 2), Some(Seat::One));
    }
}
