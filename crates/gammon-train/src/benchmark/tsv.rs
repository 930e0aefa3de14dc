//! The yardstick's text format (`../shared/yardstick/*.tsv`): one labelled
//! position a line,
//!
//! ```text
//! <gnubg Position ID>\t<win> <win_gammon> <win_backgammon> <lose_gammon> <lose_backgammon>
//! ```
//!
//! the position with the player on roll to move next (before rolling), the
//! five cumulative probabilities from that player's side. Reading is a little
//! lenient about white space (any run of blanks or tabs separates the six
//! fields; trailing blanks and `\r` are ignored), and skips blank lines and
//! lines starting with `#`; [`Display`](fmt::Display) writes the canonical
//! form, which reads back to the same values.
//!
//! The labels are rollout estimates, and a luck-adjusted rollout can give a
//! rare outcome a slightly negative chance or put a backgammon rate a hair
//! above the gammon rate (the public yardstick has values down to −0.0146
//! and orderings broken by up to 0.0145). So a label is accepted within
//! [`LABEL_TOLERANCE`] of a probability and of the ordering
//! backgammon ≤ gammon ≤ win (and lose = 1 − win), and used as it is:
//! anything further off is a damaged or misread file.

use gammon_rules::{Position, PositionIdError};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The largest TSV file read, 64 MiB (about a million positions; the public
/// yardstick's files are about 300 KB each).
pub const MAX_TSV_BYTES: u64 = 64 << 20;

/// How far outside a probability, or outside the ordering
/// backgammon ≤ gammon ≤ win, a label may be before it is refused: rollout
/// noise (see the [module documentation](self)).
pub const LABEL_TOLERANCE: f64 = 0.05;

/// The five outputs of a label or an evaluation, in the order of the TSV
/// line and of [`gammon_eval::Probabilities`], as the JSON names them.
pub const OUTPUTS: [&str; 5] = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"];

/// A position and its label: the five probabilities of the side on roll,
/// before rolling, in the order of [`OUTPUTS`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelledPosition {
    /// The position, player on roll before rolling.
    pub position: Position,
    /// win, win_gammon, win_backgammon, lose_gammon, lose_backgammon.
    pub label: [f64; 5],
}

/// What is wrong with one line of a TSV file (the file and line number are
/// added by the reader: [`TsvError`]).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LineError {
    /// Not a Position ID and five numbers.
    #[error(
        "{found} field(s), expected 6: a Position ID, a tab and the five probabilities \
         win win_gammon win_backgammon lose_gammon lose_backgammon"
    )]
    Fields {
        /// How many white-space separated fields the line has.
        found: usize,
    },
    /// The first field is not a Position ID.
    #[error("{text:?} is not a gnubg Position ID ({reason})")]
    Position {
        /// The field (at most 40 characters of it).
        text: String,
        /// Why (in the message, not as a separate cause: a printed chain
        /// says it once).
        reason: PositionIdError,
    },
    /// A probability that does not read as a number.
    #[error("{output} {text:?} is not a number")]
    Number {
        /// Which output.
        output: &'static str,
        /// The field (at most 40 characters of it).
        text: String,
    },
    /// Numbers that are not a label.
    #[error(transparent)]
    Label(#[from] LabelError),
}

/// Five numbers that are not the probabilities of a position's outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum LabelError {
    /// Outside 0 to 1 by more than [`LABEL_TOLERANCE`], or not finite.
    #[error("{output} = {value} is not a probability (0 to 1, give or take {LABEL_TOLERANCE} of rollout noise)")]
    NotProbability {
        /// Which output.
        output: &'static str,
        /// Its value.
        value: f64,
    },
    /// A backgammon chance above the gammon chance, or a gammon chance above
    /// the win (or loss) chance, by more than [`LABEL_TOLERANCE`].
    #[error("{larger} = {larger_value} is above {smaller} = {smaller_value}: {why}")]
    Order {
        /// The output that is too large.
        larger: &'static str,
        /// Its value.
        larger_value: f64,
        /// The output it must not exceed.
        smaller: &'static str,
        /// Its value.
        smaller_value: f64,
        /// The rule, in words.
        why: &'static str,
    },
}

