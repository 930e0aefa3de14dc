//! gnubg's XML match equity tables (`met.dtd`; Debian's `gnubg-data` puts
//! them in `/usr/share/gnubg/met/`): `<info><name>`, a
//! `<pre-crawford-table>` of `<row>`s of `<me>` (row r, entry c: P(win)
//! needing r against c) and a `<post-crawford-table>` with one `<row>` (the
//! trailer needing c against a 1-away leader).
//!
//! Only explicit tables are read: gnubg computes `zadeh` and `mec` tables,
//! and extends short explicit ones, with formulas gammon does not have.
//! A table covers the matches its rows cover: where the post-Crawford row is
//! shorter than the pre-Crawford table (gnubg's `g11.xml` and `mec26.xml`
//! give 24 entries for 25 rows), the table is cut to the shorter.

use super::{Met, MetError};
use roxmltree::{Document, Node, ParsingOptions};
use std::io::Read;
use std::path::Path;

/// The largest file read as a table: a 64-point table in gnubg's layout is
/// about 150 kB.
pub const MAX_MET_FILE_BYTES: u64 = 1 << 20;

/// Nodes allowed in the document (a 64-point table has about 13,000).
const MAX_NODES: u32 = 200_000;

impl Met {
    /// Reads a gnubg XML match equity table from `path`, at most
    /// [`MAX_MET_FILE_BYTES`].
    ///
    /// # Errors
    /// [`MetError::File`] naming the file, around the reason.
    pub fn read_xml_file(path: &Path) -> Result<Met, MetError> {
        let wrap = |source: MetError| MetError::File { path: path.to_path_buf(), source: Box::new(source) };
        let file = std::fs::File::open(path).map_err(|e| wrap(MetError::Io(e.to_string())))?;
        let mut bytes = Vec::new();
        file.take(MAX_MET_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| wrap(MetError::Io(e.to_string())))?;
        if bytes.len() as u64 > MAX_MET_FILE_BYTES {
            return Err(wrap(MetError::TooLarge { max: MAX_MET_FILE_BYTES }));
        }
        let text = String::from_utf8(bytes).map_err(|e| wrap(MetError::Xml(e.to_string())))?;
        Met::parse_xml(&text).map_err(wrap)
    }

    /// Reads a gnubg XML match equity table from its text (see the module
    /// documentation for what is read).
    ///
    /// # Errors
    /// [`MetError::Xml`], [`MetError::Missing`], [`MetError::Formula`],
    /// [`MetError::PerPlayer`], [`MetError::Entry`], [`MetError::Shape`].
    pub fn parse_xml(text: &str) -> Result<Met, MetError> {
        // gnubg's files name their DTD; nothing is fetched.
        let options = ParsingOptions { allow_dtd: true, nodes_limit: MAX_NODES };
        let doc = Document::parse_with_options(text, options).map_err(|e| MetError::Xml(e.to_string()))?;
        let met = doc.root_element();
        if !met.has_tag_name("met") {
            return Err(MetError::Missing("met"));
        }
        let name = child(met, "info")
            .and_then(|info| child(info, "name"))
            .and_then(|n| n.text())
            .map_or_else(|| "unnamed".to_string(), |t| t.trim().to_string());
        let pre =
            rows(child(met, "pre-crawford-table").ok_or(MetError::Missing("pre-crawford-table"))?, "pre-crawford")?;
        let mut posts = met.children().filter(|n| n.has_tag_name("post-crawford-table"));
        let post_table = posts.next().ok_or(MetError::Missing("post-crawford-table"))?;
        let player = post_table.attribute("player").unwrap_or("both");
        if player != "both" || posts.next().is_some() {
            return Err(MetError::PerPlayer(player.to_string()));
        }
        let post = rows(post_table, "post-crawford")?.into_iter().next().ok_or(MetError::Missing("row"))?;
        // A short post-Crawford row cuts the table to the matches it covers.
        let n = pre.len().min(post.len());
        let pre = if pre.len() > n && pre.iter().all(|r| r.len() == pre.len()) {
            pre.into_iter().take(n).map(|r| r[..n].to_vec()).collect()
        } else {
            pre
        };
        Met::from_tables(name, pre, post)
    }
}

/// The first child element of `node` named `name`.
fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|n| n.has_tag_name(name))
}

