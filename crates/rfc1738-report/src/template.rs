//! `parse --get`: one line per URL, written from a template of part names.
//!
//! A template is text with parts in braces: `{scheme} {host} {port}`.
//! `{part}` is the part's value, percent-decoded; `{:part}` is the part as
//! written in the URL. Decoding never breaks a line: a decoded control
//! octet (00-1F, 7F) or an octet that is not UTF-8 stays escaped as `%XX`.
//! Nor does it merge the items of a list part: in `{ftp.cwd}`,
//! `{http.path}`, `{file.path}`, `{url_path}`, `{prospero.hsoname}` (items
//! between `/`) and `{prospero.fields}` (between `;`, names and values
//! apart at `=`), an escaped separator or `%` stays as written, so that
//! `ftp://h/a/b%2Fc/d/f` gives `{ftp.cwd}` `a/b%2Fc/d`, three segments
//! (§3.2.2: `%2F` is a `/` inside a segment, not between two).
//! `{{` and `}}` are braces; `\t`, `\n` and `\\` are a tab, a line break
//! and a backslash. A part the URL does not have is empty.

use crate::outcome::{scheme_of, Problem};
use crate::parts::{self, Value, PARTS};
use rfc1738::{pct, SchemeKind, Url};
use std::borrow::Cow;
use std::fmt;

/// A template read by [`Template::parse`].
#[derive(Clone, Debug)]
pub struct Template {
    pieces: Vec<Piece>,
}

#[derive(Clone, Debug)]
enum Piece {
    Text(String),
    /// A part (its index in [`PARTS`]) and whether it is wanted as written.
    Part {
        part: usize,
        as_written: bool,
    },
    /// One of trurl's words: `url`, `path`, `query`.
    Word {
        word: &'static str,
        as_written: bool,
    },
}

/// Why a template cannot be read: the byte offset in the template and the
/// reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    /// Byte offset in the template.
    pub offset: usize,
    /// What is wrong, in one line.
    pub message: String,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {}", self.message, self.offset)
    }
}

impl std::error::Error for TemplateError {}

/// The names of every part, in the order of the documentation.
pub fn part_names() -> impl Iterator<Item = &'static str> {
    parts::names()
}

impl Template {
    /// Reads a template.
    ///
    /// # Errors
    ///
    /// A [`TemplateError`] at the offset of an unknown part name, a `{`
    /// that is not closed, a lone `}` or an unknown `\` escape.
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            match (c, chars.peek().map(|&(_, n)| n)) {
                ('{', Some('{')) | ('}', Some('}')) => {
                    literal.push(c);
                    chars.next();
                }
                ('\\', next) => {
                    literal.push(escape(at, next)?);
                    chars.next();
                }
                ('{', _) => {
                    let close = text[at..].find('}').ok_or_else(|| error(at, "a `{` that is not closed"))?;
                    pieces.extend((!literal.is_empty()).then(|| Piece::Text(std::mem::take(&mut literal))));
                    pieces.push(part(&text[at + 1..at + close], at)?);
                    while chars.peek().is_some_and(|&(k, _)| k <= at + close) {
                        chars.next();
                    }
                }
                ('}', _) => return Err(error(at, "a `}` without its `{` (write `}}` for a brace)")),
                _ => literal.push(c),
            }
        }
        pieces.extend((!literal.is_empty()).then_some(Piece::Text(literal)));
        Ok(Template { pieces })
    }

    /// Appends the line of a valid URL (without a line break).
    pub fn render_url(&self, out: &mut Vec<u8>, input: &[u8], url: &Url) {
        self.render(out, input, Ok(url));
    }

    /// Appends the line of an invalid input: its input, scheme and error
    /// parts; every other part empty.
    pub fn render_problem(&self, out: &mut Vec<u8>, input: &[u8], problem: &Problem) {
        self.render(out, input, Err(problem));
    }

    fn render(&self, out: &mut Vec<u8>, input: &[u8], result: Result<&Url, &Problem>) {
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => out.extend_from_slice(t.as_bytes()),
                Piece::Word { word: "url", .. } => {
                    // The normal form, whole: a URL has no decoded form.
                    if let Ok(url) = result {
                        write_line_safe(out, url.normalize().as_str().as_bytes());
                    }
                }
                Piece::Word { word, as_written } => {
                    let meant = result.ok().and_then(|url| crate::set::meant(word, url).ok());
                    if let Some(part) = meant.and_then(|m| PARTS.iter().position(|(n, _)| *n == m)) {
                        Piece::Part { part, as_written: *as_written }.write(out, input, result);
                    }
                }
                piece @ Piece::Part { .. } => piece.write(out, input, result),
            }
        }
    }
}

