//! A move one checker step at a time: every order in which the steps of
//! each legal move may be played, each step with its die and whether it hits.
//!
//! A client that takes a move by clicks (the web page) matches the clicks
//! against these orders and needs no rules of its own: which step the bar
//! forces first, when bearing off is allowed and which checker a higher die
//! bears off are decided here, by [`legal_sources`].

use crate::dice::Dice;
#[cfg(doc)]
use crate::movegen::MoveList;
use crate::movegen::{legal_sources, Move};
use crate::position::{Position, BAR, OFF};
use std::collections::HashMap;

/// One checker step as played: `from` 1..=25 (25 = bar), `to` 0..=24
/// (0 = off), in the mover's numbering, with the die it uses and whether it
/// hits an opposing blot on `to`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PlayedStep {
    /// Start point (25 = bar).
    pub from: u8,
    /// End point (0 = borne off).
    pub to: u8,
    /// The die the step uses (more than `from - to` only when a higher die
    /// bears a checker off).
    pub die: u8,
    /// True when an opposing blot on `to` goes to the bar.
    pub hit: bool,
}

impl Position {
    /// One step of the player on roll: his checker on `from` moves `die`
    /// pips, when the rules allow that step now. The position keeps the same
    /// player on roll (it is not switched).
    ///
    /// ```
    /// # use gammon_rules::Position;
    /// let (after, step) = Position::STARTING.play_step(13, 6).unwrap();
    /// assert_eq!((step.to, step.hit), (7, false));
    /// assert_eq!(after.my_checkers(7), 1);
    /// assert!(Position::STARTING.play_step(6, 6).is_none()); // his 1-point is made
    /// ```
    pub fn play_step(&self, from: u8, die: u8) -> Option<(Position, PlayedStep)> {
        if !(1..=6).contains(&die) || from == 0 || usize::from(from) > BAR {
            return None;
        }
        if legal_sources(self, die) & (1 << from) == 0 {
            return None;
        }
        let to = from.saturating_sub(die);
        let (mut me, mut him) = self.to_boards();
        // SideBoard index i is point i + 1; index 24 is the bar.
        me[usize::from(from) - 1] -= 1;
        let mut hit = false;
        if usize::from(to) != OFF {
            me[usize::from(to) - 1] += 1;
            // His point 25 - to is index 24 - to in his numbering.
            let his = 24 - usize::from(to);
            if him[his] == 1 {
                him[his] = 0;
                him[24] += 1;
                hit = true;
            }
        }
        let after = Position::from_boards(&me, &him).ok()?;
        Some((after, PlayedStep { from, to, die, hit }))
    }

    /// Replays `mv` step by step from this position: its steps with their
    /// dice and hits, or `None` when a step is not legal at its turn.
    pub fn replay_move(&self, dice: Dice, mv: &Move) -> Option<Vec<PlayedStep>> {
        let mut left = dice_of(dice);
        let mut pos = *self;
        let mut out = Vec::with_capacity(mv.steps().len());
        for s in mv.steps() {
            // The exact die first; bearing off may take a higher one.
            let exact = s.from - s.to;
            let die =
                if left.contains(&exact) { exact } else { *left.iter().filter(|&&d| s.to == 0 && d > exact).min()? };
            let (next, step) = pos.play_step(s.from, die)?;
            left.remove(left.iter().position(|&d| d == die)?);
            out.push(step);
            pos = next;
        }
        Some(out)
    }

    /// Every way to play this position's legal `moves` for `dice` one die
    /// at a time, as a graph of partial plays (see [`StepNode`]); each move
    /// uses `dice_used` dice, and `moves` are (move, result) as
    /// [`MoveList::iter`] gives them. Node 0 is the start; empty when no
    /// checker can move.
    pub fn step_graph(
        &self,
        dice: Dice,
        dice_used: u8,
        moves: impl IntoIterator<Item = (Move, Position)>,
    ) -> Vec<StepNode> {
        let mut graph = Graph {
            results: moves.into_iter().enumerate().map(|(i, (_, result))| (result, i)).collect(),
            target: usize::from(dice_used),
            memo: HashMap::new(),
            nodes: Vec::new(),
        };
        if graph.node(*self, dice_of(dice), 0).is_none() {
            return Vec::new();
        }
        // Built children first: reversed, the start is node 0.
        let last = graph.nodes.len() - 1;
        let mut nodes = graph.nodes;
        nodes.reverse();
        for node in &mut nodes {
            for (_, next) in &mut node.steps {
                *next = last - *next;
            }
        }
        nodes
    }
}

