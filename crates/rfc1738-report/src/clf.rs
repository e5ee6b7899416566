//! Common Log Format lines: the request URL of each, for
//! `rfc1738 check --format clf access.log`.
//!
//! ```text
//! 127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326
//!                                                 ^^^ ^^^^^^^^^^^^^^^ ^^^^^^^^
//!                                              method  target         protocol
//! ```
//!
//! The request is the first double-quoted field (the host, ident, user and
//! date fields hold no `"`); inside it, Apache writes `"` and `\` as `\"`
//! and `\\`, and other unprintable octets as `\xhh`. Those escapes are
//! left in the target, where the `\` is unsafe (§2.2) and so reported.
//! Combined Log Format lines (referer and user agent after the size) read
//! the same way.
//!
//! A request target is an absolute URL (`GET http://h/p HTTP/1.0`, as a
//! proxy logs it) or, far more often, a path (`GET /p HTTP/1.0`). A path is
//! checked as the `hpath [ "?" search ]` of an http URL (§3.3), with error
//! offsets still counted in the line.

use crate::outcome::{scheme_bytes, validate_bytes, Problem};
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// Why a line has no request URL. Each offset is a byte offset in the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClfError {
    /// No `"` opens a request field; the offset is the end of the line.
    NoRequest(usize),
    /// The request field is not closed; the offset is its opening `"`.
    Unterminated(usize),
    /// The request field is `"-"` (the server logged no request, as for
    /// a timeout); the offset is the `-`.
    Dash(usize),
    /// The request has no space after the method, so no target; the offset
    /// is the end of the request.
    NoTarget(usize),
}

impl ClfError {
    /// The byte offset in the line this error points at.
    #[must_use]
    pub fn offset(self) -> usize {
        match self {
            Self::NoRequest(o) | Self::Unterminated(o) | Self::Dash(o) | Self::NoTarget(o) => o,
        }
    }

    /// A short stable name, for machine output.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::NoRequest(_) => "clf-no-request",
            Self::Unterminated(_) => "clf-unterminated-request",
            Self::Dash(_) => "clf-no-request-line",
            Self::NoTarget(_) => "clf-no-target",
        }
    }
}

impl fmt::Display for ClfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoRequest(_) => "no quoted request field in the log line",
            Self::Unterminated(_) => "the quoted request field is not closed",
            Self::Dash(_) => "the server logged no request line (\"-\")",
            Self::NoTarget(_) => "the request line has no target after the method",
        })
    }
}

impl From<ClfError> for Problem {
    fn from(e: ClfError) -> Problem {
        Problem { offset: e.offset(), kind: e.id(), rule: "clf", message: e.to_string().into() }
    }
}

/// The request line of a CLF line: `METHOD SP target [SP protocol]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// `GET`, `POST`, `CONNECT`, ...
    pub method: &'a str,
    /// The request target, as logged.
    pub target: &'a str,
    /// Byte offset of the target in the line.
    pub offset: usize,
    /// `HTTP/1.0` and the like; `None` for an HTTP/0.9 request.
    pub protocol: Option<&'a str>,
}

/// The parts of a request line as byte ranges in the line: method, target,
/// protocol. Works on bytes, so that a line that is not UTF-8 is read too;
/// every boundary is at an ASCII byte.
type Spans = (Range<usize>, Range<usize>, Option<Range<usize>>);

fn spans(b: &[u8]) -> Result<Spans, ClfError> {
    let open = b.iter().position(|&c| c == b'"').ok_or(ClfError::NoRequest(b.len()))?;
    let from = open + 1;
    let mut i = from;
    let close = loop {
        match b.get(i) {
            None => return Err(ClfError::Unterminated(open)),
            Some(b'\\') => i += 2,
            Some(b'"') => break i,
            Some(_) => i += 1,
        }
    };
    if &b[from..close] == b"-" {
        return Err(ClfError::Dash(from));
    }
    let sp = b[from..close].iter().position(|&c| c == b' ').ok_or(ClfError::NoTarget(close))?;
    let method = from..from + sp;
    // Several spaces may follow the method; the target starts after them.
    let start = (method.end..close).find(|&k| b[k] != b' ').ok_or(ClfError::NoTarget(close))?;
    // The protocol is the last word when it names one; a target with a
    // space in it (a malformed request, logged as received) keeps the space.
    if let Some(last_sp) = (start..close).rev().find(|&k| b[k] == b' ') {
        let target_end = (start..last_sp).rev().find(|&k| b[k] != b' ').map(|k| k + 1);
        if let (true, Some(target_end)) = (b[last_sp + 1..close].starts_with(b"HTTP/"), target_end) {
            return Ok((method, start..target_end, Some(last_sp + 1..close)));
        }
    }
    Ok((method, start..close, None))
}

