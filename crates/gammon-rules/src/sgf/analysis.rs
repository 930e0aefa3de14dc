//! gnubg's own analysis stored in an SGF file (`A`, `DA`), read into a
//! [`StoredAnalysis`] in gammon's conventions, so that `gammon convert`
//! carries it and the writer (`write.rs`) writes it back as gnubg had it.
//!
//! Read: a move's candidates (`A[i][move E ver N p0..p4 eq ...]`,
//! evaluations and `X` rollouts: their `Score` and `Output`), the played
//! candidate `i`, and the cube decision (`DA[E ver N …]` with gnubg's two
//! output rows, or an `X` rollout's `NoDouble` and `DoubleTake` outputs).
//! A match's cubeful values are gnubg's match winning chances, turned into
//! EMG with the [`MatchEquity`] given. Anything that does not read (another
//! format version, a candidate that is not a legal move) is left out: the
//! games are what a file is read for.

use super::gnubg::point;
use super::tree::{parse_collection, Node, Visitor};
use crate::mat::write::steps_text;
use crate::MatchEquity;
use crate::{parse_move, MatAction, MatEntry, MatError, MatchRecord, Seat, StoredAnalysis, StoredCandidate};
use crate::{GameText, StoredCube, StoredMove, StoredRecord};

/// One node after a root: who acted, what, and its analysis.
struct NodeText {
    col: usize,
    value: String,
    a: Option<Vec<String>>,
    da: Option<String>,
}

#[derive(Default)]
struct Collect {
    program: Option<String>,
    games: Vec<Vec<NodeText>>,
    in_root: bool,
}

impl Visitor for Collect {
    fn tree(&mut self, _: usize) -> Result<(), MatError> {
        self.games.push(Vec::new());
        self.in_root = true;
        Ok(())
    }

    fn node(&mut self, node: &Node<'_>) -> Result<(), MatError> {
        if std::mem::take(&mut self.in_root) {
            if self.program.is_none() {
                self.program = node.value("AP").map(|ap| ap.replace(':', " "));
            }
            return Ok(());
        }
        let mover = match (node.value("W"), node.value("B")) {
            (Some(v), None) => Some((0, v)),
            (None, Some(v)) => Some((1, v)),
            _ => None,
        };
        if let (Some((col, value)), Some(game)) = (mover, self.games.last_mut()) {
            game.push(NodeText {
                col,
                value: value.trim().to_string(),
                a: node.property("A").map(|p| p.values.iter().map(|v| v.to_string()).collect()),
                da: node.value("DA").map(str::to_string),
            });
        }
        Ok(())
    }

    fn end(&mut self) -> Result<(), MatError> {
        Ok(())
    }
}

/// gnubg's analysis in the SGF `text` of `record` (as [`parse_sgf`] read
/// it), in gammon's conventions; `None` when the file holds none.
///
/// [`parse_sgf`]: crate::parse_sgf
pub fn read_sgf_analysis(text: &str, record: &MatchRecord, equity: &dyn MatchEquity) -> Option<StoredAnalysis> {
    let mut collect = Collect::default();
    parse_collection(text, &mut collect).ok()?;
    let mut stored = StoredAnalysis {
        program: collect.program.unwrap_or_else(|| "GNU Backgammon".into()),
        ..StoredAnalysis::default()
    };
    for (g, (game, nodes)) in record.games.iter().zip(&collect.games).enumerate() {
        for (r, node) in matched(game, nodes) {
            let entry = &game.records[r];
            let mut rec = StoredRecord::default();
            if let Some(da) = &node.da {
                let doubler = match entry.action {
                    MatAction::Take | MatAction::Drop => entry.player.other(),
                    _ => entry.player,
                };
                rec.cube = cube(da, game, entry, doubler, equity);
            }
            if let (Some(a), MatAction::Move { dice, .. }) = (&node.a, &entry.action) {
                rec.chequer = chequer(a, entry, *dice, node.col);
            }
            if rec.cube.is_some() || rec.chequer.is_some() {
                stored.records.insert((g, r), rec);
            }
        }
    }
    (!stored.records.is_empty()).then_some(stored)
}

/// The nodes paired with the records they wrote: rolls with moves and
/// dances, `double` with a double or a beaver (gnubg's beaver is the
/// taker's `double`, whose doubler's `take` writes no record), `take` and
/// `drop` with theirs.
fn matched<'a>(game: &GameText, nodes: &'a [NodeText]) -> Vec<(usize, &'a NodeText)> {
    let mut pairs = Vec::new();
    let mut records = game
        .records
        .iter()
        .enumerate()
        .filter(|(_, r)| !matches!(r.action, MatAction::Resign { .. } | MatAction::Win { .. }));
    let mut after_beaver = false;
    for node in nodes {
        if std::mem::take(&mut after_beaver) && node.value == "take" {
            continue;
        }
        let Some((r, entry)) = records.next() else { break };
        let fits = match (node.value.as_str(), &entry.action) {
            ("double", MatAction::Beaver) => {
                after_beaver = true;
                true
            }
            ("double", MatAction::Double { .. }) | ("take", MatAction::Take) | ("drop", MatAction::Drop) => true,
            (v, MatAction::Move { .. } | MatAction::Dance { .. }) => {
                v.as_bytes().first().is_some_and(u8::is_ascii_digit)
            }
            _ => false,
        };
        if !fits || entry.player.index() != node.col {
            break;
        }
        pairs.push((r, node));
    }
    pairs
}

