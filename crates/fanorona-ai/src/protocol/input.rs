//! Reading command lines in bounded memory, and showing bad input safely.

use std::io::{self, BufRead};

/// The longest command line the engine reads, in bytes before the end of the line. A longer
/// line is answered with an error and skipped; the engine never holds more than this much of
/// it in memory.
pub const MAX_LINE: usize = 64 * 1024;

/// The most characters of bad input that an error message shows.
pub const MAX_SHOWN: usize = 40;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line of text (without its end of line).
    Text(String),
    /// A line that is not UTF-8: the error message.
    NotUtf8(String),
    /// A line longer than [`MAX_LINE`]: the error message.
    TooLong(String),
}

/// Reads lines of at most [`MAX_LINE`] bytes from a [`BufRead`], numbering them.
pub(crate) struct Lines<R> {
    input: R,
    buf: Vec<u8>,
    number: u64,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(input: R) -> Lines<R> {
        Lines {
            input,
            buf: Vec::new(),
            number: 0,
        }
    }

    /// The next line, or `None` at the end of the input. A last line without an end of line
    /// counts as a line.
    ///
    /// # Errors
    ///
    /// An I/O error of the reader.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buf.clear();
        let mut total: u64 = 0;
        let mut any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (part, used, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            // Keep at most one byte past the limit: enough to know the line is too long.
            let room = (MAX_LINE + 1).saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&part[..part.len().min(room)]);
            total = total.saturating_add(part.len() as u64);
            self.input.consume(used);
            if end {
                break;
            }
        }
        self.number += 1;
        let n = self.number;
        if self.buf.last() == Some(&b'\r') && total as usize == self.buf.len() {
            self.buf.pop();
            total -= 1;
        }
        if total > MAX_LINE as u64 {
            return Ok(Some(Line::TooLong(format!(
                "line {n}: {total} bytes, longer than the limit of {MAX_LINE}; ignored: {}",
                shown_bytes(&self.buf)
            ))));
        }
        match std::str::from_utf8(&self.buf) {
            Ok(text) => Ok(Some(Line::Text(text.to_owned()))),
            Err(e) => Ok(Some(Line::NotUtf8(format!(
                "line {n}: not UTF-8 (byte {}); ignored: {}",
                e.valid_up_to() + 1,
                shown_bytes(&self.buf)
            )))),
        }
    }
}

/// At most [`MAX_SHOWN`] bytes of raw input, quoted, with everything but printable ASCII
/// escaped (`\xff`, `\n`, `\x1b`: the form of `fanorona_core::escape`), and `...` when cut.
pub(crate) fn shown_bytes(bytes: &[u8]) -> String {
    let cut = bytes.len() > MAX_SHOWN;
    let head = &bytes[..bytes.len().min(MAX_SHOWN)];
    format!(
        "\"{}\"{}",
        head.escape_ascii(),
        if cut { "..." } else { "" }
    )
}

/// At most [`MAX_SHOWN`] characters of text, quoted, with control characters and quotes
/// escaped (`\x1b`, `\"`: [`fanorona_core::escape::Quoted`]), and `...` when cut: safe to
/// print on a terminal and short.
pub(crate) fn shown(text: &str) -> String {
    let cut = text.chars().nth(MAX_SHOWN).is_some();
    let head = match text.char_indices().nth(MAX_SHOWN) {
        Some((i, _)) => &text[..i],
        None => text,
    };
    format!(
        "{}{}",
        fanorona_core::escape::Quoted(head),
        if cut { "..." } else { "" }
    )
}

/// A message made safe to print: control characters escaped, at most `max` characters.
pub(crate) fn sanitized(message: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in message.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        // Writing to a String cannot fail.
        let _ = fanorona_core::escape::write_char(&mut out, c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor, Read};

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut r = Lines::new(Cursor::new(bytes.to_vec()));
        let mut out = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn lines_split_at_newlines_with_or_without_carriage_returns() {
        assert_eq!(
            lines(b"uci\r\nisready\n\nquit"),
            [
                Line::Text("uci".into()),
                Line::Text("isready".into()),
                Line::Text(String::new()),
                Line::Text("quit".into())
            ]
        );
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn bad_utf8_is_an_error_line_with_a_short_escaped_prefix() {
        let got = lines(b"go \xff\xfe depth 3\nisready\n");
        assert_eq!(
            got[0],
            Line::NotUtf8(
                r#"line 1: not UTF-8 (byte 4); ignored: "go \xff\xfe depth 3""#.to_owned()
            )
        );
        assert_eq!(got[1], Line::Text("isready".into()));
    }

    #[test]
    fn an_overlong_line_is_skipped_in_bounded_memory() {
        /// A reader of `n` bytes of `x` then "\nisready\n", made on the fly.
        struct Long(u64, Cursor<&'static [u8]>);
        impl Read for Long {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return self.1.read(buf);
                }
                let n = (buf.len() as u64).min(self.0) as usize;
                buf[..n].fill(b'x');
                self.0 -= n as u64;
                Ok(n)
            }
        }
        let size = 50_000_000;
        let mut r = Lines::new(BufReader::new(Long(size, Cursor::new(b"\nisready\n"))));
        let Some(Line::TooLong(msg)) = r.next_line().unwrap() else {
            panic!("an error line");
        };
        assert!(
            msg.starts_with("line 1: 50000000 bytes, longer than the limit of 65536"),
            "{msg}"
        );
        assert!(
            msg.ends_with(&format!("\"{}\"...", "x".repeat(MAX_SHOWN))),
            "{msg}"
        );
        assert!(r.buf.capacity() <= 2 * MAX_LINE + 2);
        assert_eq!(r.next_line().unwrap(), Some(Line::Text("isready".into())));
        // Exactly the limit is fine; one more byte is not.
        let ok = "y".repeat(MAX_LINE);
        assert_eq!(
            lines(format!("{ok}\n").as_bytes()),
            [Line::Text(ok.clone())]
        );
        assert!(matches!(
            lines(format!("{ok}z").as_bytes())[0],
            Line::TooLong(_)
        ));
    }

    #[test]
    fn shown_text_is_short_and_escaped() {
        assert_eq!(shown("abc"), "\"abc\"");
        assert_eq!(shown("a\u{1b}[2Jb\"c"), r#""a\x1b[2Jb\"c""#);
        let long = "é".repeat(100);
        assert_eq!(shown(&long), format!("\"{}\"...", "é".repeat(MAX_SHOWN)));
        assert_eq!(sanitized("x\ny", 10), "x\\ny");
        assert_eq!(sanitized(&"z".repeat(20), 5), "zzzzz...");
    }
}
