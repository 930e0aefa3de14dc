//! The written form of a match before replay, shared by the two readers:
//! the `.mat` text layer (`lines`) and the SGF layer (`crate::sgf`) build
//! it, `replay` plays it through the rules.

use crate::MatchRules;
use std::collections::BTreeMap;

/// The written form of a match, before replay.
pub(crate) struct RawMatch {
    pub headers: BTreeMap<String, String>,
    /// The rules the games are replayed under (the length included).
    pub rules: MatchRules,
    /// The Crawford rule is on.
    pub crawford: bool,
    /// The score the file starts at (a file that starts mid-match); `None`: 0-0.
    pub start: Option<MatchStart>,
    pub players: [String; 2],
    pub games: Vec<RawGame>,
}

/// Where a file that starts mid-match starts.
#[derive(Clone, Copy)]
pub(crate) struct MatchStart {
    pub score: [u32; 2],
    /// A player is one away and the Crawford game is behind.
    pub post_crawford: bool,
}

pub(crate) struct RawGame {
    pub number: u32,
    pub line: usize,
    pub score: [u32; 2],
    /// What the file says of the game being the Crawford game, if it says
    /// (checked against the score); `None`: not written.
    pub crawford_game: Option<bool>,
    /// A game from a set position or cube (OGXM); `None`: the starting
    /// position, cube 1 centred.
    pub setup: Option<Setup>,
    pub actions: Vec<RawAction>,
}

/// Where a game that does not start from the starting position starts.
#[derive(Clone, Copy)]
pub(crate) struct Setup {
    /// The board seen by seat Zero (switched if seat One acts first).
    pub board: crate::Position,
    pub cube: crate::Cube,
}

pub(crate) struct RawAction {
    pub line: usize,
    pub move_number: Option<u32>,
    /// 0: left column (seat Zero), 1: right column (seat One).
    pub column: usize,
    pub kind: RawKind,
}

/// The checker steps `(from, to)` of one move, at most four, kept inline:
/// a file of many moves costs no allocation per move.
#[derive(Clone, Copy, Default)]
pub(crate) struct Steps {
    steps: [(u8, u8); 4],
    len: u8,
}

impl Steps {
    /// The steps, or `None` if there are more than four.
    pub fn new(steps: &[(u8, u8)]) -> Option<Self> {
        let mut s = Steps::default();
        s.steps.get_mut(..steps.len())?.copy_from_slice(steps);
        s.len = u8::try_from(steps.len()).ok()?;
        Some(s)
    }

    pub fn as_slice(&self) -> &[(u8, u8)] {
        &self.steps[..usize::from(self.len)]
    }
}

pub(crate) enum RawKind {
    /// Dice as written (not yet checked) and the move text (may be empty).
    Roll {
        dice: (u8, u8),
        text: Box<str>,
    },
    /// Dice as written and the checker steps `(from, to)` in the mover's
    /// numbering (25 = bar, 0 = off); the move text is written from them
    /// against the position, hits marked `*`, as gnubg's `.mat` export
    /// writes it.
    Steps {
        dice: (u8, u8),
        steps: Steps,
    },
    Double(u32),
    Take,
    /// A beaver, with the cube value written (`Beavers => 4`) if it is.
    Beaver(Option<u32>),
    Drop,
    /// The points won, and whether the line says they win the match
    /// (`Wins 1 point and the match`).
    Win(u32, bool),
    Loss(u32),
    /// XG's `Resigns`: a resignation whose points the opponent's `Wins N
    /// points` that follows says.
    Resigns,
}