/// Checks that `label` (in the order of [`OUTPUTS`]) is a position's five
/// probabilities, within [`LABEL_TOLERANCE`]: each in 0..=1, and
/// backgammon ≤ gammon ≤ win for each side (the loss chance being
/// 1 − win).
///
/// # Errors
/// The first value or ordering that is off.
pub fn check_label(label: &[f64; 5]) -> Result<(), LabelError> {
    for (&value, output) in label.iter().zip(OUTPUTS) {
        if !value.is_finite() || !(-LABEL_TOLERANCE..=1.0 + LABEL_TOLERANCE).contains(&value) {
            return Err(LabelError::NotProbability { output, value });
        }
    }
    let [win, win_gammon, win_backgammon, lose_gammon, lose_backgammon] = *label;
    let rules: [(&'static str, f64, &'static str, f64, &'static str); 4] = [
        ("win_backgammon", win_backgammon, "win_gammon", win_gammon, "a backgammon is also a gammon"),
        ("win_gammon", win_gammon, "win", win, "a gammon is also a win"),
        ("lose_backgammon", lose_backgammon, "lose_gammon", lose_gammon, "a backgammon is also a gammon"),
        ("lose_gammon", lose_gammon, "lose = 1 - win", 1.0 - win, "a gammon is also a loss"),
    ];
    for (larger, larger_value, smaller, smaller_value, why) in rules {
        if larger_value > smaller_value + LABEL_TOLERANCE {
            return Err(LabelError::Order { larger, larger_value, smaller, smaller_value, why });
        }
    }
    Ok(())
}

/// At most 40 characters of `text`, for an error message.
fn excerpt(text: &str) -> String {
    text.chars().take(40).collect()
}

impl FromStr for LabelledPosition {
    type Err = LineError;

    /// One line (without its line end): see the [module documentation](self).
    fn from_str(line: &str) -> Result<Self, LineError> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [id, numbers @ ..] = fields.as_slice() else {
            return Err(LineError::Fields { found: 0 });
        };
        if numbers.len() != 5 {
            return Err(LineError::Fields { found: fields.len() });
        }
        let position =
            Position::from_position_id(id).map_err(|reason| LineError::Position { text: excerpt(id), reason })?;
        let mut label = [0.0; 5];
        for ((slot, text), output) in label.iter_mut().zip(numbers).zip(OUTPUTS) {
            *slot = text.parse().map_err(|_| LineError::Number { output, text: excerpt(text) })?;
        }
        check_label(&label)?;
        Ok(LabelledPosition { position, label })
    }
}

impl fmt::Display for LabelledPosition {
    /// The canonical line: the Position ID, a tab, the five numbers
    /// separated by blanks, each in the shortest form that reads back to
    /// the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.label;
        write!(f, "{}\t{a} {b} {c} {d} {e}", self.position.to_position_id())
    }
}

/// A line of a TSV file that does not read, with its number (from 1).
#[derive(Debug, Clone, PartialEq, Error)]
#[error("line {line}: {problem}")]
pub struct TsvError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it (in the message only, as above).
    pub problem: LineError,
}

/// Reads the text of a TSV file: every labelled position in file order,
/// blank lines and `#` comments skipped. An empty result is not an error
/// here (the caller decides).
///
/// # Errors
/// The first line that does not read, by number.
pub fn parse_tsv(text: &str) -> Result<Vec<LabelledPosition>, TsvError> {
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        positions.push(line.parse().map_err(|problem| TsvError { line: n + 1, problem })?);
    }
    Ok(positions)
}

