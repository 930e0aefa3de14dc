//! gnubg's marks and ratings, with its thresholds (gnubg 1.07, `analysis.c`):
//! a decision's mark from its error, a roll's from its luck, a player's
//! rating from his error per decision. All in normalised equity (EMG).

use serde::Serialize;
use std::fmt;

/// The mark of a move or cube decision (gnubg's `skilltype`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Lost at most [`Mark::DOUBTFUL`].
    #[default]
    None,
    /// Lost more than 0.03.
    Doubtful,
    /// Lost more than 0.06.
    Bad,
    /// Lost more than 0.12.
    VeryBad,
}

impl Mark {
    /// gnubg 1.07's thresholds (`show analysis`: -0.030 doubtful, -0.060
    /// bad, -0.120 very bad). Strict: a loss of exactly 0.03 is unmarked.
    pub const DOUBTFUL: f64 = 0.03;
    /// See [`DOUBTFUL`](Self::DOUBTFUL).
    pub const BAD: f64 = 0.06;
    /// See [`DOUBTFUL`](Self::DOUBTFUL).
    pub const VERY_BAD: f64 = 0.12;

    /// The mark of an error of `loss` (normalised equity, at least 0).
    pub fn of_loss(loss: f64) -> Mark {
        if loss > Self::VERY_BAD {
            Mark::VeryBad
        } else if loss > Self::BAD {
            Mark::Bad
        } else if loss > Self::DOUBTFUL {
            Mark::Doubtful
        } else {
            Mark::None
        }
    }

    /// gnubg's symbol: `?!`, `?`, `??`, or nothing.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Doubtful => "?!",
            Mark::Bad => "?",
            Mark::VeryBad => "??",
        }
    }

    /// The word for people.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Doubtful => "doubtful",
            Mark::Bad => "bad",
            Mark::VeryBad => "very bad",
        }
    }
}

/// The mark of a roll's luck (gnubg's `lucktype`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LuckMark {
    /// Luck below -0.6.
    VeryUnlucky,
    /// Luck below -0.3.
    Unlucky,
    /// Between.
    #[default]
    None,
    /// Luck above 0.3.
    Lucky,
    /// Luck above 0.6.
    VeryLucky,
}

impl LuckMark {
    /// gnubg's thresholds (strict), in normalised equity.
    pub const LUCKY: f64 = 0.3;
    /// See [`LUCKY`](Self::LUCKY).
    pub const VERY_LUCKY: f64 = 0.6;

    /// The mark of a roll worth `luck` more than the average roll.
    pub fn of_luck(luck: f64) -> LuckMark {
        if luck > Self::VERY_LUCKY {
            LuckMark::VeryLucky
        } else if luck > Self::LUCKY {
            LuckMark::Lucky
        } else if luck < -Self::VERY_LUCKY {
            LuckMark::VeryUnlucky
        } else if luck < -Self::LUCKY {
            LuckMark::Unlucky
        } else {
            LuckMark::None
        }
    }
}

/// A player's rating from his error per decision (gnubg's `GetRating`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Rating {
    /// 0.035 or more per decision.
    Awful,
    /// Below 0.035.
    Beginner,
    /// Below 0.026.
    CasualPlayer,
    /// Below 0.018.
    Intermediate,
    /// Below 0.012.
    Advanced,
    /// Below 0.008.
    Expert,
    /// Below 0.005.
    WorldClass,
    /// Below 0.002.
    Supernatural,
}

impl Rating {
    /// The upper bounds (strict) of each rating from the best down, in
    /// normalised equity per decision.
    const BOUNDS: [(f64, Rating); 7] = [
        (0.002, Rating::Supernatural),
        (0.005, Rating::WorldClass),
        (0.008, Rating::Expert),
        (0.012, Rating::Advanced),
        (0.018, Rating::Intermediate),
        (0.026, Rating::CasualPlayer),
        (0.035, Rating::Beginner),
    ];

    /// The rating of a mean error of `error` per decision.
    pub fn of_error_rate(error: f64) -> Rating {
        Self::BOUNDS.iter().find(|(bound, _)| error < *bound).map_or(Rating::Awful, |(_, r)| *r)
    }

    /// gnubg's words.
    pub const fn name(self) -> &'static str {
        match self {
            Rating::Awful => "Awful!",
            Rating::Beginner => "Beginner",
            Rating::CasualPlayer => "Casual player",
            Rating::Intermediate => "Intermediate",
            Rating::Advanced => "Advanced",
            Rating::Expert => "Expert",
            Rating::WorldClass => "World class",
            Rating::Supernatural => "Supernatural",
        }
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// gnubg's luck rating from the luck per move (`getLuckRating`).
pub fn luck_rating(luck_per_move: f64) -> &'static str {
    match luck_per_move {
        r if r > 0.06 => "Go to Las Vegas",
        r if r > 0.03 => "Good dice, man!",
        r if r < -0.06 => "Go to bed",
        r if r < -0.03 => "Bad dice, man!",
        _ => "None",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_strict() {
        assert_eq!(Mark::of_loss(0.0), Mark::None);
        assert_eq!(Mark::of_loss(0.03), Mark::None);
        assert_eq!(Mark::of_loss(0.0301), Mark::Doubtful);
        assert_eq!(Mark::of_loss(0.06), Mark::Doubtful);
        assert_eq!(Mark::of_loss(0.0601), Mark::Bad);
        assert_eq!(Mark::of_loss(0.12), Mark::Bad);
        assert_eq!(Mark::of_loss(0.1201), Mark::VeryBad);
        assert_eq!(LuckMark::of_luck(0.3), LuckMark::None);
        assert_eq!(LuckMark::of_luck(0.31), LuckMark::Lucky);
        assert_eq!(LuckMark::of_luck(-0.61), LuckMark::VeryUnlucky);
    }

    #[test]
    fn ratings_follow_gnubgs_scale() {
        assert_eq!(Rating::of_error_rate(0.0), Rating::Supernatural);
        assert_eq!(Rating::of_error_rate(0.002), Rating::WorldClass);
        assert_eq!(Rating::of_error_rate(0.0079), Rating::Expert);
        assert_eq!(Rating::of_error_rate(0.02), Rating::CasualPlayer);
        assert_eq!(Rating::of_error_rate(0.035), Rating::Awful);
        assert_eq!(Rating::Awful.name(), "Awful!");
        assert_eq!(luck_rating(0.07), "Go to Las Vegas");
        assert_eq!(luck_rating(-0.04), "Bad dice, man!");
    }
}
