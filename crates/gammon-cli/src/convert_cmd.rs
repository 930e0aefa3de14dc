//! `gammon convert IN OUT`: a match file read as any match file is read
//! (the content decides), written in the format OUT's extension names,
//! through the safe writer. What the output format cannot hold is named:
//! refused when nothing sensible can be written, a note on standard error
//! when only something extra is dropped (a `.mat` has no place for a
//! stored analysis).

use crate::args::MetArg;
use anyhow::{bail, Result};
use clap::Args;
use gammon_engine::met::Met;
use gammon_rules::{
    ogxm_headers_not_written, read_match_file_with_analysis, sgf_headers_not_written, write_mat, write_ogxm, write_sgf,
    MatchRecord, SgfAnalysis,
};
use std::path::{Path, PathBuf};

/// Arguments of `gammon convert`.
#[derive(Debug, Args)]
#[command(after_help = "Reads what `gammon review` reads (.mat and other text exports, gnubg .sgf, eXtreme Gammon \
.xg, OGXM; the content decides the format) and writes the format of OUT's extension: .mat (Jellyfish text, as \
gnubg's `export match mat` writes it), .sgf (gnubg's SGF, with the file's stored analysis as gnubg stores \
analysis: gnubg shows its equities and marks) or .ogxm (OGXM v2, with the stored analysis). A .mat cannot hold a \
stored analysis: it is dropped, with a note on standard error; headers a format has no place for are named in a \
note too. --met is the table that turns a match's cube analysis into the match winning chances gnubg stores in \
SGF (use the one gnubg shows the file with; gnubg's default is the built-in Kazaross-XG2).")]
pub struct ConvertArgs {
    /// The match file to read.
    input: PathBuf,
    /// The file to write: .mat, .sgf or .ogxm.
    output: PathBuf,
    // The table of a match's cube analysis in SGF (see the help above).
    #[command(flatten)]
    met: MetArg,
}

/// The formats gammon writes, by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchFormat {
    /// Jellyfish `.mat` text.
    Mat,
    /// gnubg's SGF.
    Sgf,
    /// OGXM v2 binary (`.ogxm`, `.gvab`), with a stored analysis.
    Ogxm,
}

impl MatchFormat {
    /// The format `path`'s extension names.
    ///
    /// # Errors
    /// An extension gammon does not write, named with the ones it does.
    pub fn of(path: &Path) -> Result<MatchFormat> {
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("mat") => Ok(MatchFormat::Mat),
            Some("sgf") => Ok(MatchFormat::Sgf),
            Some("ogxm" | "gvab") => Ok(MatchFormat::Ogxm),
            Some(e @ ("xg" | "xgp")) => {
                bail!("{}: gammon reads .{e} files but cannot write them; write .mat, .sgf or .ogxm", path.display())
            }
            Some(e) => bail!("{}: unknown extension .{e}; gammon writes .mat, .sgf and .ogxm", path.display()),
            None => bail!("{}: no extension to choose the format by; use .mat, .sgf or .ogxm", path.display()),
        }
    }

    /// The bytes of `record` in this format, with a note for each thing
    /// the format cannot hold (`met` converts a match's cube analysis).
    ///
    /// # Errors
    /// What the format cannot hold at all (a player name it cannot write),
    /// or a format whose writer is not in this build.
    pub fn render(self, record: &MatchRecord, met: &Met) -> Result<(Vec<u8>, Vec<String>)> {
        let mut notes = Vec::new();
        let bytes = match self {
            MatchFormat::Mat => {
                if let Some(stored) = &record.stored {
                    notes.push(format!(
                        "a .mat file cannot hold the stored analysis ({}): it is not written",
                        stored.program
                    ));
                }
                write_mat(record)?.into_bytes()
            }
            MatchFormat::Sgf => {
                let dropped = sgf_headers_not_written(record);
                if !dropped.is_empty() {
                    notes.push(format!(
                        "gnubg's SGF has no place for the header(s) {}: not written",
                        dropped.join(", ")
                    ));
                }
                let analysis = record.stored.as_ref().map(|stored| SgfAnalysis { stored, equity: met });
                write_sgf(record, analysis)?.into_bytes()
            }
            MatchFormat::Ogxm => {
                let dropped = ogxm_headers_not_written(record);
                if !dropped.is_empty() {
                    notes.push(format!(
                        "OGXM has no place for the header(s) {}: not written (of the headers it keeps the event, up to 120 bytes)",
                        dropped.join(", ")
                    ));
                }
                write_ogxm(record, record.stored.as_ref(), Some(met))?
            }
        };
        Ok((bytes, notes))
    }
}

/// Writes `record` to `path` in the format of its extension, through the
/// safe writer, the notes on standard error.
///
/// # Errors
/// The format cannot be written (see [`MatchFormat`]) or the file cannot.
pub fn save(record: &MatchRecord, path: &Path, met: &Met) -> Result<()> {
    let (bytes, notes) = MatchFormat::of(path)?.render(record, met)?;
    for note in notes {
        eprintln!("note: {note}");
    }
    gammon_eval::file_format::write_output(path, &bytes)?;
    Ok(())
}

