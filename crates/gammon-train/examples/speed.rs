//! Training speed:
//! `cargo run --release -p gammon-train --example speed -- <games> <threads> [lambda] [pipeline|rounds] [round_games]`
//! (default: the settings of a new run).
use gammon_train::{pipeline, trainer, Schedule, TrainConfig};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let threads: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let lambda: f32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0.0);
    let defaults = TrainConfig::default();
    let schedule = match args.get(4).map(String::as_str) {
        Some("rounds") => Schedule::Rounds,
        Some("pipeline") | None => Schedule::Pipeline,
        Some(other) => {
            eprintln!("error: unknown schedule {other:?} (pipeline or rounds)");
            std::process::exit(2)
        }
    };
    let round_games = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(defaults.round_games);
    let config = TrainConfig { games, threads, lambda, schedule, round_games, ..defaults };
    let mut state = trainer::start(config.clone(), None);
    let t = Instant::now();
    match schedule {
        Schedule::Pipeline => {
            if let Err(e) = pipeline::train_pipeline(&mut state, games, &AtomicBool::new(false)) {
                eprintln!("error: {e}");
                std::process::exit(1)
            }
        }
        Schedule::Rounds => {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| {
                eprintln!("error: {e}");
                std::process::exit(1)
            });
            let mut done = 0;
            while done < games {
                let n = config.round_games.min(games - done);
                pool.install(|| trainer::train_round(&mut state.weights, &config, done, n));
                done += n;
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{games} games, {threads} threads, lambda {lambda}, {schedule:?} of {round_games}: {:.0} games/s",
        games as f64 / secs
    );
}
