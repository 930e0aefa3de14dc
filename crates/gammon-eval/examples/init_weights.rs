//! Writes freshly initialised (untrained) weights: `init_weights <path> [contact-hidden race-hidden seed]`.
use gammon_eval::NetWeights;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: init_weights <path> [contact-hidden race-hidden seed]");
        std::process::exit(2);
    };
    let num = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let w = NetWeights::random(num(2, 128) as usize, num(3, 64) as usize, num(4, 1));
    if let Err(e) = w.save(std::path::Path::new(path)) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
