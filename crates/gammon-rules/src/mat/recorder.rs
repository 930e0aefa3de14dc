//! A match record built while the games are played (`gammon play --save`):
//! each action is kept in the written form a file reader builds and
//! replayed through the same rules at the end, so a played match becomes
//! the [`MatchRecord`] a reader gives for the file the writers write.

use super::raw::{MatchStart, RawAction, RawGame, RawKind, RawMatch, Steps};
use super::replay::replay_until_error;
use super::{MatError, MatchRecord};
use crate::{Dice, MatchState, Move, Seat};
use std::collections::BTreeMap;

/// The actions of the games of a match, as they are played.
///
/// ```
/// use gammon_rules::{parse_move, Dice, MatchRecorder, MatchRules, MatchState, Position, Seat};
/// let state = MatchState::new(MatchRules::new_match(3));
/// let mut rec = MatchRecorder::new(["Ann".into(), "Bob".into()], &state);
/// rec.new_game(state.score());
/// let dice = Dice::new(3, 1).unwrap();
/// let (mv, _) = parse_move(&Position::STARTING, dice, "8/5 6/5").unwrap();
/// rec.roll(Seat::One, dice, &mv);
/// rec.win(Seat::One, 1); // Ann resigns a single game
/// let (record, error) = rec.finish().unwrap();
/// assert!(error.is_none());
/// assert_eq!(record.games[0].result, Some((Seat::One, 1)));
/// ```
#[derive(Debug)]
pub struct MatchRecorder {
    players: [String; 2],
    state: MatchState,
    games: Vec<GameLog>,
}

/// One game's actions: (seat, what).
#[derive(Debug)]
struct GameLog {
    score: [u32; 2],
    actions: Vec<(Seat, Action)>,
}

#[derive(Debug, Clone, Copy)]
enum Action {
    Roll(Dice, Move),
    Double(u32),
    Take,
    Beaver(u32),
    Drop,
    Win(u32),
}

impl MatchRecorder {
    /// A match between `players` (seat Zero, seat One) starting at `state`
    /// (its rules, its score; the Crawford rule applies in a match).
    pub fn new(players: [String; 2], state: &MatchState) -> Self {
        MatchRecorder { players, state: *state, games: Vec::new() }
    }

    /// A game starts at `score` (the match score before it).
    pub fn new_game(&mut self, score: [u32; 2]) {
        self.games.push(GameLog { score, actions: Vec::new() });
    }

    fn push(&mut self, seat: Seat, action: Action) {
        if self.games.is_empty() {
            self.new_game(self.state.score());
        }
        if let Some(g) = self.games.last_mut() {
            g.actions.push((seat, action));
        }
    }

    /// `seat` rolled `dice` and played `mv` (empty: no legal move).
    pub fn roll(&mut self, seat: Seat, dice: Dice, mv: &Move) {
        self.push(seat, Action::Roll(dice, *mv));
    }

    /// `seat` doubled to `value`.
    pub fn double(&mut self, seat: Seat, value: u32) {
        self.push(seat, Action::Double(value));
    }

    /// `seat` took the double.
    pub fn take(&mut self, seat: Seat) {
        self.push(seat, Action::Take);
    }

    /// `seat` beavered, the cube now at `value`.
    pub fn beaver(&mut self, seat: Seat, value: u32) {
        self.push(seat, Action::Beaver(value));
    }

    /// `seat` passed the double.
    pub fn drop(&mut self, seat: Seat) {
        self.push(seat, Action::Drop);
    }

    /// `seat` won the game for `points`: played out, a passed double, or
    /// (before the game is over) the opponent's accepted resignation.
    pub fn win(&mut self, seat: Seat, points: u32) {
        self.push(seat, Action::Win(points));
    }

    /// The games replayed through the rules: the record of the games up to
    /// the first that does not replay, and that game's error (`None` when
    /// all replay).
    ///
    /// # Errors
    /// A starting score that cannot be.
    pub fn finish(self) -> Result<(MatchRecord, Option<MatError>), MatError> {
        let rules = *self.state.rules();
        let score = self.state.score();
        let start = (rules.length > 0 && score != [0, 0])
            .then(|| MatchStart { score, post_crawford: self.state.is_post_crawford() });
        let mut line = 0usize;
        let games = self
            .games
            .into_iter()
            .zip(1u32..)
            .map(|(g, number)| {
                line += 1;
                let game_line = line;
                let actions = g
                    .actions
                    .into_iter()
                    .map(|(seat, action)| {
                        line += 1;
                        let kind = match action {
                            Action::Roll(dice, mv) => {
                                let steps: Vec<(u8, u8)> = mv.steps().iter().map(|s| (s.from, s.to)).collect();
                                RawKind::Steps {
                                    dice: (dice.high(), dice.low()),
                                    steps: Steps::new(&steps).unwrap_or_default(),
                                }
                            }
                            Action::Double(v) => RawKind::Double(v),
                            Action::Take => RawKind::Take,
                            Action::Beaver(v) => RawKind::Beaver(Some(v)),
                            Action::Drop => RawKind::Drop,
                            Action::Win(p) => RawKind::Win(p, false),
                        };
                        RawAction { line, move_number: None, column: seat.index(), kind }
                    })
                    .collect();
                RawGame { number, line: game_line, score: g.score, crawford_game: None, setup: None, actions }
            })
            .collect();
        let raw = RawMatch { headers: BTreeMap::new(), rules, crawford: true, start, players: self.players, games };
        replay_until_error(raw)
    }
}
