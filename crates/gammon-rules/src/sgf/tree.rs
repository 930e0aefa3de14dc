//! The SGF syntax layer: game trees, nodes, properties and their values,
//! with the line each starts on. Only the main line of each game tree is
//! read (the first variation at every branch); the others are skipped.
//!
//! The nodes are handed to a [`Visitor`] one at a time and not kept, and a
//! value borrows the text unless it has an escape: a large file costs what
//! the visitor keeps of it, not a tree of allocations per node.

use crate::{MatError, MatPlace};
use std::borrow::Cow;

/// One property: `ID[value][value]…`, values unescaped.
pub(super) struct Property<'a> {
    pub ident: &'a str,
    pub values: Vec<Cow<'a, str>>,
}

/// One node (`;` and its properties).
pub(super) struct Node<'a> {
    /// The line of its `;` (1-based).
    pub line: usize,
    pub props: Vec<Property<'a>>,
}

impl Node<'_> {
    /// The first value of the property `ident`, if the node has it.
    pub fn value(&self, ident: &str) -> Option<&str> {
        self.property(ident).and_then(|p| p.values.first()).map(|v| &**v)
    }

    pub fn property(&self, ident: &str) -> Option<&Property<'_>> {
        self.props.iter().find(|p| p.ident == ident)
    }
}

/// What reads the main lines of the game trees, in file order.
pub(super) trait Visitor {
    /// A game tree starts: its `(` is on `line`.
    fn tree(&mut self, line: usize) -> Result<(), MatError>;
    /// The next node of its main line.
    fn node(&mut self, node: &Node<'_>) -> Result<(), MatError>;
    /// The game tree is closed (it had at least one node).
    fn end(&mut self) -> Result<(), MatError>;
}

fn err(line: usize, reason: impl Into<String>) -> MatError {
    MatError { place: MatPlace { line, ..MatPlace::default() }, reason: reason.into() }
}

struct Cursor<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        if b == b'\n' {
            self.line += 1;
        }
        Some(b)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.bump();
        }
    }

    /// A value after its `[`: up to the unescaped `]`. `\` escapes the next
    /// character; `\` before a line end is a soft line break (removed). The
    /// value borrows the text unless it has an escape.
    fn value(&mut self) -> Result<Cow<'a, str>, MatError> {
        let start_line = self.line;
        let text: &'a str = self.text;
        let mut out: Option<String> = None;
        let mut run = self.at;
        loop {
            let Some(b) = self.peek() else {
                return Err(err(start_line, "a property value is not closed by `]` (truncated file?)"));
            };
            match b {
                b']' => {
                    let tail = &text[run..self.at];
                    self.bump();
                    return Ok(match out {
                        None => Cow::Borrowed(tail),
                        Some(mut o) => {
                            o.push_str(tail);
                            Cow::Owned(o)
                        }
                    });
                }
                b'\\' => {
                    let o = out.get_or_insert_with(String::new);
                    o.push_str(&text[run..self.at]);
                    self.bump();
                    match self.peek() {
                        None => continue,
                        Some(b'\n') => {
                            self.bump();
                        }
                        Some(b'\r') => {
                            self.bump();
                            if self.peek() == Some(b'\n') {
                                self.bump();
                            }
                        }
                        Some(_) => {
                            // The escaped character, whole (it may be multi-byte).
                            let c = text[self.at..].chars().next().unwrap_or(' ');
                            for _ in 0..c.len_utf8() {
                                self.bump();
                            }
                            o.push(c);
                        }
                    }
                    run = self.at;
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// A node's properties, after its `;`.
    fn node(&mut self) -> Result<Node<'a>, MatError> {
        let line = self.line;
        let mut props = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                Some(b) if b.is_ascii_uppercase() => {
                    let start = self.at;
                    while self.peek().is_some_and(|b| b.is_ascii_uppercase()) {
                        self.bump();
                    }
                    let text: &'a str = self.text;
                    let ident = &text[start..self.at];
                    let mut values = Vec::new();
                    loop {
                        self.skip_space();
                        if self.peek() != Some(b'[') {
                            break;
                        }
                        self.bump();
                        values.push(self.value()?);
                    }
                    if values.is_empty() {
                        return Err(err(self.line, format!("property {} has no value `[…]`", crate::quote(ident))));
                    }
                    props.push(Property { ident, values });
                }
                Some(b';' | b'(' | b')') | None => return Ok(Node { line, props }),
                Some(_) => return Err(err(self.line, format!("unexpected {:?} in a node", self.char_here()))),
            }
        }
    }

    fn char_here(&self) -> char {
        self.text[self.at..].chars().next().unwrap_or(' ')
    }

    /// Skips a variation after its `(`, up to its matching `)`.
    fn skip_variation(&mut self, start_line: usize) -> Result<(), MatError> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.bump() {
                None => return Err(err(start_line, "a variation is not closed by `)` (truncated file?)")),
                Some(b'(') => depth += 1,
                Some(b')') => depth -= 1,
                Some(b'[') => {
                    self.value()?;
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// One game tree after its `(`: its nodes, then the first variation's
    /// main line, iteratively (nesting depth costs no stack), each node
    /// handed to `visitor`.
    fn game_tree(&mut self, line: usize, visitor: &mut impl Visitor) -> Result<(), MatError> {
        visitor.tree(line)?;
        let mut nodes = 0usize;
        // Open trees on the main line, and whether the innermost one has
        // already had its first variation (the rest are skipped).
        let mut depth = 1usize;
        let mut taken_variation = false;
        loop {
            self.skip_space();
            let here = self.line;
            match self.bump() {
                None => return Err(err(line, "a game tree is not closed by `)` (truncated file?)")),
                Some(b';') if !taken_variation => {
                    visitor.node(&self.node()?)?;
                    nodes += 1;
                }
                Some(b';') => return Err(err(here, "a node after the variations of its sequence")),
                Some(b'(') if !taken_variation => depth += 1,
                Some(b'(') => self.skip_variation(here)?,
                Some(b')') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                    taken_variation = true;
                }
                Some(_) => {
                    self.at -= 1;
                    return Err(err(here, format!("unexpected {:?} between nodes", self.char_here())));
                }
            }
        }
        if nodes == 0 {
            return Err(err(line, "a game tree without a node"));
        }
        visitor.end()
    }
}

/// Reads the game trees of an SGF collection, each reduced to its main
/// line, into `visitor`.
pub(super) fn parse_collection(text: &str, visitor: &mut impl Visitor) -> Result<(), MatError> {
    let mut cur = Cursor { text, at: 0, line: 1 };
    let mut trees = 0usize;
    loop {
        cur.skip_space();
        let line = cur.line;
        match cur.bump() {
            None => break,
            Some(b'(') => {
                cur.game_tree(line, visitor)?;
                trees += 1;
            }
            Some(_) => {
                cur.at -= 1;
                return Err(err(line, format!("expected `(` to start a game tree, found {:?}", cur.char_here())));
            }
        }
    }
    if trees == 0 {
        return Err(err(1, "no game tree `(;…)` in the file"));
    }
    Ok(())
}