/// The canonical text of `positions`: one [`Display`](fmt::Display) line each.
pub fn to_tsv(positions: &[LabelledPosition]) -> String {
    positions.iter().map(|p| format!("{p}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PR: &str = "bW7AAAvD3QMHAA\t0.772853 0.111709 0.001997 0.025022 0.000871\n\
                      G7sDBwC2NhkACw\t0.271272 0.037207 0.000718 0.083944 0.000905\n";

    #[test]
    fn lines_of_the_yardstick_round_trip() {
        let read = parse_tsv(PR).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].position.to_position_id(), "bW7AAAvD3QMHAA");
        assert_eq!(read[0].label, [0.772853, 0.111709, 0.001997, 0.025022, 0.000871]);
        // The canonical text is the yardstick's own, and reads back the same.
        assert_eq!(to_tsv(&read), PR);
        assert_eq!(parse_tsv(&to_tsv(&read)).unwrap(), read);
        // Any value, however long, reads back exactly.
        let odd = LabelledPosition { position: Position::STARTING, label: [0.1 + 0.2, 1.0 / 3.0, 0.0, -0.0146, 1e-9] };
        assert_eq!(odd.to_string().parse::<LabelledPosition>().unwrap(), odd);
    }

    #[test]
    fn blank_lines_comments_and_spaces_are_read() {
        let text = "# a comment\n\n  4HPwATDgc/ABMA 0.5 0.1 0.01 0.1 0.01  \r\n";
        let read = parse_tsv(text).unwrap();
        assert_eq!(read, [LabelledPosition { position: Position::STARTING, label: [0.5, 0.1, 0.01, 0.1, 0.01] }]);
        assert!(parse_tsv("# nothing\n\n").unwrap().is_empty());
    }

    #[test]
    fn rollout_noise_is_accepted_as_it_is() {
        // A real line of backgame-opponent.tsv: a negative win_gammon, and a
        // win_backgammon above it.
        let line = "sHubBACszoDADg\t0.049300 -0.001400 0.000300 0.527300 0.057500";
        let read: LabelledPosition = line.parse().unwrap();
        assert_eq!(read.label[1], -0.0014);
    }

    /// The error of `line` as the fourth line of a file, after a blank one.
    fn fourth_line(line: &str) -> String {
        let text = format!("{PR}\n{line}\n");
        let err = parse_tsv(&text).unwrap_err();
        assert_eq!(err.line, 4, "{err}");
        err.to_string()
    }

    #[test]
    fn each_bad_line_is_named_with_its_reason() {
        let cases = [
            ("bW7AAAvD3QMHAA\t0.7 0.1 0.0 0.02", "line 4: 5 field(s), expected 6"),
            ("bW7AAAvD3QMHAA\t0.7 0.1 0.0 0.02 0.0 0.1", "line 4: 7 field(s), expected 6"),
            ("bW7AAAvD3QMH\t0.7 0.1 0.0 0.02 0.0", "line 4: \"bW7AAAvD3QMH\" is not a gnubg Position ID"),
            ("bW7AAAvD3QM!AA\t0.7 0.1 0.0 0.02 0.0", "line 4: \"bW7AAAvD3QM!AA\" is not a gnubg Position ID"),
            ("bW7AAAvD3QMHAA\t0.7 0.1 x 0.02 0.0", "line 4: win_backgammon \"x\" is not a number"),
            ("bW7AAAvD3QMHAA\t1.2 0.1 0.0 0.02 0.0", "line 4: win = 1.2 is not a probability"),
            ("bW7AAAvD3QMHAA\t0.7 0.1 0.0 -0.3 0.0", "line 4: lose_gammon = -0.3 is not a probability"),
            ("bW7AAAvD3QMHAA\t0.7 0.1 0.0 0.02 NaN", "line 4: lose_backgammon = NaN is not a probability"),
            ("bW7AAAvD3QMHAA\t0.7 0.1 0.2 0.02 0.0", "line 4: win_backgammon = 0.2 is above win_gammon = 0.1"),
            ("bW7AAAvD3QMHAA\t0.3 0.4 0.0 0.02 0.0", "line 4: win_gammon = 0.4 is above win = 0.3"),
            ("bW7AAAvD3QMHAA\t0.7 0.1 0.0 0.02 0.1", "line 4: lose_backgammon = 0.1 is above lose_gammon = 0.02"),
            ("bW7AAAvD3QMHAA\t0.7 0.1 0.0 0.4 0.0", "line 4: lose_gammon = 0.4 is above lose = 1 - win"),
        ];
        for (line, expected) in cases {
            let err = fourth_line(line);
            assert!(err.starts_with(expected), "{line:?}: {err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
    }

    #[test]
    fn the_tolerance_is_the_edge() {
        let at = [0.5, 0.1, 0.1 + LABEL_TOLERANCE, 0.1, 0.0];
        assert!(check_label(&at).is_ok());
        let beyond = [0.5, 0.1, 0.1 + LABEL_TOLERANCE + 1e-6, 0.1, 0.0];
        assert!(matches!(check_label(&beyond), Err(LabelError::Order { larger: "win_backgammon", .. })));
        assert!(check_label(&[0.5, 0.0, 0.0, 0.0, -LABEL_TOLERANCE]).is_ok());
        assert!(check_label(&[-LABEL_TOLERANCE - 1e-6, 0.0, 0.0, 0.0, 0.0]).is_err());
    }
}
