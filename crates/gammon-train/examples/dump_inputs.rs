//! Writes the encoded inputs of one net's positions for experiments outside
//! Rust: `dump_inputs KIND OUT_PREFIX FILE...` (datasets or yardstick TSVs) writes OUT_PREFIX.x
//! (f32, positions x inputs), .y (f32, positions x 5), .meta (u8: file
//! index, validation flag at 5%).
use gammon_eval::inputs::SparseInputs;
use gammon_eval::weights::NetKind;
use gammon_train::benchmark::LabelledSet;
use gammon_train::supervised::is_validation;
use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let kind = match args.get(1).map(String::as_str) {
        Some("contact") => NetKind::Contact,
        Some("crashed") => NetKind::Crashed,
        Some("race") => NetKind::Race,
        _ => return Err("usage: dump_inputs contact|crashed|race OUT FILE.gds...".into()),
    };
    let out = args.get(2).ok_or("name OUT")?;
    if let Some(weights) = out.strip_prefix("weights=") {
        // dump_inputs KIND weights=W.gnn PREFIX: w1 (inputs x hidden), b1, w2 (5 x hidden), b2.
        let w = gammon_eval::weights::NetWeights::load(std::path::Path::new(weights))?;
        let net = w.net(kind);
        let prefix = args.get(3).ok_or("name PREFIX")?;
        let parts = [
            ("w1", net.w1.as_slice()),
            ("b1", net.b1.as_slice()),
            ("w2", net.w2.as_slice()),
            ("b2", net.b2.as_slice()),
        ];
        for (name, values) in parts {
            let bytes: Vec<u8> = values.unwrap_or_default().iter().flat_map(|v| v.to_le_bytes()).collect();
            std::fs::write(format!("{prefix}.{name}"), bytes)?;
        }
        eprintln!("{} x {}", net.inputs(), net.hidden());
        return Ok(());
    }
    let mut x = std::io::BufWriter::new(std::fs::File::create(format!("{out}.x"))?);
    let mut y = std::io::BufWriter::new(std::fs::File::create(format!("{out}.y"))?);
    let mut meta = std::io::BufWriter::new(std::fs::File::create(format!("{out}.meta"))?);
    let mut inputs = SparseInputs::with_capacity(512);
    let mut n = 0usize;
    for (f, path) in args[3..].iter().enumerate() {
        let file = u8::try_from(f).map_err(|_| "at most 256 files")?;
        // Yardstick TSVs and datasets alike, as `gammon benchmark` reads them.
        for p in LabelledSet::read(std::path::Path::new(path))?.positions {
            if NetKind::of_position(&p.position) != Some(kind) {
                continue;
            }
            kind.encode(&p.position, &mut inputs);
            for v in inputs.to_dense(kind.inputs()) {
                x.write_all(&v.to_le_bytes())?;
            }
            for v in p.label {
                y.write_all(&(v as f32).to_le_bytes())?;
            }
            let validation = is_validation(&p.position.to_position_id(), 0.05);
            meta.write_all(&[file, u8::from(validation)])?;
            n += 1;
        }
    }
    eprintln!("{n} positions, {} inputs", kind.inputs());
    Ok(())
}