/// One partial play in [`Position::step_graph`]: the steps that may come
/// next, each with the node it leads to, and the legal move it completes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepNode {
    /// The next steps (none once a move is complete), each with its node.
    pub steps: Vec<(PlayedStep, usize)>,
    /// The index in the moves of the move this play completes.
    pub completes: Option<usize>,
}

/// Every path of a [`Position::step_graph`] from its start: for each of its
/// `moves` moves, every order of steps that plays it.
pub fn step_orders(graph: &[StepNode], moves: usize) -> Vec<Vec<Vec<PlayedStep>>> {
    fn walk(graph: &[StepNode], at: usize, path: &mut Vec<PlayedStep>, out: &mut [Vec<Vec<PlayedStep>>]) {
        if let Some(m) = graph[at].completes {
            out[m].push(path.clone());
        }
        for &(step, next) in &graph[at].steps {
            path.push(step);
            walk(graph, next, path, out);
            path.pop();
        }
    }
    let mut out = vec![Vec::new(); moves];
    if !graph.is_empty() {
        walk(graph, 0, &mut Vec::new(), &mut out);
    }
    out
}

struct Graph {
    results: HashMap<Position, usize>,
    target: usize,
    /// Partial plays by their board and the dice left; `None`: a dead end.
    memo: HashMap<(Position, Vec<u8>), Option<usize>>,
    nodes: Vec<StepNode>,
}

impl Graph {
    /// The node of the play that reached `pos` with the dice `left` after
    /// `depth` steps, or `None` when no legal move can follow from it.
    fn node(&mut self, pos: Position, left: Vec<u8>, depth: usize) -> Option<usize> {
        let key = (pos, left);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let (pos, left) = key;
        let mut steps: Vec<(PlayedStep, usize)> = Vec::new();
        let mut moved = false;
        if depth < self.target {
            let mut dice = left.clone();
            dice.dedup();
            for die in dice {
                let mut sources = legal_sources(&pos, die);
                while sources != 0 {
                    let from = sources.trailing_zeros() as u8;
                    sources &= sources - 1;
                    let Some((next, step)) = pos.play_step(from, die) else { continue };
                    moved = true;
                    let mut rest = left.clone();
                    rest.remove(rest.iter().position(|&d| d == die).unwrap_or(0));
                    // A higher die bearing the same checker off is the same step.
                    if steps.iter().any(|(s, _)| s.from == step.from && s.to == step.to) {
                        continue;
                    }
                    if let Some(child) = self.node(next, rest, depth + 1) {
                        steps.push((step, child));
                    }
                }
            }
        }
        // A play is complete when no step can follow (all dice used, or
        // none playable): then it must be one of the legal moves.
        let completes = if moved { None } else { self.results.get(&pos.switched()).copied() };
        let index = if steps.is_empty() && completes.is_none() {
            None
        } else {
            self.nodes.push(StepNode { steps, completes });
            Some(self.nodes.len() - 1)
        };
        self.memo.insert((pos, left), index);
        index
    }
}

