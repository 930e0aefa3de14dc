//! Writes the two-sided bearoff database as JSON Lines, one pair per line:
//! `{"us":[6 counts, ace point first],"them":[...],"win":P,"owned":E,"centred":E,"opponent_owns":E}`
//! (the side on roll is `us`; the cubeful equities are those with no double
//! now, as stored; pairs where a side has borne everything off are left out). `stride` keeps every `stride`-th pair (1: all 851,929).
//!
//! `cargo run --release -p gammon-eval --example bearoff2_dump -- OUT.jsonl [stride]`
//!
//! `scripts/compare_gnubg_bearoff2.py` compares the file with gnubg's.
use gammon_eval::bearoff::layout;
use gammon_eval::bearoff_two_sided::bearoff_two_sided_db;
use gammon_eval::file_format::{FileError, Output};
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: bearoff2_dump OUT.jsonl [stride]");
        std::process::exit(2);
    };
    let stride: usize = match args.get(2).map(|s| s.parse()) {
        None => 1,
        Some(Ok(s)) if s > 0 => s,
        Some(_) => {
            eprintln!("error: the stride must be a positive whole number");
            std::process::exit(2);
        }
    };
    if let Err(e) = dump(path, stride) {
        match std::error::Error::source(&e) {
            Some(why) => eprintln!("error: {e}: {why}"),
            None => eprintln!("error: {e}"),
        }
        std::process::exit(1);
    }
}

fn dump(path: &str, stride: usize) -> Result<(), FileError> {
    let db = bearoff_two_sided_db();
    let layouts: Vec<[u8; 6]> = (0..gammon_eval::bearoff::LAYOUTS)
        .filter_map(|r| layout(r).ok())
        .filter(|l| (1..=6).contains(&l.iter().map(|&c| u32::from(c)).sum::<u32>()))
        .collect();
    let mut out = Output::create(std::path::Path::new(path))?;
    let mut k = 0usize;
    for us in &layouts {
        for them in &layouts {
            k += 1;
            if !(k - 1).is_multiple_of(stride) {
                continue;
            }
            let Some(v) = db.values(us, them) else { continue };
            writeln!(
                out,
                "{{\"us\":{us:?},\"them\":{them:?},\"win\":{},\"owned\":{},\"centred\":{},\"opponent_owns\":{}}}",
                v.win, v.owned, v.centred, v.opponent_owns
            )
            .map_err(|e| out.error(e))?;
        }
    }
    out.commit()
}
