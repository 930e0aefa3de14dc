//! Profiling aid: evaluates every result of every roll of a positions file
//! (one Position ID a line, e.g. wildbg's benchmark positions) with the
//! shipped nets, keeping those of one class, and prints a checksum of every
//! output's bits (equal checksums: bit-identical evaluations) and the rate.
//! With a fourth argument `roll`, each roll's results are evaluated in one
//! `Evaluator::evaluate_batch` call, as search and play do.
//! `cargo run --release -p gammon-eval --example eval_loop -- <file> <contact|race> <iterations> [roll]`
use gammon_eval::{Evaluator, NetEvaluator, PositionClass, Probabilities};
use gammon_rules::{MoveList, Position, ALL_ROLLS};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(file), Some(class)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: eval_loop <file> <contact|race> <iterations>");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("error: {file}: {e}");
        std::process::exit(2)
    });
    let class = if class == "race" { PositionClass::Race } else { PositionClass::Contact };
    let iterations: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(10);
    let mut list = MoveList::new();
    let by_roll = args.get(4).is_some_and(|a| a == "roll");
    let mut positions = Vec::new();
    // Where each roll's results start in `positions`.
    let mut rolls = vec![0];
    for p in text.lines().filter_map(|l| Position::from_position_id(l.trim()).ok()) {
        for d in ALL_ROLLS {
            list.generate(&p, d);
            positions.extend(list.positions().iter().filter(|r| PositionClass::of(r) == class));
            rolls.push(positions.len());
        }
    }
    positions.truncate(50_000);
    rolls.retain(|&r| r < positions.len());
    rolls.push(positions.len());
    let mut values = vec![Probabilities::default(); positions.len()];
    let net = NetEvaluator::shipped().unwrap_or_else(|e| {
        eprintln!("error: shipped weights: {e}");
        std::process::exit(2)
    });
    let mut scratch = net.scratch();
    let mut checksum = 0u64;
    let t = std::time::Instant::now();
    for _ in 0..iterations {
        checksum = 0;
        if by_roll {
            for w in rolls.windows(2) {
                net.evaluate_batch(&positions[w[0]..w[1]], &mut values[w[0]..w[1]]);
            }
        } else {
            for (p, v) in positions.iter().zip(values.iter_mut()) {
                *v = net.evaluate_with(p, &mut scratch).0;
            }
        }
        for v in &values {
            for x in v.to_array() {
                checksum = (checksum ^ u64::from(x.to_bits())).wrapping_mul(0x0100_0000_01B3);
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let n = positions.len() * iterations;
    println!("{n} evaluations, checksum {checksum:016x}, {:.3} M/s", n as f64 / secs / 1e6);
}
