//! Profiling aid: evaluates every result of every roll of a positions file
//! (one Position ID a line, e.g. wildbg's benchmark positions) with the
//! shipped nets, keeping those of one class, and prints a checksum of every
//! output's bits (equal checksums: bit-identical evaluations) and the rate.
//! `cargo run --release -p gammon-eval --example eval_loop -- <file> <contact|race> <iterations>`
use gammon_eval::{NetEvaluator, PositionClass};
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
    let mut positions = Vec::new();
    for p in text.lines().filter_map(|l| Position::from_position_id(l.trim()).ok()) {
        for d in ALL_ROLLS {
            list.generate(&p, d);
            positions.extend(list.positions().iter().filter(|r| PositionClass::of(r) == class));
        }
    }
    positions.truncate(50_000);
    let net = NetEvaluator::shipped().unwrap_or_else(|e| {
        eprintln!("error: shipped weights: {e}");
        std::process::exit(2)
    });
    let mut scratch = net.scratch();
    let mut checksum = 0u64;
    let t = std::time::Instant::now();
    for _ in 0..iterations {
        checksum = 0;
        for p in &positions {
            let v = net.evaluate_with(p, &mut scratch).0;
            for x in v.to_array() {
                checksum = (checksum ^ u64::from(x.to_bits())).wrapping_mul(0x0100_0000_01B3);
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let n = positions.len() * iterations;
    println!("{n} evaluations, checksum {checksum:016x}, {:.3} M/s", n as f64 / secs / 1e6);
}
