//! Training speed: `cargo run --release -p gammon-train --example speed -- <games> <threads> [lambda]`.
use gammon_train::{trainer, TrainConfig};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let threads: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let lambda: f32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0.0);
    let config = TrainConfig { games, threads, lambda, ..TrainConfig::default() };
    let mut state = trainer::start(config.clone(), None);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1)
    });
    let t = Instant::now();
    let mut done = 0;
    while done < games {
        let n = config.round_games.min(games - done);
        pool.install(|| trainer::train_round(&mut state.weights, &config, done, n));
        done += n;
    }
    let secs = t.elapsed().as_secs_f64();
    println!("{games} games, {threads} threads, lambda {lambda}: {:.0} games/s", games as f64 / secs);
}
