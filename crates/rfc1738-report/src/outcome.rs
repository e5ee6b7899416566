//! One input, parsed: a [`Url`] or a [`Problem`] that says where and why.
//! Inputs arrive as bytes; octets that are not UTF-8 are non-ASCII and so
//! invalid in a URL (§2.2), reported at their offset like any other error.

use rfc1738::{ErrorKind, ParseError, ParseOptions, Url, Warning};
use std::borrow::Cow;

/// Why an input is not a URL, in the terms of the JSON contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Byte offset into the input.
    pub offset: usize,
    /// [`ErrorKind::id`], or `too-long` for a line past `--max-len`.
    pub kind: &'static str,
    /// The §5 rule being matched.
    pub rule: &'static str,
    /// One lower-case line (most are fixed texts: no allocation).
    pub message: Cow<'static, str>,
}

impl From<ParseError> for Problem {
    fn from(e: ParseError) -> Problem {
        Problem {
            offset: e.offset(),
            kind: e.kind().id(),
            rule: e.rule().name(),
            message: Cow::Borrowed(e.kind().message()),
        }
    }
}

impl Problem {
    /// The JSON of the contract: `{offset, kind, rule, message}`.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"offset": self.offset, "kind": self.kind, "rule": self.rule, "message": self.message})
    }

    /// A line longer than the command's limit.
    #[must_use]
    pub fn too_long(len: u64, max: usize) -> Problem {
        Problem {
            offset: max,
            kind: ErrorKind::TooLong.id(),
            rule: "url",
            message: format!("the line has {len} bytes, more than the limit of {max} (--max-len)").into(),
        }
    }
}

/// A warning in the terms of the JSON contract: a [`Warning`] whose offset
/// may be counted in a longer text (a log line) than the URL's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Byte offset into the input.
    pub offset: usize,
    /// [`rfc1738::WarningKind::id`].
    pub kind: &'static str,
    /// Whether it is a security warning rather than an accepted deviation.
    pub security: bool,
    /// One lower-case line.
    pub message: String,
}

impl From<&Warning> for Note {
    fn from(w: &Warning) -> Note {
        Note {
            offset: w.offset(),
            kind: w.kind().id(),
            security: w.kind().is_security(),
            message: w.message().into(),
        }
    }
}

impl Note {
    /// The JSON of the contract: `{offset, kind, security, message}`.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"offset": self.offset, "kind": self.kind, "security": self.security, "message": self.message})
    }
}

/// Parses raw input bytes.
///
/// # Errors
///
/// The first error of the parse, at its offset, or the first octet that
/// is not UTF-8 (§2.2: non-ASCII).
pub fn parse_bytes(input: &[u8]) -> Result<Url, Problem> {
    match std::str::from_utf8(input) {
        Ok(s) => Url::parse(s).map_err(Problem::from),
        Err(e) => Err(non_utf8(input, e.valid_up_to())),
    }
}

/// Parses raw input bytes accepting what `options` accept; the URL comes
/// with the warnings of the parse (deviations accepted, an upper-case
/// scheme).
///
/// # Errors
///
/// The first error of the parse, at its offset, or the first octet that
/// is not UTF-8 (§2.2: non-ASCII).
pub fn parse_bytes_with(input: &[u8], options: &ParseOptions) -> Result<(Url, Vec<Warning>), Problem> {
    match std::str::from_utf8(input) {
        Ok(s) => Url::parse_with(s, options).map_err(Problem::from),
        Err(e) => Err(non_utf8(input, e.valid_up_to())),
    }
}

/// The options of `--lenient`: all of them, or none.
#[must_use]
pub fn options(lenient: bool) -> ParseOptions {
    if lenient {
        ParseOptions::lenient()
    } else {
        ParseOptions::strict()
    }
}

/// Validates raw input bytes without keeping the URL.
///
/// # Errors
///
/// The first error of the parse, at its offset, or the first octet that
/// is not UTF-8 (§2.2: non-ASCII).
pub fn validate_bytes(input: &[u8]) -> Result<(), Problem> {
    match std::str::from_utf8(input) {
        Ok(s) => rfc1738::validate(s).map_err(Problem::from),
        Err(e) => Err(non_utf8(input, e.valid_up_to())),
    }
}

/// Every rule rejects an octet 80-FF as it rejects DEL (7F), so the
/// error is found by reading the valid prefix followed by DEL: the same
/// offset and rule, with the kind told apart.
#[cold]
fn non_utf8(input: &[u8], valid: usize) -> Problem {
    let mut probe = String::from_utf8_lossy(&input[..valid]).into_owned();
    probe.push('\x7f');
    match rfc1738::validate(&probe) {
        Err(e) if e.offset() == valid && e.kind() == ErrorKind::ControlChar => Problem {
            offset: valid,
            kind: ErrorKind::NonAscii.id(),
            rule: e.rule().name(),
            message: Cow::Borrowed(ErrorKind::NonAscii.message()),
        },
        Err(e) => e.into(),
        Ok(()) => Problem {
            offset: valid,
            kind: ErrorKind::NonAscii.id(),
            rule: "url",
            message: Cow::Borrowed(ErrorKind::NonAscii.message()),
        },
    }
}

/// The scheme an input names, lower-cased, for summaries: the bytes before
/// the first `:` when they are scheme characters.
#[must_use]
pub fn scheme_of(input: &[u8]) -> Option<String> {
    scheme_bytes(input).map(|name| String::from_utf8_lossy(name).to_ascii_lowercase())
}

/// The scheme of an input as written (ASCII): the scheme characters before
/// the first `:`, when that is what the input starts with.
#[must_use]
pub fn scheme_bytes(input: &[u8]) -> Option<&[u8]> {
    let n = input.iter().take_while(|&&b| rfc1738::chars::SCHEME.contains(b)).count();
    (n > 0 && input.get(n) == Some(&b':')).then(|| &input[..n])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_utf8_octets_are_non_ascii_errors_at_their_offset() {
        let p = parse_bytes(b"http://h.dom/a\xffb").unwrap_err();
        assert_eq!((p.offset, p.kind, p.rule), (14, "non-ascii", "hpath"));
        let p = parse_bytes(b"http://h.dom/a b\xff").unwrap_err();
        assert_eq!((p.offset, p.kind), (14, "unsafe"));
        let p = parse_bytes(b"\xff").unwrap_err();
        assert_eq!((p.offset, p.kind), (0, "empty-scheme"));
        let p = parse_bytes(b"ab\xff").unwrap_err();
        assert_eq!((p.offset, p.kind, p.rule), (2, "non-ascii", "scheme"));
    }

    #[test]
    fn scheme_of_lower_cases_and_rejects_non_schemes() {
        assert_eq!(scheme_of(b"HTTP://x").as_deref(), Some("http"));
        assert_eq!(scheme_of(b"no scheme: here"), None);
        assert_eq!(scheme_of(b"plain"), None);
    }
}