/// The dice to play: four of a double.
fn dice_of(dice: Dice) -> Vec<u8> {
    if dice.is_double() {
        vec![dice.high(); 4]
    } else {
        vec![dice.high(), dice.low()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orders(id: &str, d1: u8, d2: u8) -> Vec<(String, Vec<String>)> {
        let pos = Position::from_position_id(id).unwrap();
        let dice = Dice::new(d1, d2).unwrap();
        let list = pos.legal_moves(dice);
        let all = step_orders(&pos.step_graph(dice, list.dice_used(), list.iter()), list.len());
        list.iter()
            .zip(all)
            .map(|((mv, _), o)| {
                let text = |s: &[PlayedStep]| {
                    s.iter()
                        .map(|s| format!("{}/{}{}", s.from, s.to, if s.hit { "*" } else { "" }))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                (pos.format_move(&mv), o.iter().map(|s| text(s)).collect())
            })
            .collect()
    }

    #[test]
    fn a_six_one_from_the_start_plays_in_either_order() {
        let all = orders("4HPwATDgc/ABMA", 6, 1);
        let (_, point) = all.iter().find(|(n, _)| n == "13/7 8/7").unwrap();
        assert_eq!(point.len(), 2, "{point:?}");
        assert!(point.contains(&"13/7 8/7".to_string()) && point.contains(&"8/7 13/7".to_string()), "{point:?}");
        // One checker with both dice: through 12 is blocked, so through 7 only.
        let (_, run) = all.iter().find(|(n, _)| n == "13/6").unwrap_or_else(|| panic!("{all:?}"));
        assert_eq!(run, &["13/7 7/6"]);
        // With 5-2 both ways are open, through 8 or through 11, and a
        // checker already on 8 may go on first.
        let all = orders("4HPwATDgc/ABMA", 5, 2);
        let (_, run) = all.iter().find(|(n, _)| n == "13/6").unwrap_or_else(|| panic!("{all:?}"));
        let mut run = run.clone();
        run.sort();
        assert_eq!(run, ["13/11 11/6", "13/8 8/6", "8/6 13/8"]);
    }

    #[test]
    fn a_checker_on_the_bar_enters_first() {
        // On the bar, the rest as at the start; the opponent's 6-point made.
        let pos = Position::STARTING;
        let (mut me, him) = pos.to_boards();
        me[23] -= 1;
        me[24] += 1;
        let pos = Position::from_boards(&me, &him).unwrap();
        let dice = Dice::new(6, 4).unwrap();
        let list = pos.legal_moves(dice);
        let graph = pos.step_graph(dice, list.dice_used(), list.iter());
        for (order, (mv, _)) in step_orders(&graph, list.len()).iter().zip(list.iter()) {
            assert!(!order.is_empty(), "{mv:?}");
            for o in order {
                assert_eq!(o[0].from, 25, "{mv:?}: {o:?}");
                assert_eq!(o[0].die, 4, "the 6 is blocked: {o:?}");
            }
        }
    }

    #[test]
    fn a_higher_die_bears_off_the_highest_checker_only_after_the_others() {
        // My checkers on 5 and 2, dice 6-3: 5/off with the 6 first, then 2/off
        // with the 3; the 3 first would play 5/2, another move.
        let mut me = [0u8; 25];
        me[4] = 1;
        me[1] = 1;
        let mut him = [0u8; 25];
        him[5] = 15;
        let pos = Position::from_boards(&me, &him).unwrap();
        let dice = Dice::new(6, 3).unwrap();
        let list = pos.legal_moves(dice);
        let all = step_orders(&pos.step_graph(dice, list.dice_used(), list.iter()), list.len());
        let off = list.iter().position(|(mv, _)| pos.format_move(&mv) == "5/off 2/off").unwrap();
        assert_eq!(all[off].len(), 1, "{:?}", all[off]);
        let steps = &all[off][0];
        assert_eq!((steps[0].from, steps[0].to, steps[0].die), (5, 0, 6));
        assert_eq!((steps[1].from, steps[1].to, steps[1].die), (2, 0, 3));
    }

    #[test]
    fn a_hit_is_flagged_where_a_blot_is_hit() {
        // His blot on my 7-point (his 18): 13/7* hits, 13/8 does not.
        let mut me = [0u8; 25];
        me[12] = 5;
        me[7] = 3;
        me[5] = 5;
        me[23] = 2;
        let mut him = me;
        him[12] = 4;
        him[17] = 1;
        let pos = Position::from_boards(&me, &him).unwrap();
        let (_, step) = pos.play_step(13, 6).unwrap();
        assert!(step.hit);
        let (_, step) = pos.play_step(13, 5).unwrap();
        assert!(!step.hit);
    }
}
