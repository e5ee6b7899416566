//! Diagnostics: an input line with a caret under the offending byte.

use anstyle::{AnsiColor, Style};
use std::borrow::Cow;
use std::io::Write as _;

const CARET: Style = AnsiColor::Red.on_default().bold();

/// The style of the word `error` (and of a security finding) in reports.
pub const ERROR: Style = AnsiColor::Red.on_default().bold();

/// The style of the word `warning` in reports.
pub const WARNING: Style = AnsiColor::Yellow.on_default().bold();

/// The most bytes of an input shown in a diagnostic; a longer input shows
/// a window of it around the offset, with `…` where it was cut, so that a
/// 10 MB input makes a line of a few hundred bytes, not two of 10 MB.
pub const WINDOW: usize = 160;

/// Text from an input (a URL, a part, a file name) made safe for a
/// terminal and for a line of a table: [`rfc1738::escape_text`], the one
/// escape every line the command writes for people goes through (the
/// access crate's `show` too). A `\` is doubled, so that a table's cell
/// (`parse --format csv`) can be undone; an input with a caret is shown
/// by [`escape_once`].
///
/// # Examples
/// ```
/// use rfc1738_report::diag::escape;
/// assert_eq!(escape(b"x\x1b]0;t\x07.txt"), "x\\x1B]0;t\\x07.txt");
/// ```
#[must_use]
pub fn escape(text: &[u8]) -> Cow<'_, str> {
    rfc1738::escape_text(text)
}

/// [`escape`], but a `\` is left as it is: an input line as a person
/// reads it in a diagnostic or a summary. Escaped once: what a server
/// already escaped in a log line (nginx's `\x16`, Apache's `\"`) is
/// shown as the server wrote it, so a reported line can be pasted into
/// grep; only raw control bytes (and reordering characters) are escaped.
///
/// # Examples
/// ```
/// use rfc1738_report::diag::escape_once;
/// assert_eq!(escape_once(b"x\x1b]0;t\x07.txt"), "x\\x1B]0;t\\x07.txt");
/// assert_eq!(escape_once(br#""\x16\x03" "a\"b""#), r#""\x16\x03" "a\"b""#);
/// ```
#[must_use]
pub fn escape_once(text: &[u8]) -> Cow<'_, str> {
    if !text.contains(&b'\\') {
        return rfc1738::escape_text(text);
    }
    // Each piece between two `\` escaped on its own (a `\` is never
    // inside a UTF-8 sequence), the `\` kept.
    let pieces: Vec<Cow<'_, str>> = text.split(|&b| b == b'\\').map(rfc1738::escape_text).collect();
    Cow::Owned(pieces.join("\\"))
}

/// The input made printable by [`escape_once`] and the 0-based column (in
/// characters of the text shown) of byte `offset` in it; past [`WINDOW`]
/// bytes, only a window around the offset.
#[must_use]
pub fn printable(input: &str, offset: usize) -> (Cow<'_, str>, usize) {
    if input.len() > WINDOW {
        return windowed(input, offset);
    }
    let shown = escape_once(input.as_bytes());
    if let Cow::Borrowed(_) = shown {
        // Printable ASCII (most invalid URLs): one column per byte.
        return (shown, offset.min(input.len()));
    }
    let mut at = offset.min(input.len());
    while !input.is_char_boundary(at) {
        at -= 1;
    }
    let column = escape_once(&input.as_bytes()[..at]).chars().count();
    (shown, column)
}

