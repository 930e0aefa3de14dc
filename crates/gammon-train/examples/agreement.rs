//! How often a net's 0-ply move equals a teacher's 1-ply move, on positions
//! from the teacher's self-play: `agreement <teacher.gnn> <student.gnn> [N]`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use gammon_eval::net::{evaluate_position, Scratch};
use gammon_eval::NetWeights;
use gammon_rules::{MoveList, ALL_ROLLS};
use gammon_train::distill::{labeller, sample_positions};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let teacher = NetWeights::load(Path::new(&args[1])).expect("teacher");
    let student = NetWeights::load(Path::new(&args[2])).expect("student");
    let n: usize = args.get(3).map_or(2000, |s| s.parse().expect("N"));
    let positions = sample_positions(&teacher, n, 777, 0.0);
    let (mut st, mut tt) = (Scratch::new(&student), Scratch::new(&teacher));
    let mut list = MoveList::new();
    // One search for all the teacher's 1-ply values (and its cache).
    let one_ply_search = labeller(&teacher, 1);
    let (mut same_student, mut same_teacher0, mut choices) = (0, 0, 0);
    let mut loss_student = 0.0f64;
    let mut loss_teacher0 = 0.0f64;
    for (k, pos) in positions.iter().enumerate() {
        let dice = ALL_ROLLS[k % 21];
        list.generate(pos, dice);
        if list.len() < 2 {
            continue;
        }
        let one_ply: Vec<f32> = list.positions().iter().map(|r| one_ply_search.value(r, 1).equity()).collect();
        let best = |v: &[f32]| v.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).map(|x| x.0).unwrap();
        let b1 = best(&one_ply);
        let s0: Vec<f32> =
            list.positions().iter().map(|r| evaluate_position(&student, r, &mut st).0.equity()).collect();
        let t0: Vec<f32> =
            list.positions().iter().map(|r| evaluate_position(&teacher, r, &mut tt).0.equity()).collect();
        let (bs, bt) = (best(&s0), best(&t0));
        choices += 1;
        same_student += usize::from(bs == b1);
        same_teacher0 += usize::from(bt == b1);
        loss_student += f64::from(one_ply[bs] - one_ply[b1]);
        loss_teacher0 += f64::from(one_ply[bt] - one_ply[b1]);
    }
    println!(
        "{choices} choices: teacher 0-ply = teacher 1-ply {:.1}% (1-ply loss {:.4}/move), student 0-ply = teacher 1-ply {:.1}% (loss {:.4}/move)",
        100.0 * same_teacher0 as f64 / choices as f64,
        loss_teacher0 / choices as f64,
        100.0 * same_student as f64 / choices as f64,
        loss_student / choices as f64
    );
}
