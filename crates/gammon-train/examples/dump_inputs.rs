//! Writes the encoded inputs of one net's positions for experiments outside
//! Rust: `dump_inputs KIND OUT_PREFIX FILE.gds...` writes OUT_PREFIX.x
//! (f32, positions x inputs), .y (f32, positions x 5), .meta (u8: file
//! index, validation flag at 5%).
use gammon_eval::inputs::SparseInputs;
use gammon_eval::weights::NetKind;
use gammon_rules::Position;
use gammon_train::dataset::Dataset;
use gammon_train::supervised::is_validation;
use std::io::Write;

const MAX_TSV_BYTES: u64 = 256 << 20;

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
        for (name, values) in [("w1", &net.w1.as_slice()), ("w2", &net.w2.as_slice())] {
            let bytes: Vec<u8> = values.unwrap_or_default().iter().flat_map(|v| v.to_le_bytes()).collect();
            std::fs::write(format!("{prefix}.{name}"), bytes)?;
        }
        for (name, values) in [("b1", net.b1.as_slice()), ("b2", net.b2.as_slice())] {
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
        let d = if path.ends_with(".tsv") {
            let mut d = Dataset::default();
            // A yardstick file is a few hundred kB; refuse anything absurd.
            if std::fs::metadata(path)?.len() > MAX_TSV_BYTES {
                return Err(format!("{path}: over {MAX_TSV_BYTES} bytes").into());
            }
            for line in std::fs::read_to_string(path)?.lines() {
                let mut f = line.split_whitespace();
                let (Some(id), rest) = (f.next(), f.map(str::parse::<f32>).collect::<Result<Vec<_>, _>>()?) else {
                    continue;
                };
                d.positions.push(id.to_string());
                d.labels.push(rest.try_into().map_err(|_| "five probabilities")?);
            }
            d
        } else {
            Dataset::load(std::path::Path::new(path))?
        };
        for (id, label) in d.positions.iter().zip(&d.labels) {
            let pos = Position::from_position_id(id)?;
            if NetKind::of_position(&pos) != Some(kind) {
                continue;
            }
            kind.encode(&pos, &mut inputs);
            for v in inputs.to_dense(kind.inputs()) {
                x.write_all(&v.to_le_bytes())?;
            }
            for v in label {
                y.write_all(&v.to_le_bytes())?;
            }
            meta.write_all(&[f as u8, u8::from(is_validation(id, 0.05))])?;
            n += 1;
        }
    }
    eprintln!("{n} positions, {} inputs", kind.inputs());
    Ok(())
}
