//! Kinds of game, from the board alone: the plans a backgammon player
//! names when he looks at a position (back game, blitz, prime, holding game,
//! race), so that a net's error can be told apart by the kind of position it
//! misjudges.
//!
//! Each kind is a property of the position, not of the side on roll: the
//! tests below look at both sides (`GameKind::of(p)` equals
//! `GameKind::of(&p.switched())`). A position gets **one** kind, the first
//! of this order that fits:
//!
//! 1. **race**: no contact left (no checker of one side behind a checker of
//!    the other: a race, a bearoff, or a finished game).
//! 2. **back game**: a side holds two or more points in its opponent's home
//!    board while at least [`BACK_GAME_DEFICIT`] pips behind in the race.
//! 3. **blitz**: a side attacks a checker on the bar that has no anchor to
//!    come in to (no point held in the attacker's home board), with a strong
//!    board: at least [`BLITZ_HOME_POINTS`] home points closed, and closed
//!    points plus checkers in trouble (on the bar or loose in that board)
//!    at least [`BLITZ_PRESSURE`] — a 4-point board against one checker, a
//!    3-point board against two.
//! 4. **prime**: a side holds [`PRIME_LENGTH`] or more consecutive points
//!    with at least one of its opponent's checkers behind them (on the bar
//!    or farther from home than the prime).
//! 5. **holding**: a side behind in the race holds its opponent's 4-, 5-,
//!    6- or bar point (an advanced anchor), with opposing checkers still to
//!    come home past it.
//! 6. **other**: the rest of the contact positions (opening and middle game
//!    play without one of these plans: mutual development, scrambles,
//!    one-point anchors while ahead...).
//!
//! The order puts the plan that decides the game first: a back game that
//! hits a late shot becomes, on the board, a blitz against the hit checker,
//! and a back game or a blitz usually holds a prime too, but their
//! gammons and backgammons (what a net gets most wrong there) are those of
//! the back game and the blitz. The thresholds are the usual book ones
//! (Magriel's back game: "two or more points in the opponent's home board,
//! well behind in the race"); where a book leaves a number open ("well
//! behind") it was set so that the positions Open Sage's back-game benchmark
//! chose as back games mostly count as such (about 80% of the yardstick's
//! back-game files at 30 pips, the rest mostly two-anchor holding games,
//! against about 1% of its ordinary positions, `pr.tsv`).

use gammon_rules::{Position, SideBoard};
use std::fmt;

/// Pips behind in the race that make two held points in the opponent's
/// board a back game (rather than a holding game with two anchors): about a
/// fifth of a middle-game pip count, more than the race can give back.
pub const BACK_GAME_DEFICIT: u32 = 30;
/// The fewest points closed in the attacker's home board for a blitz.
pub const BLITZ_HOME_POINTS: usize = 3;
/// The fewest closed home points plus defending checkers in trouble (on the
/// bar or alone in the attacker's home board) for a blitz.
pub const BLITZ_PRESSURE: usize = 5;
/// Consecutive held points that make a prime.
pub const PRIME_LENGTH: usize = 4;

/// The kind of game of a position (see the [module documentation](self)
/// for the definitions and the order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Two or more points held in the opponent's home board, far behind in
    /// the race.
    BackGame,
    /// A checker on the bar against a strong board, without an anchor.
    Blitz,
    /// Four or more consecutive points with an opposing checker behind them.
    Prime,
    /// An advanced anchor held by the side behind in the race.
    Holding,
    /// No contact.
    Race,
    /// Contact without one of the plans above.
    Other,
}

impl GameKind {
    /// Every kind, in the order of the classification (and of the reports).
    pub const ALL: [GameKind; 6] =
        [GameKind::Race, GameKind::BackGame, GameKind::Blitz, GameKind::Prime, GameKind::Holding, GameKind::Other];

    /// The kind of `pos` (either side's plan; see the module documentation).
    pub fn of(pos: &Position) -> GameKind {
        if !pos.has_contact() {
            return GameKind::Race;
        }
        let sides = [Side::of(pos), Side::of(&pos.switched())];
        [GameKind::BackGame, GameKind::Blitz, GameKind::Prime, GameKind::Holding]
            .into_iter()
            .find(|&kind| sides.iter().any(|side| side.plays(kind)))
            .unwrap_or(GameKind::Other)
    }

