//! Text made safe for the HTML page and its SVG boards, which both write
//! names from the match file.

/// `text` with the five characters that mean something in HTML replaced,
/// safe inside elements and quoted attributes.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_replaces_every_special_character() {
        assert_eq!(escape("<script>a&b\"c'</script>"), "&lt;script&gt;a&amp;b&quot;c&#39;&lt;/script&gt;");
        assert_eq!(escape("plain é"), "plain é");
    }
}
