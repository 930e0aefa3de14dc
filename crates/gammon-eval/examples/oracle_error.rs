//! How far a net's static evaluations are from gnubg's 2-ply ones on the
//! oracle's evaluation positions, by gnubg's position class and by category,
//! beside gnubg's own 0-ply distance to its 2-ply values for scale.
//!
//! `cargo run --release -p gammon-eval --example oracle_error -- [weights.gnn] [oracle dir]`
//!
//! A much steadier yardstick than duels for comparing nets of similar
//! strength (no dice noise), but a proxy: it measures values, not move choices.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use gammon_eval::{Evaluator, NetEvaluator, NetWeights};
use gammon_rules::Position;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Tally {
    n: usize,
    abs: f64,
    bias: f64,
    gnubg0_abs: f64,
}

impl Tally {
    fn add(&mut self, ours: f64, reference: f64, gnubg0: f64) {
        self.n += 1;
        self.abs += (ours - reference).abs();
        self.bias += ours - reference;
        self.gnubg0_abs += (gnubg0 - reference).abs();
    }

    fn line(&self, name: &str) -> String {
        let n = self.n as f64;
        format!("{name:16} {:5} {:>10.4} {:>+10.4} {:>12.4}", self.n, self.abs / n, self.bias / n, self.gnubg0_abs / n)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let net = match args.get(1) {
        Some(p) => NetEvaluator::new(NetWeights::load(Path::new(p)).expect("weights file")),
        None => NetEvaluator::shipped().expect("shipped weights"),
    };
    let dir = args.get(2).map_or_else(gammon_testkit::oracle_dir, PathBuf::from);
    let text = std::fs::read_to_string(dir.join("eval.jsonl")).expect("oracle eval.jsonl");
    let mut by_class: BTreeMap<String, Tally> = BTreeMap::new();
    let mut by_category: BTreeMap<String, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    for line in text.lines() {
        let r: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let class = r["class"].as_str().unwrap_or("?").to_string();
        if class.starts_with("bearoff") {
            continue; // exact databases on both sides
        }
        let pos = Position::from_position_id(r["pos"].as_str().unwrap_or("")).expect("Position ID");
        let equity = |key: &str| r[key][5].as_f64().expect("equity");
        let ours = f64::from(net.evaluate(&pos).equity());
        let (reference, gnubg0) = (equity("ply2"), equity("ply0"));
        all.add(ours, reference, gnubg0);
        by_class.entry(class).or_default().add(ours, reference, gnubg0);
        by_category.entry(r["cat"].as_str().unwrap_or("?").to_string()).or_default().add(ours, reference, gnubg0);
    }
    println!("{}", net.name());
    println!("{:16} {:>5} {:>10} {:>10} {:>12}", "equity vs gnubg 2-ply", "n", "mean |d|", "bias", "gnubg 0-ply");
    println!("{}", all.line("all"));
    for (name, t) in &by_class {
        println!("{}", t.line(name));
    }
    println!();
    for (name, t) in &by_category {
        println!("{}", t.line(name));
    }
}