/// The `<row>`s of `<me>` probabilities of an explicit table.
fn rows(table: Node<'_, '_>, which: &'static str) -> Result<Vec<Vec<f64>>, MetError> {
    let kind = table.attribute("type").unwrap_or("explicit");
    if kind != "explicit" {
        return Err(MetError::Formula { table: which, kind: kind.to_string() });
    }
    table
        .children()
        .filter(|n| n.has_tag_name("row"))
        .enumerate()
        .map(|(r, row)| {
            row.children()
                .filter(|n| n.has_tag_name("me"))
                .enumerate()
                .map(|(c, me)| {
                    let text = me.text().unwrap_or("").trim();
                    match text.parse::<f64>() {
                        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
                        _ => Err(MetError::Entry { table: which, row: r + 1, entry: c + 1, text: text.to_string() }),
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A table in gnubg's layout: `pre` rows, one `post` row.
    fn xml(name: &str, pre: &[&[&str]], post: &[&str]) -> String {
        let row = |r: &[&str]| format!("<row>{}</row>", r.iter().map(|v| format!("<me>{v}</me>")).collect::<String>());
        let pre: String = pre.iter().map(|r| row(r)).collect();
        format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE met PUBLIC \"-//GNU Backgammon//DTD Match Equity Tables//EN\" \"met.dtd\">\n\
             <met><info><name>{name}</name><description>d</description><length>2</length></info>\
             <pre-crawford-table type=\"explicit\">{pre}</pre-crawford-table>\
             <post-crawford-table type=\"explicit\" player=\"both\">{}</post-crawford-table></met>",
            row(post)
        )
    }

    #[test]
    fn reads_an_explicit_table_with_its_name() {
        let met = Met::parse_xml(&xml("Two &amp; two", &[&["0.5", "0.7"], &["0.3", "0.5"]], &["0.5", "0.49"])).unwrap();
        assert_eq!((met.name(), met.max_away()), ("Two & two", 2));
        assert_eq!((met.mwc(1, 2), met.mwc(2, 1), met.post_crawford(2)), (0.7, 0.3, 0.49));
    }

    #[test]
    fn a_short_post_crawford_row_cuts_the_table() {
        let met = Met::parse_xml(&xml("cut", &[&["0.5", "0.7"], &["0.3", "0.5"]], &["0.5"])).unwrap();
        assert_eq!(met.max_away(), 1);
    }

    #[test]
    fn refusals_say_why() {
        let bad = Met::parse_xml(&xml("x", &[&["0.5", "1.2"], &["0.3", "0.5"]], &["0.5", "0.4"])).unwrap_err();
        assert_eq!(bad, MetError::Entry { table: "pre-crawford", row: 1, entry: 2, text: "1.2".into() });
        assert!(matches!(Met::parse_xml("<met>"), Err(MetError::Xml(_))));
        assert_eq!(Met::parse_xml("<table/>"), Err(MetError::Missing("met")));
        let zadeh = "<met><pre-crawford-table type=\"zadeh\"><parameters/></pre-crawford-table></met>";
        assert_eq!(Met::parse_xml(zadeh), Err(MetError::Formula { table: "pre-crawford", kind: "zadeh".into() }));
        let per_player = xml("p", &[&["0.5"]], &["0.5"]).replace("player=\"both\"", "player=\"0\"");
        assert_eq!(Met::parse_xml(&per_player), Err(MetError::PerPlayer("0".into())));
        let ragged = Met::parse_xml(&xml("r", &[&["0.5", "0.7"], &["0.3"]], &["0.5", "0.4"])).unwrap_err();
        assert!(matches!(ragged, MetError::Shape { rows: 2, .. }), "{ragged}");
    }

    #[test]
    fn a_file_error_names_the_file() {
        let dir = tempfile_dir();
        let missing = dir.join("absent.xml");
        let e = crate::api::error_chain(&Met::read_xml_file(&missing).unwrap_err());
        assert!(e.starts_with(&format!("match equity table {}: cannot read it", missing.display())), "{e}");
        let big = dir.join("big.xml");
        std::fs::write(&big, vec![b' '; usize::try_from(MAX_MET_FILE_BYTES).unwrap() + 1]).unwrap();
        let e = Met::read_xml_file(&big).unwrap_err();
        assert!(
            matches!(e, MetError::File { ref source, .. } if **source == MetError::TooLarge { max: MAX_MET_FILE_BYTES })
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    fn tempfile_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gammon-met-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