/// Reads the request line of a CLF line.
///
/// # Errors
///
/// A [`ClfError`] when the line has no request field, or it is not closed,
/// or it is `"-"`, or it has no target.
pub fn request(line: &str) -> Result<Request<'_>, ClfError> {
    let (method, target, protocol) = spans(line.as_bytes())?;
    Ok(Request {
        method: &line[method],
        offset: target.start,
        target: &line[target],
        protocol: protocol.map(|p| &line[p]),
    })
}

/// The request URL of a CLF line and its byte offset in the line.
///
/// # Errors
///
/// As [`request`].
// `check` needs the method too and calls `request`; this is the short form
// for callers that want the URL alone.
#[cfg_attr(not(test), allow(dead_code))]
pub fn request_url(line: &str) -> Result<(&str, usize), ClfError> {
    request(line).map(|r| (r.target, r.offset))
}

/// The stand-in for the server in a logged path: checked as
/// `http://localhost/path`, which puts the path in `hpath`.
const ORIGIN: &str = "http://localhost";

/// Checks the request URL of one log line; every offset in the
/// [`Problem`] is a byte offset in the line, for a caret under it.
///
/// - `/path?search` (origin form): checked as the `hpath` and `search` of
///   an http URL.
/// - `*` (`OPTIONS *`): names no resource; nothing to check.
/// - `host:port` after `CONNECT` (authority form): checked as the
///   `hostport` of an http URL.
/// - anything else: checked as a whole URL.
///
/// Octets that are not UTF-8 in the target are reported as non-ASCII at
/// their offset, as `check` reports them in a URL.
///
/// # Errors
///
/// The first [`Problem`] found: the line's or the URL's.
pub fn validate_line(line: &[u8]) -> Result<(), Problem> {
    validate_request(&raw_request(line)?)
}

/// A line's request as bytes, for a line that need not be UTF-8: every
/// boundary is at an ASCII byte, as [`request`] reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawRequest<'a> {
    /// The method, `GET` in most lines.
    pub method: &'a [u8],
    /// The request target: a path, a URL, `host:port` or `*`.
    pub target: &'a [u8],
    /// Byte offset of the target in the line.
    pub offset: usize,
}

/// Reads the request of a CLF line, on its bytes.
///
/// # Errors
///
/// As [`request`].
pub fn raw_request(line: &[u8]) -> Result<RawRequest<'_>, ClfError> {
    let (method, target, _) = spans(line)?;
    Ok(RawRequest { method: &line[method], offset: target.start, target: &line[target] })
}

/// Checks a request read by [`raw_request`], as [`validate_line`] checks
/// its line; offsets in the line.
///
/// # Errors
///
/// The first [`Problem`] of the request URL.
pub fn validate_request(r: &RawRequest<'_>) -> Result<(), Problem> {
    let (method, offset, target) = (r.method, r.offset, r.target);
    let prefix: &[u8] = if target.first() == Some(&b'/') {
        ORIGIN.as_bytes()
    } else if target == b"*" {
        return Ok(());
    } else if method.eq_ignore_ascii_case(b"CONNECT") {
        b"http://"
    } else {
        b""
    };
    validate_bytes(&[prefix, target].concat()).map_err(|mut p| {
        p.offset = offset + p.offset.saturating_sub(prefix.len());
        p
    })
}

/// The scheme a request target is read in: its own, or http for a path
/// (`GET /x`, checked as an http URL's `hpath`) and for `CONNECT`; none
/// for `*`. Borrowed when the scheme is written in lower case, as it
/// almost always is: no allocation per line.
#[must_use]
pub fn request_scheme<'a>(r: &RawRequest<'a>) -> Option<Cow<'a, str>> {
    let t = r.target;
    if t == b"*" {
        return None;
    }
    if r.method.eq_ignore_ascii_case(b"CONNECT")
        || t.first().is_some_and(|&c| c == b'/' || c.is_ascii_digit())
        || !t.contains(&b':')
    {
        return Some(Cow::Borrowed("http"));
    }
    // Scheme characters are ASCII, so the name is a str of its own.
    let name = std::str::from_utf8(scheme_bytes(t)?).ok()?;
    Some(if name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    })
}

