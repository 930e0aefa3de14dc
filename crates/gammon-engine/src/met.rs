//! Match equity tables: the chance of winning a match from a score, and the
//! conversions between money-like equities and match winning chances that
//! gnubg's cube formulas work with.
//!
//! # The table
//!
//! [`Met::kazaross_xg2`] is the Kazaross-XG2 table, gnubg's default, for
//! matches up to 25 points. Its numbers are copied verbatim from GNU
//! Backgammon 1.07.001's `met/Kazaross-XG2.xml` into
//! `crates/gammon-engine/data/kazaross-xg2.txt` (the file's header says where
//! they come from and keeps the original notice), embedded with
//! `include_str!` and parsed on first use. [`Met::read_xml_file`] reads
//! another of gnubg's tables (`--met`): explicit ones, which cover the
//! matches their rows cover, longer than 25 points too. Each table has a
//! [`name`](Met::name), which every answer about a match carries.
//!
//! A score is described by what each side still needs ("away"): a player
//! with 3 points in a 7-point match is 4-away. 0-away means the match is
//! won.
//!
//! - [`Met::mwc`]: the pre-Crawford table. An entry with a 1-away side is the
//!   Crawford game (nobody may double in it).
//! - [`Met::post_crawford`]: after the Crawford game, the trailer's chances
//!   (the leader is 1-away and the trailer may double).
//! - [`Met::mwc_after`]: gnubg's `getME`: the chances after one side wins so
//!   many points from a given score, with the Crawford rule applied.
//!
//! # Equity and match winning chances
//!
//! gnubg turns match winning chances (MWC) into "equivalent-to-money"
//! equities (EMG) relative to the current cube: `-1` is losing the cube value
//! (a single game), `+1` winning it, linearly in between and beyond
//! ([`Met::mwc2eq`], [`Met::eq2mwc`]). With this normalisation a
//! double/pass is always worth `+1`, as in money play.
//!
//! # Gammon prices
//!
//! [`Met::gammon_prices`] is gnubg's gammon price: how much an extra gammon
//! (or backgammon) is worth at a score and cube, in units of the single-game
//! swing; `1` is the money value.

mod xml;

use std::fmt;
use std::path::PathBuf;
use std::sync::OnceLock;
use thiserror::Error;

pub use xml::MAX_MET_FILE_BYTES;

/// The built-in table's name, as gnubg's `Kazaross-XG2.xml` names it.
pub const KAZAROSS_XG2_NAME: &str = "Kazaross XG2 25 point MET";

/// The Kazaross-XG2 table as committed (see the module documentation).
pub const KAZAROSS_XG2_TEXT: &str = include_str!("../data/kazaross-xg2.txt");

