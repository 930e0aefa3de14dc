//! Profiling aid: generates moves for the wildbg benchmark positions in a loop.
//! `cargo run --release -p gammon-rules --example movegen_loop -- <file> <doubles|mixed> <iterations>`
use gammon_rules::{MoveList, Position, ALL_ROLLS};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        eprintln!("usage: movegen_loop <file> <doubles|mixed> <iterations>");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("error: {file}: {e}");
        std::process::exit(2)
    });
    let positions: Vec<Position> = text.lines().filter_map(|l| Position::from_position_id(l.trim()).ok()).collect();
    let doubles = args.get(2).is_some_and(|a| a == "doubles");
    let iterations: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(100);
    let rolls: Vec<_> = ALL_ROLLS.iter().copied().filter(|d| d.is_double() == doubles).collect();
    let mut list = MoveList::new();
    let mut total = 0usize;
    let t = std::time::Instant::now();
    for _ in 0..iterations {
        for p in &positions {
            for &d in &rolls {
                // Opaque to the optimizer: no work is hoisted out of the roll loop.
                list.generate(std::hint::black_box(p), d);
                total += list.len().max(1);
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!("{total} results, {:.1} M/s", total as f64 / secs / 1e6);
}
