//! Reading standard input line by line with a bound on the line length: a
//! line without end (a pipe of `/dev/zero`, a pasted file) must not fill the
//! memory, and one bad line must not end a session.

use std::io::{BufRead, Read};

/// What [`read_line`] found.
#[derive(Debug, PartialEq)]
pub(crate) enum Line {
    /// A line (without its `\n`) is in the buffer.
    Read,
    /// The line was longer than the limit; it was skipped to its end.
    TooLong,
    /// End of input.
    End,
}

/// Reads one line of at most `max` bytes into `buf`; the rest of a longer
/// line is skipped without being kept.
pub(crate) fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> std::io::Result<Line> {
    buf.clear();
    let limit = max as u64 + 1;
    if input.by_ref().take(limit).read_until(b'\n', buf)? == 0 {
        return Ok(Line::End);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(Line::Read);
    }
    if buf.len() <= max {
        return Ok(Line::Read); // the last line, without a newline
    }
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                break;
            }
            None => {
                let n = chunk.len();
                input.consume(n);
            }
        }
    }
    Ok(Line::TooLong)
}

/// A line of text read by [`read_text_line`], or why there is none.
#[derive(Debug, PartialEq)]
pub(crate) enum TextLine {
    /// The line, trimmed of surrounding white space (and so of a `\r`).
    Text(String),
    /// Longer than the limit: skipped.
    TooLong,
    /// Not UTF-8: skipped.
    NotUtf8,
    /// End of input.
    End,
}

/// Reads one line of at most `max` bytes as trimmed UTF-8 text.
pub(crate) fn read_text_line(input: &mut impl BufRead, max: usize) -> std::io::Result<TextLine> {
    let mut buf = Vec::new();
    Ok(match read_line(input, &mut buf, max)? {
        Line::End => TextLine::End,
        Line::TooLong => TextLine::TooLong,
        Line::Read => match String::from_utf8(buf) {
            Ok(text) => TextLine::Text(text.trim().to_string()),
            Err(_) => TextLine::NotUtf8,
        },
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_the_rest_of_a_long_one_is_skipped() {
        let max = 64;
        let mut text = b"a\r\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 3 * max));
        text.extend(b"\nlast");
        let mut input = std::io::BufReader::with_capacity(16, text.as_slice());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf, max).unwrap(), Line::Read);
        assert_eq!(buf, b"a\r");
        assert_eq!(read_line(&mut input, &mut buf, max).unwrap(), Line::TooLong);
        assert!(buf.len() <= max + 1);
        assert_eq!(read_line(&mut input, &mut buf, max).unwrap(), Line::Read);
        assert_eq!(buf, b"last");
        assert_eq!(read_line(&mut input, &mut buf, max).unwrap(), Line::End);
    }

    #[test]
    fn text_lines_are_trimmed_and_bad_ones_skipped() {
        let max = 8;
        let text = b" go \r\n\xff\xfe\nxxxxxxxxxxxx\nquit".to_vec();
        let mut input = std::io::BufReader::with_capacity(4, text.as_slice());
        let mut next = || read_text_line(&mut input, max).unwrap();
        assert_eq!(next(), TextLine::Text("go".into()));
        assert_eq!(next(), TextLine::NotUtf8);
        assert_eq!(next(), TextLine::TooLong);
        assert_eq!(next(), TextLine::Text("quit".into()));
        assert_eq!(next(), TextLine::End);
    }
}