/// A match equity table text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MetError {
    /// A number that is not a probability (not a number, or outside 0..1).
    #[error("line {line}: {text:?} is not a probability between 0 and 1")]
    BadNumber {
        /// Line number (from 1).
        line: usize,
        /// The text found.
        text: String,
    },
    /// Numbers before any `[pre-crawford]` or `[post-crawford]` section, or
    /// an unknown section.
    #[error("line {line}: {text:?} is not inside a [pre-crawford] or [post-crawford] section")]
    Section {
        /// Line number (from 1).
        line: usize,
        /// The text found.
        text: String,
    },
    /// The tables do not have the expected shape: a square pre-Crawford
    /// table and one post-Crawford row of the same length, at least 1.
    #[error("the pre-Crawford table has {rows} rows of lengths {row_lengths:?} and the post-Crawford row {post} entries; expected n rows of n and n")]
    Shape {
        /// Rows of the pre-Crawford table.
        rows: usize,
        /// Their lengths.
        row_lengths: Vec<usize>,
        /// Entries of the post-Crawford row.
        post: usize,
    },
    /// A file that holds no table gammon can use (the reason is the source).
    #[error("match equity table {}", .path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: Box<MetError>,
    },
    /// The file could not be read: not there, not a regular file, larger
    /// than [`MAX_MET_FILE_BYTES`], not UTF-8 (the file format's error and
    /// its causes, which name the file).
    #[error("match equity table: {message}")]
    Read {
        /// What went wrong, naming the file.
        message: String,
        /// The system's kind of error, when the system refused the read
        /// (`NotFound` for a missing file).
        io: Option<std::io::ErrorKind>,
    },
    /// Not well-formed XML.
    #[error("it is not well-formed XML: {0}")]
    Xml(String),
    /// An element gnubg's format requires is missing.
    #[error("it has no <{0}> element (not a gnubg match equity table)")]
    Missing(&'static str),
    /// A table gnubg computes from a formula (`zadeh`, `mec`): only explicit
    /// tables are read.
    #[error("its {table} table is of type {kind:?}, computed by a formula gammon does not implement; give a table of type \"explicit\"")]
    Formula {
        /// `pre-crawford` or `post-crawford`.
        table: &'static str,
        /// The `type` attribute.
        kind: String,
    },
    /// Post-Crawford tables that differ by player (`player="0"`, `"1"`):
    /// gammon's tables are the same for both sides.
    #[error("it has a post-Crawford table per player (player={0:?}); gammon reads only tables for both players")]
    PerPlayer(String),
    /// An `<me>` entry that is not a probability.
    #[error("{table} table, row {row}, entry {entry}: {text:?} is not a probability between 0 and 1")]
    Entry {
        /// `pre-crawford` or `post-crawford`.
        table: &'static str,
        /// The row (from 1).
        row: usize,
        /// The entry in the row (from 1).
        entry: usize,
        /// The text found.
        text: String,
    },
}

/// Gammon and backgammon prices at a score and cube, as gnubg computes them
/// (`getGammonPrice` in gnubg's `matchequity.c`).
///
/// Each is the extra value of a gammon (of a backgammon over a gammon) in
/// units of half the swing between winning and losing a single game; money
/// play has 1 for all four. The cubeless equity at a score is
/// `2 P(win) - 1 + Wg * my_gammon - Lg * opp_gammon + Wbg * my_backgammon - Lbg * opp_backgammon`
/// (with gammons including backgammons).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct GammonPrices {
    /// Value of my gammon.
    pub my_gammon: f64,
    /// Extra value of my backgammon over my gammon.
    pub my_backgammon: f64,
    /// Value of the opponent's gammon.
    pub opp_gammon: f64,
    /// Extra value of the opponent's backgammon over his gammon.
    pub opp_backgammon: f64,
}

impl GammonPrices {
    /// Money play: every price is 1.
    pub const MONEY: GammonPrices =
        GammonPrices { my_gammon: 1.0, my_backgammon: 1.0, opp_gammon: 1.0, opp_backgammon: 1.0 };
    /// Gammons count nothing extra (money play under the Jacoby rule with the
    /// cube not yet turned).
    pub const NONE: GammonPrices =
        GammonPrices { my_gammon: 0.0, my_backgammon: 0.0, opp_gammon: 0.0, opp_backgammon: 0.0 };
}

/// gnubg's SGF keeps a match's cube analysis as match winning chances: the
/// writer and the analysis reader convert with this table.
impl gammon_rules::MatchEquity for Met {
    fn eq2mwc(&self, eq: f64, cube: u32, away: (u32, u32), crawford: bool) -> f64 {
        Met::eq2mwc(self, eq, cube, away, crawford)
    }

    fn mwc2eq(&self, mwc: f64, cube: u32, away: (u32, u32), crawford: bool) -> f64 {
        Met::mwc2eq(self, mwc, cube, away, crawford)
    }
}

/// A match equity table: pre-Crawford and post-Crawford winning chances,
/// and its name.
#[derive(Clone, PartialEq)]
pub struct Met {
    name: String,
    /// `pre[i][j]`: P(win) needing `i + 1` against `j + 1`.
    pre: Vec<Vec<f64>>,
    /// `post[i]`: the trailer's P(win) needing `i + 1`, leader 1-away,
    /// after the Crawford game.
    post: Vec<f64>,
}