/// Refuses an output that is the input file itself (under another name
/// too): the input would be replaced by what was read from it, and a
/// format that holds less would lose the rest.
///
/// # Errors
/// `output` names the same file as `input`.
pub fn refuse_overwriting(input: &Path, output: &Path) -> Result<()> {
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize()) {
        if a == b {
            bail!("{}: is the input file; write to another file", output.display());
        }
    }
    Ok(())
}

pub fn run(args: &ConvertArgs) -> Result<()> {
    // The output is checked first: a wrong extension costs no reading.
    MatchFormat::of(&args.output)?;
    refuse_overwriting(&args.input, &args.output)?;
    let met = args.met.met()?;
    // gnubg's analysis in an SGF input is read too, and carried into SGF.
    let record = read_match_file_with_analysis(&args.input, &met)?;
    save(&record, &args.output, &met)?;
    eprintln!(
        "wrote {} ({} game{})",
        args.output.display(),
        record.games.len(),
        if record.games.len() == 1 { "" } else { "s" }
    );
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use gammon_rules::{parse_mat, StoredAnalysis};

    fn record() -> MatchRecord {
        let text = "; [Site \"club\"]\n; [Player \"x\"]\n 1 point match\n\n Game 1\n A : 0         B : 0\n  1)           31: 8/5 6/5\n";
        parse_mat(text).unwrap()
    }

    #[test]
    fn the_extension_chooses_the_format_and_unknown_ones_are_named() {
        assert_eq!(MatchFormat::of(Path::new("a.MAT")).unwrap(), MatchFormat::Mat);
        assert_eq!(MatchFormat::of(Path::new("dir.x/a.sgf")).unwrap(), MatchFormat::Sgf);
        assert_eq!(MatchFormat::of(Path::new("a.ogxm")).unwrap(), MatchFormat::Ogxm);
        let e = MatchFormat::of(Path::new("a.xg")).unwrap_err().to_string();
        assert!(e.contains("reads .xg files but cannot write them"), "{e}");
        assert!(MatchFormat::of(Path::new("a.txt")).unwrap_err().to_string().contains("unknown extension .txt"));
    }

    #[test]
    fn a_mat_drops_a_stored_analysis_with_a_note_and_sgf_names_headers_it_has_no_place_for() {
        let met = Met::kazaross_xg2();
        let mut r = record();
        r.stored = Some(StoredAnalysis { program: "eXtreme Gammon".into(), ..StoredAnalysis::default() });
        let (bytes, notes) = MatchFormat::Mat.render(&r, met).unwrap();
        assert_eq!(notes, ["a .mat file cannot hold the stored analysis (eXtreme Gammon): it is not written"]);
        assert!(String::from_utf8(bytes).unwrap().contains("31: 8/5 6/5"));
        let (bytes, notes) = MatchFormat::Sgf.render(&r, met).unwrap();
        assert_eq!(notes, ["gnubg's SGF has no place for the header(s) Player: not written"]);
        assert!(String::from_utf8(bytes).unwrap().contains("PC[club]"));
        // OGXM holds the analysis, and of the headers only the event.
        let (bytes, notes) = MatchFormat::Ogxm.render(&r, met).unwrap();
        assert_eq!(
            notes,
            ["OGXM has no place for the header(s) Player, Site: not written (of the headers it keeps the event, up to 120 bytes)"]
        );
        let back = gammon_rules::read_ogxm(&bytes, Some(met)).unwrap();
        // The same records (a binary file has no line numbers).
        let actions = |m: &MatchRecord| -> Vec<_> {
            m.games.iter().flat_map(|g| g.records.iter().map(|e| (e.player, e.position, e.action.clone()))).collect()
        };
        assert_eq!(actions(&back), actions(&r));
        // An event is written, and read back; one too long is named.
        r.headers = [("Event".to_string(), "Club final".to_string())].into();
        let (bytes, notes) = MatchFormat::Ogxm.render(&r, met).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(gammon_rules::read_ogxm(&bytes, Some(met)).unwrap().headers, r.headers);
        r.headers.insert("Event".into(), "x".repeat(121));
        let (bytes, notes) = MatchFormat::Ogxm.render(&r, met).unwrap();
        assert!(notes[0].starts_with("OGXM has no place for the header(s) Event: "), "{notes:?}");
        assert!(!gammon_rules::read_ogxm(&bytes, Some(met)).unwrap().headers.contains_key("Event"));
        // Headers that the record's own fields say (XG's exports have them) are written, not named.
        let said = [("Player 1", "x"), ("Crawford", "On"), ("Variation", "Backgammon"), ("Beaver", "Off")];
        r.headers = said.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        assert!(MatchFormat::Ogxm.render(&r, met).unwrap().1.is_empty());
        assert_eq!(
            MatchFormat::Sgf.render(&r, met).unwrap().1,
            ["gnubg's SGF has no place for the header(s) Beaver: not written"]
        );
        r.headers.insert("Variation".into(), "Nackgammon".into());
        assert!(MatchFormat::Ogxm.render(&r, met).unwrap().1[0].contains("Variation"));
    }
}
