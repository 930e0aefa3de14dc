//! A research tool for the labelling campaign: would fewer rollout trials a
//! label (and so more labels for the same CPU) fit as well? Writes a copy of
//! a rollout dataset with more noise in its labels, as if each had been
//! rolled out with `1/(1+k)` of its trials: each output gets a normal
//! deviate of `sqrt(k)` times its own standard error (independent between
//! outputs: on 20 positions of c020 a real rollout's equity error was 0.91
//! times what independent outputs give, training/runs/c-fit14), then the
//! label is put back in order (a backgammon is a gammon and a gammon a win).
//! Standard errors are scaled to match.
//!
//!     label_noise <in.gds> <out.gds> <k> <seed>
use gammon_train::dataset::Dataset;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn normal(rng: &mut ChaCha8Rng) -> f32 {
    // Box-Muller: two uniforms in (0, 1] give a standard normal deviate.
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

fn order(l: &mut [f32; 5]) {
    let [w, wg, wb, lg, lb] = l;
    *w = w.clamp(0.0, 1.0);
    *wg = wg.clamp(0.0, *w);
    *wb = wb.clamp(0.0, *wg);
    *lg = lg.clamp(0.0, 1.0 - *w);
    *lb = lb.clamp(0.0, *lg);
}

fn run(args: &[String]) -> Result<String, String> {
    let [_, from, to, k, seed] = args else {
        return Err("usage: label_noise <in.gds> <out.gds> <k> <seed>".into());
    };
    let k: f32 = k.parse().map_err(|_| format!("k: not a number: {k}"))?;
    let seed: u64 = seed.parse().map_err(|_| format!("seed: not a whole number: {seed}"))?;
    if !(k > 0.0 && k <= 100.0) {
        return Err(format!("k: {k} is not in (0, 100]"));
    }
    let mut d = Dataset::load(std::path::Path::new(from)).map_err(|e| format!("{from}: {e}"))?;
    if d.standard_errors.len() != d.labels.len() {
        return Err(format!("{from}: no standard errors (not rollout labels)"));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scale = k.sqrt();
    for (label, se) in d.labels.iter_mut().zip(d.standard_errors.iter_mut()) {
        for (l, s) in label.iter_mut().zip(se.iter_mut()) {
            *l += scale * *s * normal(&mut rng);
            *s *= (1.0 + k).sqrt();
        }
        order(label);
    }
    d.labeller = format!("{} + label_noise k={k} seed={seed}", d.labeller);
    d.save(std::path::Path::new(to)).map_err(|e| format!("{to}: {e}"))?;
    Ok(format!("{} labels with noise k={k} in {to}", d.labels.len()))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match run(&args) {
        Ok(msg) => println!("{msg}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