impl fmt::Debug for Met {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Met").field("name", &self.name).field("max_away", &self.max_away()).finish_non_exhaustive()
    }
}

impl Met {
    /// The Kazaross-XG2 table (gnubg's default), 25 points, parsed once.
    ///
    /// # Panics
    /// Never for the committed data file (a test parses it); the table is
    /// part of the program, not input.
    pub fn kazaross_xg2() -> &'static Met {
        static MET: OnceLock<Met> = OnceLock::new();
        MET.get_or_init(|| match Met::parse(KAZAROSS_XG2_TEXT) {
            Ok(met) => met.named(KAZAROSS_XG2_NAME),
            Err(e) => panic!("the embedded Kazaross-XG2 table does not parse: {e}"),
        })
    }

    /// The same table under another name.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The table's name (gnubg's `<name>`; `unnamed` for a text table).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A table from its rows, checked: `pre` n rows of n probabilities,
    /// `post` n entries.
    fn from_tables(name: String, pre: Vec<Vec<f64>>, post: Vec<f64>) -> Result<Met, MetError> {
        let n = pre.len();
        if n == 0 || post.len() != n || pre.iter().any(|r| r.len() != n) {
            return Err(MetError::Shape { rows: n, row_lengths: pre.iter().map(Vec::len).collect(), post: post.len() });
        }
        Ok(Met { name, pre, post })
    }

    /// Reads a table in the layout of `data/kazaross-xg2.txt`: `#` comments
    /// and blank lines are ignored; a `[pre-crawford]` section holds n lines
    /// of n numbers (line r, column c: P(win) needing r against c), a
    /// `[post-crawford]` section one line of n numbers (the trailer needing
    /// c against a 1-away leader, after the Crawford game).
    ///
    /// # Errors
    /// A [`MetError`] for text that is not a number in 0..1, numbers outside a
    /// section, or tables of the wrong shape.
    pub fn parse(text: &str) -> Result<Met, MetError> {
        #[derive(PartialEq)]
        enum Section {
            None,
            Pre,
            Post,
        }
        let mut section = Section::None;
        let mut pre: Vec<Vec<f64>> = Vec::new();
        let mut post: Vec<f64> = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match line {
                "[pre-crawford]" => {
                    section = Section::Pre;
                    continue;
                }
                "[post-crawford]" => {
                    section = Section::Post;
                    continue;
                }
                _ => {}
            }
            if section == Section::None || line.starts_with('[') {
                return Err(MetError::Section { line: index + 1, text: line.to_string() });
            }
            let mut row = Vec::new();
            for word in line.split_whitespace() {
                match word.parse::<f64>() {
                    Ok(v) if (0.0..=1.0).contains(&v) => row.push(v),
                    _ => return Err(MetError::BadNumber { line: index + 1, text: word.to_string() }),
                }
            }
            match section {
                Section::Pre => pre.push(row),
                _ => post.extend(row),
            }
        }
        Met::from_tables("unnamed".into(), pre, post)
    }

    /// The longest "away" the table covers (25 for Kazaross-XG2): matches up
    /// to this length can be analysed.
    pub fn max_away(&self) -> u32 {
        u32::try_from(self.pre.len()).unwrap_or(u32::MAX)
    }

    fn index(&self, away: u32) -> usize {
        // Callers check `max_away`; beyond it the table's edge is used.
        (away.max(1) as usize - 1).min(self.pre.len() - 1)
    }

    /// P(I win the match) before a game that is not post-Crawford, when I
    /// need `away_me` points and the opponent `away_opp`. An entry with a
    /// 1-away side is the Crawford game. 0-away is a won match: `away_me ==
    /// 0` gives 1, else `away_opp == 0` gives 0. Aways above
    /// [`max_away`](Self::max_away) read the table's last row or column.
    ///
    /// ```
    /// use gammon_engine::met::Met;
    /// let met = Met::kazaross_xg2();
    /// assert_eq!(met.mwc(4, 5), 0.57732); // 0-0 in a 5-point match, after winning 1 point
    /// assert_eq!(met.mwc(5, 5), 0.5);
    /// ```
    pub fn mwc(&self, away_me: u32, away_opp: u32) -> f64 {
        if away_me == 0 {
            return 1.0;
        }
        if away_opp == 0 {
            return 0.0;
        }
        self.pre[self.index(away_me)][self.index(away_opp)]
    }

    /// The trailer's P(win the match) after the Crawford game, needing
    /// `away_trailer` points while the leader needs 1. 0 gives 1 (won).
    ///
    /// ```
    /// use gammon_engine::met::Met;
    /// let met = Met::kazaross_xg2();
    /// assert_eq!(met.post_crawford(2), 0.48803);
    /// assert_eq!(met.post_crawford(1), 0.5);
    /// ```
    pub fn post_crawford(&self, away_trailer: u32) -> f64 {
        if away_trailer == 0 {
            return 1.0;
        }
        self.post[self.index(away_trailer)]
    }

    /// P(I win the match) at a score, before a game: `crawford` says whether
    /// this game is the Crawford game. With a 1-away side and no Crawford
    /// flag the game is post-Crawford.
    pub fn mwc_at(&self, away: (u32, u32), crawford: bool) -> f64 {
        let (me, opp) = away;
        if me == 0 || opp == 0 {
            return self.mwc(me, opp);
        }
        if !crawford && (me == 1 || opp == 1) {
            if me == 1 {
                1.0 - self.post_crawford(opp)
            } else {
                self.post_crawford(me)
            }
        } else {
            self.mwc(me, opp)
        }
    }

    /// gnubg's `getME`: my P(win the match) after this game is won by me
    /// (`i_win`) or the opponent for `points` points, from the score `away`
    /// (points each side needs now). `crawford`: this game is the Crawford
    /// game. If someone is 1-away now (Crawford or post-Crawford), the next
    /// game is post-Crawford and the post-Crawford table applies.
    ///
    /// ```
    /// use gammon_engine::met::Met;
    /// let met = Met::kazaross_xg2();
    /// // 5-point match at 0-0: winning a 2-cube leaves me 3-away against 5.
    /// assert_eq!(met.mwc_after((5, 5), false, 2, true), met.mwc(3, 5));
    /// // Post-Crawford, 3-away against 1-away: losing 1 point loses the match.
    /// assert_eq!(met.mwc_after((3, 1), false, 1, false), 0.0);
    /// assert_eq!(met.mwc_after((3, 1), false, 1, true), met.post_crawford(2));
    /// ```
    pub fn mwc_after(&self, away: (u32, u32), crawford: bool, points: u32, i_win: bool) -> f64 {
        let (me, opp) = away;
        let (new_me, new_opp) = if i_win { (me.saturating_sub(points), opp) } else { (me, opp.saturating_sub(points)) };
        if new_me == 0 {
            return 1.0;
        }
        if new_opp == 0 {
            return 0.0;
        }
        if crawford || me == 1 || opp == 1 {
            if new_me == 1 {
                1.0 - self.post_crawford(new_opp)
            } else {
                self.post_crawford(new_me)
            }
        } else {
            self.mwc(new_me, new_opp)
        }
    }

    /// My match winning chances if I win / lose `cube` points from `away`.
    fn win_lose(&self, away: (u32, u32), crawford: bool, cube: u32) -> (f64, f64) {
        (self.mwc_after(away, crawford, cube, true), self.mwc_after(away, crawford, cube, false))
    }

    /// gnubg's `eq2mwc`: the match winning chances of a normalised equity
    /// `eq` (-1 = losing `cube` points, +1 = winning them, linear in between
    /// and beyond) at the score `away`.
    pub fn eq2mwc(&self, eq: f64, cube: u32, away: (u32, u32), crawford: bool) -> f64 {
        let (win, lose) = self.win_lose(away, crawford, cube);
        0.5 * (eq * (win - lose) + (win + lose))
    }

    /// gnubg's `mwc2eq`: the inverse of [`eq2mwc`](Self::eq2mwc), the
    /// "equivalent-to-money" equity of match winning chances `mwc`.
    ///
    /// ```
    /// use gammon_engine::met::Met;
    /// let met = Met::kazaross_xg2();
    /// // Double/pass at 0-0 in a 5-point match: the 4-away/5-away entry, +1.
    /// let dp = met.mwc_after((5, 5), false, 1, true);
    /// assert_eq!(dp, 0.57732);
    /// assert!((met.mwc2eq(dp, 1, (5, 5), false) - 1.0).abs() < 1e-12);
    /// ```
    pub fn mwc2eq(&self, mwc: f64, cube: u32, away: (u32, u32), crawford: bool) -> f64 {
        let (win, lose) = self.win_lose(away, crawford, cube);
        let span = win - lose;
        if span.abs() < 1e-12 {
            // Nothing at stake (cannot happen for a valid score).
            0.0
        } else {
            (2.0 * mwc - (win + lose)) / span
        }
    }

    /// gnubg's gammon and backgammon prices for the player on roll (needing
    /// `away.0`) with cube value `cube`.
    ///
    /// ```
    /// use gammon_engine::met::Met;
    /// let met = Met::kazaross_xg2();
    /// let g = met.gammon_prices((5, 5), 1);
    /// assert!((g.my_gammon - 0.913477).abs() < 2e-6);
    /// assert!((g.my_backgammon - 1.236938).abs() < 2e-6);
    /// ```
    pub fn gammon_prices(&self, away: (u32, u32), cube: u32) -> GammonPrices {
        // gnubg precomputes the prices with the Crawford flag off; the
        // post-Crawford table is chosen by the 1-away score anyway.
        let at = |points: u32, i_win: bool| self.mwc_after(away, false, points, i_win);
        let (win, win_g, win_bg) = (at(cube, true), at(2 * cube, true), at(3 * cube, true));
        let (lose, lose_g, lose_bg) = (at(cube, false), at(2 * cube, false), at(3 * cube, false));
        let center = (win + lose) / 2.0;
        let half = win - center;
        if half.abs() <= 1e-7 {
            return GammonPrices::NONE;
        }
        let my_gammon = (win_g - center) / half - 1.0;
        let opp_gammon = (center - lose_g) / half - 1.0;
        let my_backgammon = (win_bg - center) / half - (my_gammon + 1.0);
        let opp_backgammon = (center - lose_bg) / half - (opp_gammon + 1.0);
        GammonPrices {
            my_gammon: my_gammon.max(0.0),
            my_backgammon: my_backgammon.max(0.0),
            opp_gammon: opp_gammon.max(0.0),
            opp_backgammon: opp_backgammon.max(0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        let ok = "# c\n[pre-crawford]\n0.5 0.6\n0.4 0.5\n[post-crawford]\n0.5 0.45\n";
        let met = Met::parse(ok).unwrap();
        assert_eq!(met.max_away(), 2);
        assert_eq!(met.mwc(2, 1), 0.4);
        assert!(matches!(Met::parse("0.5\n"), Err(MetError::Section { line: 1, .. })));
        assert!(matches!(Met::parse("[pre-crawford]\n0.5 x\n"), Err(MetError::BadNumber { line: 2, .. })));
        assert!(matches!(Met::parse("[pre-crawford]\n1.5\n"), Err(MetError::BadNumber { .. })));
        assert!(matches!(Met::parse("[pre-crawford]\n0.5 0.5\n[post-crawford]\n0.5\n"), Err(MetError::Shape { .. })));
        assert!(matches!(Met::parse("[other]\n"), Err(MetError::Section { .. })));
        assert!(matches!(Met::parse(""), Err(MetError::Shape { rows: 0, .. })));
    }

    #[test]
    fn beyond_the_table_reads_its_edge() {
        let met = Met::kazaross_xg2();
        assert_eq!(met.mwc(40, 3), met.mwc(25, 3));
        assert_eq!(met.post_crawford(99), met.post_crawford(25));
    }
}
