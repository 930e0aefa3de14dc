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
use gammon_eval::file_format;
use roxmltree::{Document, Node, ParsingOptions};
use std::path::Path;

/// The largest file read as a table: a 64-point table in gnubg's layout is
/// about 150 kB.
pub const MAX_MET_FILE_BYTES: u64 = 1 << 20;

/// Nodes allowed in the document (a 64-point table has about 13,000).
const MAX_NODES: u32 = 200_000;

impl Met {
    /// Reads a gnubg XML match equity table from the regular file `path`,
    /// at most [`MAX_MET_FILE_BYTES`], through gammon-eval's checked reads.
    ///
    /// # Errors
    /// [`MetError::Read`] for a file that cannot be read; else
    /// [`MetError::File`] naming the file, around the reason.
    pub fn read_xml_file(path: &Path) -> Result<Met, MetError> {
        let text = file_format::read_text(path, MAX_MET_FILE_BYTES)
            .map_err(|e| MetError::Read { message: crate::api::error_chain(&e), io: io_kind(&e) })?;
        Met::parse_xml(&text).map_err(|source| MetError::File { path: path.to_path_buf(), source: Box::new(source) })
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

/// The kind of the system error under `error`, if one is.
fn io_kind(error: &(dyn std::error::Error + 'static)) -> Option<std::io::ErrorKind> {
    let mut source = Some(error);
    while let Some(e) = source {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        source = e.source();
    }
    None
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
