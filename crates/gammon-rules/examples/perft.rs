//! `cargo run --release -p gammon-rules --example perft -- <position-id|start> <depth>`
use gammon_rules::{perft, Position};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos = match args.get(1).map(String::as_str) {
        None | Some("start") => Position::STARTING,
        Some(id) => match Position::from_position_id(id) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        },
    };
    let depth = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(2);
    let t = std::time::Instant::now();
    let n = perft(&pos, depth);
    println!("{n} ({:.2?})", t.elapsed());
}