/// [`printable`] of the [`WINDOW`] bytes around `offset`, `…` marking
/// each side that was cut.
#[cold]
fn windowed(input: &str, offset: usize) -> (Cow<'_, str>, usize) {
    let offset = offset.min(input.len());
    let floor = |mut i: usize| {
        while !input.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = floor(offset.saturating_sub(WINDOW / 2));
    let end = floor((start + WINDOW).min(input.len()));
    let (shown, column) = printable(&input[start..end], offset - start);
    let before = if start > 0 { "…" } else { "" };
    let after = if end < input.len() { "…" } else { "" };
    (Cow::Owned(format!("{before}{shown}{after}")), column + usize::from(start > 0))
}

/// Two lines: the input, indented, and a caret (in colour) under byte
/// `offset`.
#[must_use]
pub fn caret(input: &str, offset: usize) -> String {
    let (shown, column) = printable(input, offset);
    let mut out = Vec::new();
    write_caret(&mut out, &shown, column, true);
    // `shown` is text and the rest ASCII: the lossy step changes nothing.
    String::from_utf8_lossy(&out).into_owned()
}

/// The two lines of [`caret`] for an input already made printable, the
/// caret at `column` (0-based), in colour only when `color` holds: both
/// from [`printable`].
pub fn write_caret(out: &mut Vec<u8>, shown: &str, column: usize, color: bool) {
    out.extend_from_slice(b"  ");
    out.extend_from_slice(shown.as_bytes());
    out.extend_from_slice(b"\n  ");
    out.resize(out.len() + column, b' ');
    if color {
        let _ = writeln!(out, "{CARET}^{CARET:#}");
    } else {
        out.extend_from_slice(b"^\n");
    }
}

/// The name of an input given as an argument in a diagnostic's place:
/// `<args>:N:COLUMN` is argument N, as `<stdin>:N:COLUMN` is line N of
/// stdin.
pub const ARGS: &str = "<args>";

/// What a diagnostic says: one shape for every subcommand, as rustc and
/// ripgrep have one. [`Diagnostic::write`] writes
///
/// ```text
/// rfc1738: FILE:LINE:COLUMN: LABEL[kind]: message (in rule)
///   the input
///         ^
/// ```
///
/// the column that of the byte, from 1; `(in rule)` for an error alone.
#[derive(Clone, Copy, Debug)]
pub struct Diagnostic<'a> {
    /// The file as shown (already [`escape`]d): `<stdin>`, [`ARGS`], a name.
    pub file: &'a str,
    /// The line (or argument) number, from 1.
    pub line: u64,
    /// `error`, `warning` or `security`.
    pub label: &'a str,
    /// The kind's id (`unsafe`, `password`...).
    pub kind: &'a str,
    /// One lower-case line.
    pub message: &'a str,
    /// The §5 rule an error was matching.
    pub rule: Option<&'a str>,
}

impl Diagnostic<'_> {
    /// The first line, without its line break, coloured when `color`
    /// holds: `rfc1738: FILE:LINE:COLUMN: LABEL[kind]: message (in rule)`,
    /// `column` that of the byte, from 1.
    #[must_use]
    pub fn head(&self, column: usize, color: bool) -> String {
        let style = if self.label == "warning" { WARNING } else { ERROR };
        let (on, off) = if color {
            (style.render().to_string(), style.render_reset().to_string())
        } else {
            Default::default()
        };
        let rule = self.rule.map(|r| format!(" (in {r})")).unwrap_or_default();
        format!(
            "rfc1738: {}:{}:{column}: {on}{}{off}[{}]: {}{rule}",
            self.file, self.line, self.label, self.kind, self.message
        )
    }

    /// The head, then `input` with a caret under byte `offset`.
    ///
    /// A line past the limit is not kept: its head alone, its column
    /// the limit's.
    pub fn write(&self, out: &mut Vec<u8>, input: &[u8], offset: usize, color: bool) {
        out.extend_from_slice(self.head(offset + 1, color).as_bytes());
        out.push(b'\n');
        if input.is_empty() && offset > 0 {
            return;
        }
        let text = String::from_utf8_lossy(input);
        let (shown, at) = printable(&text, lossy_offset(input, offset));
        write_caret(out, &shown, at, color);
    }
}

/// The offset in the lossy UTF-8 text of `input` that corresponds to
/// byte `offset`.
#[must_use]
pub fn lossy_offset(input: &[u8], offset: usize) -> usize {
    let before = &input[..offset.min(input.len())];
    if before.is_ascii() {
        return before.len();
    }
    String::from_utf8_lossy(before).len()
}

