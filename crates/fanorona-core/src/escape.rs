//! Text from outside (file names, input quoted in messages) made safe to print, in one form
//! for every crate of the workspace: a control character never reaches a terminal raw.
//!
//! The form: `\n`, `\r` and `\t` for those three; `\x1b` (a backslash, `x` and two lowercase
//! hexadecimal digits) for the other ASCII control characters and DEL; `\u{85}` (as Rust
//! writes it) for the control characters beyond ASCII and the Unicode controls that reorder
//! text (U+202A to U+202E, U+2066 to U+2069). Bytes that are not UTF-8 are escaped by their
//! readers as `\xff`, the same form.
//!
//! # Examples
//!
//! ```
//! use fanorona_core::escape::{Quoted, escaped};
//!
//! assert_eq!(escaped("red\u{1b}[31m.fgn"), "red\\x1b[31m.fgn");
//! assert_eq!(escaped("tab\there"), "tab\\there");
//! assert_eq!(escaped("plain"), "plain");
//! assert_eq!(Quoted("say \"hi\"\u{7}").to_string(), r#""say \"hi\"\x07""#);
//! assert_eq!(Quoted("\u{202e}").to_string(), r#""\u{202e}""#);
//! ```

use core::fmt::{self, Write};
use std::borrow::Cow;

/// Whether `c` is escaped: a control character, or a Unicode control that reorders text.
pub fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Writes `c` escaped (see the [module documentation](self)) when [`needs_escape`] says so,
/// else as it is.
///
/// # Errors
///
/// Any error of `out`.
pub fn write_char(out: &mut impl Write, c: char) -> fmt::Result {
    match c {
        '\n' => out.write_str("\\n"),
        '\r' => out.write_str("\\r"),
        '\t' => out.write_str("\\t"),
        c if c.is_ascii_control() => write!(out, "\\x{:02x}", c as u32),
        c if needs_escape(c) => write!(out, "\\u{{{:x}}}", c as u32),
        c => out.write_char(c),
    }
}

/// `text` with its control characters escaped (see the [module documentation](self)); the
/// text itself when it has none.
pub fn escaped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        // Writing to a String cannot fail.
        let _ = write_char(&mut out, c);
    }
    Cow::Owned(out)
}

/// Text shown in double quotes, with `"` and `\` escaped by a backslash and the control
/// characters escaped (see the [module documentation](self)): what `{:?}` prints for a
/// string, but in the workspace's one form (`\x1b`, not `\u{1b}`).
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                c => write_char(f, c)?,
            }
        }
        f.write_char('"')
    }
}

/// A character shown in single quotes, escaped as [`Quoted`] escapes (`'\x1b'`, `'\''`).
#[derive(Clone, Copy, Debug)]
pub struct QuotedChar(pub char);

impl fmt::Display for QuotedChar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('\'')?;
        match self.0 {
            '\'' => f.write_str("\\'")?,
            '\\' => f.write_str("\\\\")?,
            c => write_char(f, c)?,
        }
        f.write_char('\'')
    }
}

/// What [`quoted`] shows: text (`str`, `String`, `Cow<str>`) in double quotes, a `char` in
/// single quotes.
pub trait Quotable {
    /// Writes the value quoted and escaped.
    ///
    /// # Errors
    ///
    /// Any error of `f`.
    fn write_quoted(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl Quotable for str {
    fn write_quoted(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Quoted(self), f)
    }
}

impl Quotable for String {
    fn write_quoted(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_str().write_quoted(f)
    }
}

impl Quotable for Cow<'_, str> {
    fn write_quoted(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_ref().write_quoted(f)
    }
}

impl Quotable for char {
    fn write_quoted(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&QuotedChar(*self), f)
    }
}

impl<T: Quotable + ?Sized> Quotable for &T {
    fn write_quoted(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).write_quoted(f)
    }
}

/// A value shown quoted and escaped, for messages: what `{:?}` shows for text or a character,
/// in the workspace's one form (`"a\x1b[31m"`, `'\x07'`).
///
/// ```
/// use fanorona_core::escape::quoted;
///
/// let name = String::from("x\u{1b}");
/// assert_eq!(format!("bad tag {}", quoted(&name)), "bad tag \"x\\x1b\"");
/// assert_eq!(quoted(&'\u{7}').to_string(), "'\\x07'");
/// ```
pub fn quoted<T: Quotable + ?Sized>(value: &T) -> impl fmt::Display + '_ {
    struct Shown<'a, T: ?Sized>(&'a T);
    impl<T: Quotable + ?Sized> fmt::Display for Shown<'_, T> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.write_quoted(f)
        }
    }
    Shown(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_is_escaped_and_nothing_else() {
        for c in (0u32..0x3000).filter_map(char::from_u32) {
            let e = escaped(&c.to_string()).into_owned();
            assert!(!e.chars().any(needs_escape), "{c:?} -> {e}");
            if needs_escape(c) {
                assert!(e.starts_with('\\'), "{c:?} -> {e}");
            } else {
                assert_eq!(e, c.to_string());
            }
        }
        assert_eq!(escaped("\u{1b}\u{7f}\u{0}"), "\\x1b\\x7f\\x00");
        assert_eq!(escaped("\u{85}\u{2066}"), "\\u{85}\\u{2066}");
        assert_eq!(QuotedChar('\u{1b}').to_string(), "'\\x1b'");
        assert_eq!(QuotedChar('x').to_string(), "'x'");
        assert_eq!(Quoted("a\\b").to_string(), "\"a\\\\b\"");
    }

    /// The reference generator writes its own escapes (it shares no code): the same form.
    #[test]
    fn the_reference_reader_escapes_in_the_same_form() {
        for c in ['\u{1b}', '\n', '\u{85}', '\u{202e}', '\'', '\\', 'x'] {
            let e = crate::reference::Board::from_fen(&format!("B{c}B/3/3 w"))
                .unwrap_err()
                .to_string();
            assert!(e.contains(&QuotedChar(c).to_string()), "{c:?}: {e}");
        }
    }
}