/// A line checked as `check --format clf` checks it, and the scheme its
/// request URL is counted under: the request is read once for both.
pub fn check_line(line: &[u8]) -> (Result<(), Problem>, Option<Cow<'_, str>>) {
    match raw_request(line) {
        Ok(r) => (validate_request(&r), request_scheme(&r)),
        Err(e) => (Err(e.into()), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        r#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326"#;

    #[test]
    fn request_url_of_the_classic_line() {
        assert_eq!(request_url(LINE), Ok(("/apache_pb.gif", 52)));
        assert_eq!(&LINE[52..66], "/apache_pb.gif");
        let r = request(LINE).unwrap();
        assert_eq!((r.method, r.protocol), ("GET", Some("HTTP/1.0")));
    }

    #[test]
    fn combined_format_absolute_urls_and_http_0_9() {
        let line = r#"h - - [d] "GET http://a.org/x?y HTTP/1.1" 200 5 "http://ref.org/" "Mozilla/5.0 (X11)""#;
        assert_eq!(request_url(line), Ok(("http://a.org/x?y", 15)));
        let line = r#"h - - [d] "GET /x" 200 5"#;
        assert_eq!(request(line).map(|r| (r.target, r.protocol)), Ok(("/x", None)));
        let line = r#"h - - [d] "CONNECT a.org:443 HTTP/1.1" 200 0"#;
        assert_eq!(request_url(line), Ok(("a.org:443", 19)));
    }

    #[test]
    fn malformed_requests_keep_their_target_as_logged() {
        // A space inside the target: the target runs to the protocol.
        let line = r#"h - - [d] "GET /a b HTTP/1.1" 400 0"#;
        assert_eq!(request_url(line), Ok(("/a b", 15)));
        // Several spaces after the method.
        let line = r#"h - - [d] "GET   /a HTTP/1.1" 400 0"#;
        assert_eq!(request_url(line), Ok(("/a", 17)));
        // Escaped quotes and backslashes stay inside the field.
        let line = r#"h - - [d] "GET /a\"b\\ HTTP/1.1" 400 0"#;
        assert_eq!(request_url(line), Ok((r#"/a\"b\\"#, 15)));
        // A target that looks like a protocol is still the target.
        let line = r#"h - - [d] "GET HTTP/1.1" 400 0"#;
        assert_eq!(request_url(line), Ok(("HTTP/1.1", 15)));
    }

    #[test]
    fn lines_without_a_request_url() {
        assert_eq!(request_url("no quotes here"), Err(ClfError::NoRequest(14)));
        assert_eq!(request_url(r#"h - - [d] "GET /x"#), Err(ClfError::Unterminated(10)));
        assert_eq!(request_url(r#"h - - [d] "GET /x\" 200"#), Err(ClfError::Unterminated(10)));
        assert_eq!(request_url(r#"h - - [d] "-" 408 0"#), Err(ClfError::Dash(11)));
        assert_eq!(request_url(r#"h - - [d] "\x16\x03\x01" 400 0"#), Err(ClfError::NoTarget(23)));
        assert_eq!(request_url(r#"h - - [d] "GET " 400 0"#), Err(ClfError::NoTarget(15)));
        assert_eq!(request_url(""), Err(ClfError::NoRequest(0)));
    }

    #[test]
    fn validate_line_points_into_the_line() {
        assert_eq!(validate_line(LINE.as_bytes()), Ok(()));
        let line = r#"h - - [d] "GET /~joe/ HTTP/1.0" 200 1"#;
        let p = validate_line(line.as_bytes()).unwrap_err();
        assert_eq!((p.offset, p.kind), (16, "unsafe"));
        assert_eq!(&line[16..17], "~");
        let line = r#"h - - [d] "GET http://a.org/x y HTTP/1.0" 200 1"#;
        let p = validate_line(line.as_bytes()).unwrap_err();
        assert_eq!(&line[p.offset..p.offset + 1], " ");
        let line = r#"h - - [d] "OPTIONS * HTTP/1.1" 200 0"#;
        assert_eq!(validate_line(line.as_bytes()), Ok(()));
        let line = r#"h - - [d] "CONNECT a.org:443 HTTP/1.1" 200 0"#;
        assert_eq!(validate_line(line.as_bytes()), Ok(()));
        let line = r#"h - - [d] "CONNECT a.org:x HTTP/1.1" 200 0"#;
        assert_eq!(validate_line(line.as_bytes()).unwrap_err().offset, 25);
        let line = r#"h - - [d] "-" 408 0"#;
        assert_eq!(validate_line(line.as_bytes()).unwrap_err().kind, "clf-no-request-line");
    }

    #[test]
    fn octets_that_are_not_utf8_are_reported_at_their_offset() {
        let line = b"h - - [d] \"GET /a\xffb HTTP/1.0\" 200 1";
        let p = validate_line(line).unwrap_err();
        assert_eq!((p.offset, p.kind), (17, "non-ascii"));
        // After the request, they do not matter.
        let line = b"h - - [d] \"GET /a HTTP/1.0\" 200 1 \"\xff\"";
        assert_eq!(validate_line(line), Ok(()));
    }

    #[test]
    fn raw_request_reads_the_bytes_as_request_reads_the_text() {
        let r = raw_request(LINE.as_bytes()).unwrap();
        let t = request(LINE).unwrap();
        assert_eq!((r.method, r.target, r.offset), (t.method.as_bytes(), t.target.as_bytes(), t.offset));
        let line = b"h - - [d] \"GET /a\xffb HTTP/1.0\" 200 1";
        let r = raw_request(line).unwrap();
        assert_eq!((r.method, r.target, r.offset), (&b"GET"[..], &b"/a\xffb"[..], 15));
        assert_eq!(validate_request(&r).unwrap_err().offset, 17);
        assert_eq!(validate_line(line).unwrap_err().offset, 17);
        assert_eq!(raw_request(b"no request"), Err(ClfError::NoRequest(10)));
    }
}