/// The 1-based column of byte `offset`, counted in characters.
#[must_use]
pub fn column(input: &str, offset: usize) -> usize {
    // One character shown for each character of the input: the column is
    // the count of characters before the offset, whatever window is shown.
    let mut at = offset.min(input.len());
    while !input.is_char_boundary(at) {
        at -= 1;
    }
    input[..at].chars().count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_input_shows_a_window_around_the_offset() {
        let input = format!("http://h.dom/{}|{}", "a".repeat(5_000_000), "b".repeat(5_000_000));
        let offset = 13 + 5_000_000;
        let (shown, column) = printable(&input, offset);
        assert!(shown.len() < WINDOW + 8, "{}", shown.len());
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(shown.chars().nth(column), Some('|'));
        let text = caret(&input, offset);
        assert!(text.len() < 3 * WINDOW, "{}", text.len());
        // Near the start: no mark before.
        let (shown, column) = printable(&input, 4);
        assert!(shown.starts_with("http://h.dom/aaa") && shown.ends_with('…'));
        assert_eq!(column, 4);
    }

    #[test]
    fn one_shape_for_every_diagnostic() {
        let d = Diagnostic {
            file: "<stdin>",
            line: 3,
            label: "error",
            kind: "unsafe",
            message: "unsafe character must be encoded",
            rule: Some("hpath"),
        };
        let mut out = Vec::new();
        d.write(&mut out, "http://h/\u{e9} b".as_bytes(), 11, false);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "rfc1738: <stdin>:3:12: error[unsafe]: unsafe character must be encoded (in hpath)\n  http://h/\u{e9} b\n            ^\n"
        );
        let w = Diagnostic { label: "warning", rule: None, ..d };
        assert!(w.head(1, false).ends_with("warning[unsafe]: unsafe character must be encoded"));
    }

    #[test]
    fn caret_sits_under_the_offset() {
        let text = caret("http://h/a b", 10);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  http://h/a b");
        assert!(lines[1].starts_with("            "));
        assert_eq!(column("http://h/a b", 10), 11);
    }

    #[test]
    fn control_characters_keep_the_caret_aligned() {
        let (shown, col) = printable("a\tb\u{e9}c", 3);
        assert_eq!(shown, "a\\tb\u{e9}c");
        assert_eq!(col, 4);
        assert_eq!(printable("a\u{7f}b", 2), (Cow::Owned("a\\x7Fb".to_string()), 5));
        // Printable ASCII, shown as it is; past the end, the column after it.
        assert_eq!(printable("a b~", 2), (Cow::Borrowed("a b~"), 2));
        assert_eq!(printable("ab", 5), (Cow::Borrowed("ab"), 2));
        assert_eq!(printable("\u{e9}b", 5).1, 2);
    }

    #[test]
    fn escape_once_keeps_what_a_server_escaped_and_no_control_character() {
        // nginx's `\x16`, Apache's `\"` and `\\`: as written.
        assert_eq!(escape_once(br#"GET \x16\x03 \"q\" \\"#), r#"GET \x16\x03 \"q\" \\"#);
        // A raw control byte beside a `\`: escaped, the `\` kept.
        assert_eq!(escape_once(b"a\\\x16b\\"), "a\\\\x16b\\");
        for b in 0..=255u8 {
            for text in [[b, b'\\'], [b'\\', b]] {
                let shown = escape_once(&text);
                assert!(shown.chars().all(|c| !c.is_control()), "{b:#x}: {shown:?}");
            }
        }
        // The caret's column counts the text as shown.
        assert_eq!(printable("\\x16 a\u{7f}b", 7), (Cow::Owned("\\x16 a\\x7Fb".to_string()), 10));
    }

    #[test]
    fn escape_leaves_no_control_character_and_can_be_undone() {
        assert_eq!(escape(b"a\x1b[31m\r\n\\\xff"), "a\\x1B[31m\\r\\n\\\\\\xFF");
        assert_eq!(escape("\u{202e}\u{85}\u{e9}".as_bytes()), "\\u{202E}\\u{0085}\u{e9}");
        for b in 0..=255u8 {
            let one = [b];
            let shown = escape(&one);
            assert!(shown.chars().all(|c| !c.is_control()), "{b:#x}: {shown:?}");
        }
    }
}