    /// Its name in the reports: `back game`, `blitz`, ...
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::BackGame => "back game",
            GameKind::Blitz => "blitz",
            GameKind::Prime => "prime",
            GameKind::Holding => "holding",
            GameKind::Race => "race",
            GameKind::Other => "other",
        }
    }

    /// Its key in the JSON: `back_game`, `blitz`, ...
    pub const fn key(self) -> &'static str {
        match self {
            GameKind::BackGame => "back_game",
            other => other.name(),
        }
    }

    /// Its index in [`GameKind::ALL`].
    pub const fn index(self) -> usize {
        match self {
            GameKind::Race => 0,
            GameKind::BackGame => 1,
            GameKind::Blitz => 2,
            GameKind::Prime => 3,
            GameKind::Holding => 4,
            GameKind::Other => 5,
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The board seen by one side ("I"), to ask what plan that side has.
/// Points are numbered from my side: my home board is 1–6, my opponent's
/// home board is my 19–24 (his 6- to 1-point), his bar point my 18.
struct Side {
    /// My checkers: index `p - 1` on my point `p`, index 24 on my bar.
    me: SideBoard,
    /// His checkers in his own numbering: on my point `p` at index `24 - p`,
    /// on his bar at index 24.
    him: SideBoard,
    /// Pip counts (mine, his).
    pips: (u32, u32),
}

impl Side {
    /// The side on roll of `pos`.
    fn of(pos: &Position) -> Side {
        let (me, him) = pos.to_boards();
        Side { me, him, pips: pos.pip_count() }
    }

    /// Whether I play the plan of `kind` (one of the four plans).
    fn plays(&self, kind: GameKind) -> bool {
        match kind {
            GameKind::BackGame => self.plays_back_game(),
            GameKind::Blitz => self.blitzes(),
            GameKind::Prime => self.primes(),
            GameKind::Holding => self.holds(),
            GameKind::Race | GameKind::Other => false,
        }
    }

    /// Whether I hold my point `p` (1..=24): two or more checkers.
    fn held(&self, p: usize) -> bool {
        self.me[p - 1] >= 2
    }

    /// His checkers on my point `p` (1..=24).
    fn his_on(&self, p: usize) -> u8 {
        self.him[24 - p]
    }

    /// Whether he holds my point `p` (1..=24).
    fn he_holds(&self, p: usize) -> bool {
        self.his_on(p) >= 2
    }

    /// Whether he has a checker behind my point `p`: on his bar or on one of
    /// my points below `p` (his checkers move from my 1-point toward my 24).
    fn his_checker_behind(&self, p: usize) -> bool {
        self.him[24] > 0 || (1..p).any(|q| self.his_on(q) > 0)
    }

    /// Back game: I hold two or more points in his home board (my 19–24)
    /// and I am [`BACK_GAME_DEFICIT`] or more pips behind. I wait for a
    /// shot as he brings his checkers home, keeping my board (timing) until
    /// then; far behind, I cannot win the race, and if the shot does not
    /// come I lose a gammon or worse.
    fn plays_back_game(&self) -> bool {
        let anchors = (19..=24).filter(|&p| self.held(p)).count();
        anchors >= 2 && self.pips.0 >= self.pips.1 + BACK_GAME_DEFICIT
    }

    /// Blitz: he has a checker on the bar and holds no point in my home
    /// board (no anchor to land on and stay), and I have closed
    /// [`BLITZ_HOME_POINTS`] or more of its points, with closed points and
    /// his checkers in trouble (on the bar or alone in my board) together
    /// [`BLITZ_PRESSURE`] or more. I attack, hitting and closing points; he
    /// may be closed out and gammoned.
    fn blitzes(&self) -> bool {
        if self.him[24] == 0 || (1..=6).any(|p| self.he_holds(p)) {
            return false;
        }
        let closed = (1..=6).filter(|&p| self.held(p)).count();
        let in_trouble = usize::from(self.him[24]) + (1..=6).filter(|&p| self.his_on(p) == 1).count();
        closed >= BLITZ_HOME_POINTS && closed + in_trouble >= BLITZ_PRESSURE
    }

    /// Prime: I hold [`PRIME_LENGTH`] or more consecutive points and he has
    /// a checker behind them, which must get past a wall it cannot jump with
    /// one roll as the prime grows or rolls forward.
    fn primes(&self) -> bool {
        let mut run = 0;
        for p in 1..=24 {
            run = if self.held(p) { run + 1 } else { 0 };
            if run >= PRIME_LENGTH && self.his_checker_behind(p + 1 - run) {
                return true;
            }
        }
        false
    }

    /// Holding game: I am behind in the race and hold his 4-, 5-, 6- or bar
    /// point (my 21, 20, 19 or 18) with his checkers still to come home past
    /// it. I keep the anchor for a shot as he clears his outer points,
    /// while he tries to bring his checkers home safely.
    fn holds(&self) -> bool {
        self.pips.0 > self.pips.1 && (18..=21).any(|p| self.held(p) && self.his_checker_behind(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position from both sides' checkers as (point, count) pairs, each
    /// side in its own numbering (25 = the bar); the side on roll first.
    fn board(mine: &[(usize, u8)], his: &[(usize, u8)]) -> Position {
        let side = |checkers: &[(usize, u8)]| {
            let mut b: SideBoard = [0; 25];
            for &(p, n) in checkers {
                b[p - 1] += n;
            }
            b
        };
        Position::from_boards(&side(mine), &side(his)).unwrap()
    }

    /// The kind of `pos`, checked to be the same from the other side.
    fn kind(pos: Position) -> GameKind {
        let k = GameKind::of(&pos);
        assert_eq!(GameKind::of(&pos.switched()), k, "{}", pos.to_position_id());
        k
    }

    #[test]
    fn the_opening_and_an_ordinary_middle_game_are_other() {
        assert_eq!(kind(Position::STARTING), GameKind::Other);
        // After 3-1 (8/5 6/5) and 4-3 (24/20 13/10) for the other side.
        assert_eq!(kind(Position::from_position_id("sGfwATDgc/ABMA").unwrap()), GameKind::Other);
    }

    #[test]
    fn no_contact_is_a_race() {
        // Both sides past each other, some checkers still outside home.
        let race = board(&[(6, 5), (8, 5), (10, 5)], &[(5, 5), (9, 5), (11, 5)]);
        assert_eq!(kind(race), GameKind::Race);
        let bearoff = board(&[(1, 3), (2, 3)], &[(3, 2)]);
        assert_eq!(kind(bearoff), GameKind::Race);
    }

    #[test]
    fn the_classic_back_game() {
        // I hold his 1- and 3-points (my 24 and 22) with five checkers,
        // the rest on my side; he has almost everything home: I trail by a
        // hundred pips. A 1-3 back game.
        let me = [(24, 3), (22, 2), (13, 2), (8, 3), (6, 3), (5, 2)];
        let him = [(6, 4), (5, 3), (4, 3), (2, 2), (8, 3)];
        let pos = board(&me, &him);
        assert!(pos.pip_count().0 >= pos.pip_count().1 + 100, "{:?}", pos.pip_count());
        assert_eq!(kind(pos), GameKind::BackGame);
        // Two anchors, but not far behind in the race: a holding game, not
        // a back game.
        let level = board(&[(22, 2), (20, 2), (13, 4), (8, 3), (6, 4)], &[(6, 1), (8, 3), (13, 5), (11, 6)]);
        let (mine, his) = level.pip_count();
        assert!(mine > his && mine < his + BACK_GAME_DEFICIT, "{:?}", level.pip_count());
        assert_eq!(kind(level), GameKind::Holding);
    }

    #[test]
    fn a_blitz_and_the_anchor_that_stops_it() {
        // He is on the bar against my 6-, 5-, 4- and 2-points, with blots
        // of his on my 3- and 1-points and no point of mine: a blitz.
        let me = [(6, 3), (5, 2), (4, 2), (2, 2), (8, 2), (13, 4)];
        let him = [(25, 1), (22, 1), (24, 1), (13, 5), (8, 3), (6, 4)];
        assert_eq!(kind(board(&me, &him)), GameKind::Blitz);
        // A 3-point board (my 6, 5 and 4) against one checker on the bar
        // is not yet a blitz; against two checkers in trouble it is.
        let three = [(6, 4), (5, 2), (4, 2), (8, 3), (13, 4)];
        let one = [(25, 1), (13, 6), (8, 3), (6, 5)];
        assert_eq!(kind(board(&three, &one)), GameKind::Other);
        let two = [(25, 1), (22, 1), (13, 5), (8, 3), (6, 5)];
        assert_eq!(kind(board(&three, &two)), GameKind::Blitz);
        // The same with him holding my 1-point (his 24): he has an anchor,
        // so no longer a blitz (and no prime: my 4-, 5- and 6-points are
        // only three in a row).
        let anchored = [(25, 1), (24, 2), (13, 5), (8, 3), (6, 4)];
        assert_eq!(kind(board(&me, &anchored)), GameKind::Other);
    }

    #[test]
    fn a_prime_with_a_checker_behind_it() {
        // My 4- to 8-point held, five in a row; his two back checkers on my
        // 1-point are trapped behind.
        let me = [(8, 3), (7, 2), (6, 3), (5, 2), (4, 2), (13, 3)];
        let him = [(24, 2), (13, 5), (8, 3), (6, 5)];
        assert_eq!(kind(board(&me, &him)), GameKind::Prime);
        // His back checkers escaped past it to my 12-point: nothing is
        // behind the prime, and neither side has another plan: other.
        let escaped = [(13, 7), (8, 3), (6, 5)];
        assert_eq!(kind(board(&me, &escaped)), GameKind::Other);
        // Three points in a row are not a prime.
        let three = [(8, 4), (7, 3), (6, 3), (13, 5)];
        assert_eq!(kind(board(&three, &him)), GameKind::Other);
    }

    #[test]
    fn an_advanced_anchor_while_behind_is_a_holding_game() {
        // I hold his 5-point (my 20), am behind in the race, and he still
        // has checkers on his midpoint to bring home past my anchor.
        let me = [(20, 2), (13, 4), (8, 3), (6, 5), (3, 1)];
        let him = [(13, 4), (8, 2), (6, 5), (4, 2), (3, 2)];
        let pos = board(&me, &him);
        assert!(pos.pip_count().0 > pos.pip_count().1, "{:?}", pos.pip_count());
        assert_eq!(kind(pos), GameKind::Holding);
        // Ahead in the race, the same anchor is not a holding game.
        let ahead = [(20, 2), (6, 6), (5, 3), (4, 2), (3, 2)];
        let pos = board(&ahead, &him);
        assert!(pos.pip_count().0 < pos.pip_count().1, "{:?}", pos.pip_count());
        assert_eq!(kind(pos), GameKind::Other);
        // His ace point (my 24) is not an advanced anchor: while slightly
        // behind that is an ace-point game, counted as other.
        let deep = [(24, 2), (13, 4), (8, 3), (6, 5), (3, 1)];
        assert_eq!(kind(board(&deep, &him)), GameKind::Other);
    }

    #[test]
    fn the_order_puts_the_back_game_before_its_prime() {
        // A back game (his 1- and 2-points) whose player also holds a
        // five-point prime with one of his checkers behind it.
        let me = [(24, 2), (23, 2), (8, 2), (7, 2), (6, 3), (5, 2), (4, 2)];
        let him = [(22, 1), (6, 5), (5, 3), (4, 3), (3, 3)];
        let pos = board(&me, &him);
        assert!(Side::of(&pos).primes());
        assert_eq!(kind(pos), GameKind::BackGame);
    }

    #[test]
    fn every_kind_has_its_place() {
        for (i, k) in GameKind::ALL.into_iter().enumerate() {
            assert_eq!(k.index(), i);
        }
        assert_eq!(GameKind::BackGame.key(), "back_game");
    }
}
