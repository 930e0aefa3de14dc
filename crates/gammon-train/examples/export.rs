//! Writes the weights held in a checkpoint: `export <checkpoint.gck> <out.gnn>`.
use gammon_train::Checkpoint;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(from), Some(to)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: export <checkpoint.gck> <out.gnn>");
        std::process::exit(2);
    };
    let result = Checkpoint::load(std::path::Path::new(from)).and_then(|c| {
        let mut w = c.weights;
        w.meta.games = c.games_done;
        w.meta.seed = c.config.seed;
        w.meta.notes = format!("gammon {} at {} games", c.config.name, c.games_done);
        w.save(std::path::Path::new(to))
    });
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
