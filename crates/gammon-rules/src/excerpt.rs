//! Input shown back to the user, shortened: an error quotes at most
//! [`QUOTE_CHARS`] characters of what it refuses and a report shows at most
//! [`NAME_CHARS`] of a name, so a 12 MB line or name gives a short message
//! or page, not a copy of itself.

use std::borrow::Cow;
use std::fmt;

/// The most characters of an input an error message quotes.
pub const QUOTE_CHARS: usize = 80;

/// The most characters of a player name (or a header value) shown.
pub const NAME_CHARS: usize = 64;

/// `text` cut to its first `max` characters (on a character boundary) with
/// `…` appended when it is longer; as it is otherwise.
///
/// ```
/// use gammon_rules::shorten;
/// assert_eq!(shorten("Alice", 64), "Alice");
/// assert_eq!(shorten("déjà vu", 4), "déjà…");
/// ```
pub fn shorten(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!("{}…", &text[..cut])),
    }
}

/// `text` quoted for an error message, as `{:?}` quotes it, but at most
/// [`QUOTE_CHARS`] characters of it; a longer text is followed by `…` and
/// its length.
///
/// ```
/// use gammon_rules::quote;
/// assert_eq!(quote("8/5 6/5").to_string(), "\"8/5 6/5\"");
/// let long = "x".repeat(1000);
/// assert_eq!(quote(&long).to_string(), format!("\"{}\"… (1000 characters)", "x".repeat(80)));
/// ```
pub fn quote(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// A text quoted by [`quote`].
#[derive(Debug, Clone, Copy)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTE_CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((cut, _)) => write!(f, "{:?}… ({} characters)", &self.0[..cut], self.0.chars().count()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_falls_on_a_character_boundary() {
        // Four-byte characters: a byte cut at 80 would split one.
        let text = "🎲".repeat(200);
        let quoted = quote(&text).to_string();
        assert!(quoted.starts_with(&format!("\"{}\"…", "🎲".repeat(80))), "{quoted}");
        assert!(quoted.ends_with("(200 characters)"), "{quoted}");
        assert_eq!(shorten(&text, 3), "🎲🎲🎲…");
    }

    #[test]
    fn short_texts_are_untouched() {
        let exact = "y".repeat(QUOTE_CHARS);
        assert_eq!(quote(&exact).to_string(), format!("{exact:?}"));
        assert!(matches!(shorten("abc", 3), Cow::Borrowed("abc")));
        assert_eq!(shorten("", 0), "");
        assert_eq!(shorten("a", 0), "…");
    }

    #[test]
    fn control_characters_stay_escaped() {
        assert_eq!(quote("a\nb").to_string(), "\"a\\nb\"");
    }
}
