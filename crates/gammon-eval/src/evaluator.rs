//! The evaluator trait shared by nets, databases and pubeval.

use crate::probabilities::Probabilities;
use gammon_rules::Position;

/// Anything that can judge positions. Two methods are required: evaluate a
/// batch of positions, each seen from its side on roll, before the roll, and
/// a name.
/// Search, rollouts and play are built on top of it.
pub trait Evaluator: Sync {
    /// Writes the probabilities of `positions[i]` (for its side on roll) to
    /// `out[i]`. `out` has the same length as `positions`.
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]);

    /// One position.
    fn evaluate(&self, position: &Position) -> Probabilities {
        let mut out = [Probabilities::default()];
        self.evaluate_batch(std::slice::from_ref(position), &mut out);
        out[0]
    }

    /// The index of the best of `results` (legal results of a move from
    /// `before`, each seen by the opponent, who is now on roll): the one the
    /// opponent likes least. Ties go to the first.
    fn best_move(&self, before: &Position, results: &[Position]) -> usize {
        let _ = before;
        let mut scratch = vec![Probabilities::default(); results.len()];
        self.evaluate_batch(results, &mut scratch);
        let mut best = 0;
        let mut best_equity = f32::INFINITY;
        for (i, p) in scratch.iter().enumerate() {
            let e = p.equity();
            if e < best_equity {
                best_equity = e;
                best = i;
            }
        }
        best
    }

    /// [`best_move`](Self::best_move) and the value of the result it picks
    /// (as [`evaluate`](Self::evaluate) gives it), for callers that need
    /// both: an evaluator that values every result to choose overrides it to
    /// keep the value instead of evaluating again.
    fn best_move_valued(&self, before: &Position, results: &[Position]) -> (usize, Probabilities) {
        let i = self.best_move(before, results);
        (i, results.get(i).map(|r| self.evaluate(r)).unwrap_or_default())
    }

    /// A short name for logs and results.
    fn name(&self) -> String;
}

/// A boxed evaluator (chosen at run time: a net, pubeval, a weights file)
/// is an evaluator: searches and engines can hold one.
impl<T: Evaluator + ?Sized> Evaluator for Box<T> {
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
        (**self).evaluate_batch(positions, out);
    }
    fn evaluate(&self, position: &Position) -> Probabilities {
        (**self).evaluate(position)
    }
    fn best_move(&self, before: &Position, results: &[Position]) -> usize {
        (**self).best_move(before, results)
    }
    fn best_move_valued(&self, before: &Position, results: &[Position]) -> (usize, Probabilities) {
        (**self).best_move_valued(before, results)
    }
    fn name(&self) -> String {
        (**self).name()
    }
}

/// A borrowed evaluator is an evaluator: a search can wrap one it does not own.
impl<T: Evaluator + ?Sized> Evaluator for &T {
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
        (**self).evaluate_batch(positions, out);
    }
    fn evaluate(&self, position: &Position) -> Probabilities {
        (**self).evaluate(position)
    }
    fn best_move(&self, before: &Position, results: &[Position]) -> usize {
        (**self).best_move(before, results)
    }
    fn best_move_valued(&self, before: &Position, results: &[Position]) -> (usize, Probabilities) {
        (**self).best_move_valued(before, results)
    }
    fn name(&self) -> String {
        (**self).name()
    }
}