impl Piece {
    /// Writes the value of a part (a `Part`; anything else writes nothing).
    fn write(&self, out: &mut Vec<u8>, input: &[u8], result: Result<&Url, &Problem>) {
        let &Piece::Part { part, as_written } = self else { return };
        match value(part, input, result) {
            Some(Value::Written(s)) if !as_written => write_decoded(out, &s, b""),
            Some(Value::List(s, keep)) if !as_written => write_decoded(out, &s, keep),
            Some(Value::Written(s) | Value::Plain(s) | Value::List(s, _)) => {
                write_line_safe(out, s.as_bytes())
            }
            Some(Value::Port(_, Some(s))) if as_written => write_line_safe(out, s.as_bytes()),
            Some(Value::Port(n, _)) => out.extend_from_slice(n.to_string().as_bytes()),
            None => {}
        }
    }
}

fn error(offset: usize, message: &str) -> TemplateError {
    TemplateError { offset, message: message.to_string() }
}

/// The character of `\` followed by `next`.
fn escape(at: usize, next: Option<char>) -> Result<char, TemplateError> {
    match next {
        Some('t') => Ok('\t'),
        Some('n') => Ok('\n'),
        Some('\\') => Ok('\\'),
        _ => Err(error(at, "an unknown escape (the escapes are \\t, \\n and \\\\)")),
    }
}

/// The part named inside braces at `at`: `name` or `:name`.
fn part(inside: &str, at: usize) -> Result<Piece, TemplateError> {
    let (as_written, name) = match inside.strip_prefix(':') {
        Some(name) => (true, name),
        None => (false, inside),
    };
    let name = name.trim();
    if let Some(word) = WORDS.iter().find(|w| **w == name) {
        return Ok(Piece::Word { word, as_written });
    }
    match PARTS.iter().position(|(n, _)| *n == name) {
        Some(part) => Ok(Piece::Part { part, as_written }),
        None => Err(error(at, &format!("unknown part `{{{inside}}}` (the parts: {})", list()))),
    }
}

/// trurl's words: `{url}` the normal form, `{path}` and `{query}` the
/// part each means in the URL's scheme ([`crate::set::meant`]; empty
/// where none).
const WORDS: [&str; 3] = ["url", "path", "query"];

fn list() -> String {
    part_names().collect::<Vec<_>>().join(", ")
}

/// The value of part `k` for a URL or a problem.
fn value<'a>(k: usize, input: &'a [u8], result: Result<&'a Url, &'a Problem>) -> Option<Value<'a>> {
    match (PARTS[k].0, result) {
        ("input", _) => Some(plain(String::from_utf8_lossy(input))),
        ("valid", r) => Some(plain(if r.is_ok() { "true" } else { "false" })),
        ("scheme", Ok(url)) => Some(plain(url.scheme())),
        ("kind", Ok(url)) => Some(plain(url.kind().name())),
        ("scheme", Err(_)) => scheme_of(input).map(plain),
        ("kind", Err(_)) => scheme_of(input).map(|s| plain(SchemeKind::from_bytes(s.as_bytes()).name())),
        ("error.offset", Err(p)) => Some(plain(p.offset.to_string())),
        ("error.kind", Err(p)) => Some(plain(p.kind)),
        ("error.rule", Err(p)) => Some(plain(p.rule)),
        ("error.message", Err(p)) => Some(plain(p.message.as_ref())),
        (_, Ok(url)) => PARTS[k].1(&url.as_url_ref()),
        (_, Err(_)) => None,
    }
}

fn plain<'a>(s: impl Into<Cow<'a, str>>) -> Value<'a> {
    Value::Plain(s.into())
}

/// Writes `raw` percent-decoded; octets that would break the line or are
/// not UTF-8 stay escaped, and so do the escapes of `keep` (a list's
/// separators) and of `%`, written as `%XX` in capitals.
fn write_decoded(out: &mut Vec<u8>, raw: &str, keep: &[u8]) {
    let octets = if keep.is_empty() { pct::decode(raw) } else { Cow::Owned(decode_keeping(raw, keep)) };
    for chunk in octets.utf8_chunks() {
        write_line_safe(out, chunk.valid().as_bytes());
        for &b in chunk.invalid() {
            push_escape(out, b);
        }
    }
}