fn numbers<'a>(words: impl Iterator<Item = &'a str>) -> Vec<f64> {
    words.map_while(|w| w.parse::<f64>().ok()).collect()
}

/// The plies of an evaluation context (`2C`, `0`).
fn plies_of(word: Option<&str>) -> Option<u32> {
    word?.trim_end_matches('C').parse().ok()
}

/// After `ver N` (or without one: version 0), the words that follow.
fn version<'a>(words: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>) -> u32 {
    if words.peek() == Some(&"ver") {
        words.next();
        return words.next().and_then(|v| v.parse().ok()).unwrap_or(0);
    }
    0
}

/// The seven outputs after `keyword` (`NoDouble`, `DoubleTake`, `Output`)
/// of a rollout, then `Output` inside it.
fn rollout_outputs(text: &str, keyword: &str) -> Option<Vec<f64>> {
    let at = text.find(keyword)?;
    let rest = &text[at + keyword.len()..];
    let out = rest.find("Output")?;
    let v = numbers(rest[out + "Output".len()..].split_whitespace());
    (v.len() >= 7).then_some(v)
}

fn cube(da: &str, game: &GameText, entry: &MatEntry, doubler: Seat, equity: &dyn MatchEquity) -> Option<StoredCube> {
    let mut words = da.split_whitespace().peekable();
    let (nd, dt, depth) = match words.next()? {
        "E" => {
            let ver = version(&mut words);
            let depth = plies_of(words.next())?;
            // The evaluation context: version 3 has three words after the
            // plies, version 2 four (a `reduced` field).
            let skip = match ver {
                3 => 3,
                2 => 4,
                _ => return None,
            };
            let v = numbers(words.skip(skip));
            if v.len() < 14 {
                return None;
            }
            (v[..7].to_vec(), v[7..14].to_vec(), format!("{depth}-ply"))
        }
        "X" => (rollout_outputs(da, "NoDouble")?, rollout_outputs(da, "DoubleTake")?, "rollout".to_string()),
        _ => return None,
    };
    let value = |mwc: f64| match game.state.away() {
        Some(away) => {
            let away = (away[doubler.index()], away[doubler.other().index()]);
            equity.mwc2eq(mwc, entry.cube.value, away, game.state.is_crawford())
        }
        None => mwc,
    };
    let c = StoredCube {
        no_double: value(nd[6]),
        double_take: value(dt[6]),
        double_pass: 1.0,
        probabilities: Some([nd[0], nd[1], nd[2], nd[3], nd[4]]),
        depth,
    };
    (c.no_double.is_finite() && c.double_take.is_finite()).then_some(c)
}

fn chequer(a: &[String], entry: &MatEntry, dice: crate::Dice, col: usize) -> Option<StoredMove> {
    let played: usize = a.first()?.trim().parse().ok()?;
    let candidates = a[1..].iter().map(|c| candidate(c, entry, dice, col)).collect::<Option<Vec<_>>>()?;
    if candidates.is_empty() {
        return None;
    }
    Some(StoredMove { played: (played < candidates.len()).then_some(played), candidates })
}

/// `lpab E ver 3 w wg wbg lg lbg eq 2C 0 1 0.000000 1`, or `… X ver 3 Score
/// s s2 Trials n Output o0..o6 …`.
fn candidate(text: &str, entry: &MatEntry, dice: crate::Dice, col: usize) -> Option<StoredCandidate> {
    let (letters, rest) = text.trim_start().split_once(' ').unwrap_or((text.trim(), ""));
    let b = letters.as_bytes();
    if b.len() % 2 != 0 || b.len() > 8 {
        return None;
    }
    let steps: Vec<(u8, u8)> =
        b.chunks(2).map(|p| Some((point(p[0], col)?, point(p[1], col)?))).collect::<Option<Vec<_>>>()?;
    let (_, next) = parse_move(&entry.position, dice, &steps_text(&entry.position, &steps)).ok()?;
    let mut words = rest.split_whitespace().peekable();
    let (probabilities, equity, depth) = match words.next()? {
        "E" => {
            version(&mut words);
            let v = numbers(words.by_ref().take(6));
            if v.len() < 6 {
                return None;
            }
            let depth = plies_of(words.next()).map_or_else(|| "0-ply".into(), |p| format!("{p}-ply"));
            ([v[0], v[1], v[2], v[3], v[4]], v[5], depth)
        }
        "X" => {
            let at = rest.find("Score")?;
            let score = numbers(rest[at + "Score".len()..].split_whitespace());
            let out = rollout_outputs(rest, "Trials")?;
            ([out[0], out[1], out[2], out[3], out[4]], *score.first()?, "rollout".to_string())
        }
        _ => return None,
    };
    equity.is_finite().then(|| StoredCandidate {
        after: next.switched(),
        equity,
        probabilities: Some(probabilities),
        depth,
    })
}