/// `raw` decoded but for the escapes of `keep` and of `%`: the items of a
/// list stay apart, and a `%` decoded can be told from one kept.
fn decode_keeping(raw: &str, keep: &[u8]) -> Vec<u8> {
    let b = raw.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if let (b'%', Some(h), Some(l)) =
            (b[i], b.get(i + 1).and_then(|&c| hex(c)), b.get(i + 2).and_then(|&c| hex(c)))
        {
            let octet = (h * 16 + l) as u8;
            if octet == b'%' || keep.contains(&octet) {
                push_escape(&mut out, octet);
            } else {
                out.push(octet);
            }
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// Writes text with its control octets escaped as `%XX`.
fn write_line_safe(out: &mut Vec<u8>, text: &[u8]) {
    for &b in text {
        if b < 0x20 || b == 0x7f {
            push_escape(out, b);
        } else {
            out.push(b);
        }
    }
}

fn push_escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::parse_bytes;

    fn line(template: &str, input: &str) -> String {
        let t = Template::parse(template).unwrap();
        let mut out = Vec::new();
        match parse_bytes(input.as_bytes()) {
            Ok(url) => t.render_url(&mut out, input.as_bytes(), &url),
            Err(p) => t.render_problem(&mut out, input.as_bytes(), &p),
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn parts_decoded_and_as_written() {
        let u = "ftp://us%65r@h.dom:0021/a%2Fb/c%20d;type=i";
        assert_eq!(line("{scheme} {host} {port} {:port} {effective_port}", u), "ftp h.dom 21 0021 21");
        assert_eq!(
            line("{user}|{:user}|{ftp.cwd}|{:ftp.cwd}|{ftp.name}|{ftp.typecode}", u),
            "user|us%65r|a%2Fb|a%2Fb|c d|i"
        );
        // §3.2.2: `%2F` is a `/` inside a segment; the list keeps it apart.
        assert_eq!(
            line("{ftp.cwd}|{:ftp.cwd}", "ftp://h/a/b%2Fc%20d%25/d/f"),
            "a/b%2Fc d%25/d|a/b%2Fc%20d%25/d"
        );
        assert_eq!(line("{http.path}", "http://h/a%2Fb/c%41"), "a%2Fb/cA");
        assert_eq!(line("{prospero.fields}", "prospero://h/x;a=b%3Dc;d=%3Be"), "a=b%3Dc;d=%3Be");
        assert_eq!(line("[{password}]", u), "[]");
    }

    #[test]
    fn scheme_views() {
        assert_eq!(
            line("{gopher.type} {gopher.selector}\\t{gopher.search}", "gopher://h/7a%20b%09q"),
            "7 a b\tq"
        );
        assert_eq!(line("{gopher.type}", "gopher://h"), "1");
        assert_eq!(line("{mailto.address}", "mailto:a%2Bb@c.dom"), "a+b@c.dom");
        assert_eq!(line("{news.article}{news.group}", "news:comp.lang"), "comp.lang");
        assert_eq!(line("{wais.form} {wais.database} {wais.search}", "wais://h/db?x"), "index db x");
        assert_eq!(line("{file.path} {file.host}", "file://h/etc/x"), "etc/x h");
        assert_eq!(line("{http.path}?{http.search}", "http://h/a?b"), "a?b");
        assert_eq!(line("{nntp.group}/{nntp.article}", "nntp://h/g/12"), "g/12");
        assert_eq!(line("{prospero.fields}", "prospero://h/x;a=b;c=d"), "a=b;c=d");
    }

    #[test]
    fn decoding_keeps_each_url_on_one_line() {
        assert_eq!(line("{gopher.selector}", "gopher://h/1a%01b%FF%E2%82%AC"), "a%01b%FF\u{20ac}");
    }

    #[test]
    fn invalid_input_fills_input_scheme_and_error() {
        let got =
            line("{input}|{valid}|{scheme}|{host}|{error.offset}|{error.kind}|{error.rule}", "http://h/ a");
        assert_eq!(got, "http://h/ a|false|http||9|unsafe|hpath");
        assert_eq!(line("{error.kind}", "http://h/a"), "");
    }

    #[test]
    fn braces_escapes_and_errors() {
        assert_eq!(line("{{{scheme}}}", "http://h/"), "{http}");
        let e = Template::parse("{scheme} {hots}").unwrap_err();
        assert_eq!(e.offset, 9);
        assert!(e.message.starts_with("unknown part `{hots}`"), "{e}");
        assert_eq!(Template::parse("a {host").unwrap_err().offset, 2);
        assert_eq!(Template::parse("a } b").unwrap_err().offset, 2);
        assert_eq!(Template::parse("\\x").unwrap_err().offset, 0);
    }
}
