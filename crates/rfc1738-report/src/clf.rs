//! Common Log Format lines: the request URL of each, for
//! `rfc1738 check --input-format clf access.log`.
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

use crate::logtime::LogTime;
use crate::outcome::{parse_bytes_with, scheme_bytes, validate_bytes, Note, Problem};
use memchr::{memchr, memchr2, memrchr};
use rfc1738::ParseOptions;
use serde_json::{json, Map, Value};
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
    /// The request field holds bytes that are not an HTTP request line
    /// (RFC 7230 §3.1.1: `method SP request-target SP HTTP-version`, or
    /// HTTP/0.9's `method SP target`): a method that is not a token (TLS
    /// or other binary bytes, as the server escaped them), or words after
    /// the target that are not `HTTP/x.y`. A log line with no request,
    /// not a URL error; the offset is the first byte that is not one.
    NotRequest(usize),
    /// What comes before the request is not `host ident authuser [date] `:
    /// no `[date] ` before the request; the line is not a log line (a
    /// request line alone, a line of another format); the offset is the
    /// request's opening `"`.
    NoDate(usize),
    /// The line has no host field before the date (it starts with a
    /// space or with the date); the offset is 0.
    NoHost(usize),
    /// The line has a host but no ident field before the date; the offset
    /// is the date's `[`.
    NoIdent(usize),
    /// The line has a host and an ident but no user field before the
    /// date; the offset is the date's `[`.
    NoUser(usize),
    /// More fields than `host ident user` before the date (a vhost line
    /// has the virtual host first: its format names `%v`); the offset is
    /// the fourth field.
    ExtraField(usize),
    /// What follows the request is not ` status` (a 3-digit status or
    /// `-`): the line is not a log line; the offset is just after the
    /// request's closing `"`.
    NoStatus(usize),
    /// No size after the status (digits or `-`): the line is not a log
    /// line; the offset is where the size should be.
    NoBytes(usize),
    /// The line does not follow the log format given (`--log-format`);
    /// the offset is the first byte that differs.
    Mismatch(usize),
    /// The log format given has no request field (`%r`, `$request`).
    NoRequestField(usize),
}

impl ClfError {
    /// The byte offset in the line this error points at.
    #[must_use]
    pub fn offset(self) -> usize {
        match self {
            Self::NoRequest(o)
            | Self::Unterminated(o)
            | Self::Dash(o)
            | Self::NoTarget(o)
            | Self::NotRequest(o)
            | Self::NoDate(o)
            | Self::NoHost(o)
            | Self::NoIdent(o)
            | Self::NoUser(o)
            | Self::ExtraField(o)
            | Self::NoStatus(o)
            | Self::NoBytes(o)
            | Self::Mismatch(o)
            | Self::NoRequestField(o) => o,
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
            Self::NotRequest(_) => "clf-not-a-request",
            Self::NoDate(_) => "clf-no-date",
            Self::NoHost(_) => "clf-no-host",
            Self::NoIdent(_) => "clf-no-ident",
            Self::NoUser(_) => "clf-no-user",
            Self::ExtraField(_) => "clf-extra-field",
            Self::NoStatus(_) => "clf-no-status",
            Self::NoBytes(_) => "clf-no-bytes",
            Self::Mismatch(_) => "clf-format-mismatch",
            Self::NoRequestField(_) => "clf-no-request-field",
        }
    }

    /// Whether the line is a log line at all: a log line without a request
    /// (`"-"`, a request with no target) is one; a line without the fields
    /// of the format around its request is not.
    #[must_use]
    pub fn is_log_line(self) -> bool {
        matches!(self, Self::Dash(_) | Self::NoTarget(_) | Self::NotRequest(_) | Self::NoRequestField(_))
    }

    /// The row a line with this error is counted under in a summary by
    /// scheme: `(no request)` for a log line without one, `(not clf)` for a
    /// line that is not a log line.
    #[must_use]
    pub fn row(self) -> &'static str {
        if self.is_log_line() {
            NO_REQUEST
        } else {
            NOT_CLF
        }
    }
}

/// The summary row of a log line that has no request URL.
pub const NO_REQUEST: &str = "(no request)";
/// The summary row of a line that is not a Common Log Format line.
pub const NOT_CLF: &str = "(not clf)";

impl fmt::Display for ClfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoRequest(_) => "no quoted request field in the log line",
            Self::Unterminated(_) => "the quoted request field is not closed",
            Self::Dash(_) => "the server logged no request line (\"-\")",
            Self::NoTarget(_) => "the request line has no target after the method",
            Self::NotRequest(_) => "not an HTTP request line (method SP target SP HTTP/x.y)",
            Self::NoDate(_) => "not a log line: no `host ident user [date] ` before the request",
            Self::NoHost(_) => "not a log line: no host field (host ident user [date])",
            Self::NoIdent(_) => "not a log line: no ident field after the host (host ident user [date])",
            Self::NoUser(_) => "not a log line: no user field after the ident (host ident user [date])",
            Self::ExtraField(_) => {
                "not a log line: more fields than host ident user before the date \
                 (a vhost line needs a format that names %v: --log-format vhost_combined)"
            }
            Self::NoStatus(_) => "not a log line: no status after the request",
            Self::NoBytes(_) => "not a log line: no size after the status",
            Self::Mismatch(_) => "not a line of the log format given",
            Self::NoRequestField(_) => "the log format has no request field (%r, $request)",
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

/// The parts of a log line as byte ranges in the line: method, target,
/// protocol of the request, and the status and size after it. Works on
/// bytes, so that a line that is not UTF-8 is read too; every boundary is
/// at an ASCII byte.
pub(crate) struct Spans {
    method: Range<usize>,
    target: Range<usize>,
    protocol: Option<Range<usize>>,
    /// The status code; `None` when logged as `-`.
    status: Option<u16>,
    /// The size of the response body; `None` when logged as `-`.
    bytes: Option<u64>,
}

/// The opening and closing `"` of the request field: the first `"` of
/// the line, and the next one that no `\` escapes (Apache writes `"` and
/// `\` inside the request as `\"` and `\\`).
fn quotes(b: &[u8]) -> Result<(usize, usize), ClfError> {
    let open = memchr(b'"', b).ok_or(ClfError::NoRequest(b.len()))?;
    closing(b, open).ok_or(ClfError::Unterminated(open)).map(|close| (open, close))
}

/// The `"` that closes the field `b[open]` opens: the next one no `\`
/// escapes.
pub(crate) fn closing(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    // An escape's `\` takes the byte after it, whatever it is; past the
    // end, `get` gives nothing and the field is not closed.
    while let Some(k) = b.get(i..).and_then(|rest| memchr2(b'"', b'\\', rest)) {
        if b[i + k] == b'"' {
            return Some(i + k);
        }
        i += k + 2;
    }
    None
}

/// Checks that what comes before the request is `host ident authuser
/// [date] ` (Apache's `%h %l %u %t`): it ends in `] `, the date opens at
/// the first `[` that starts a field, and the three fields before it are
/// one word each, none empty. The error says which is missing. Their
/// places: host, ident, user, and the date without its brackets.
fn head(head: &[u8]) -> Result<[Range<usize>; 4], ClfError> {
    let open = head.len();
    let Some(h) = head.strip_suffix(b"] ") else { return Err(ClfError::NoDate(open)) };
    // The common line in one pass: three words, none starting with `[`,
    // then the date's `[` (which is then the first `[` to start a field).
    // Words are short: a byte loop finds their ends sooner than `memchr`.
    let word = |start: usize| -> Option<usize> {
        let end = start + h.get(start..)?.iter().position(|&c| c == b' ')?;
        (end > start && h[start] != b'[').then_some(end)
    };
    if let Some(e0) = word(0) {
        if let Some(e1) = word(e0 + 1) {
            if let Some(e2) = word(e1 + 1) {
                if h.get(e2 + 1) == Some(&b'[') {
                    return Ok([0..e0, e0 + 1..e1, e1 + 1..e2, e2 + 2..h.len()]);
                }
            }
        }
    }
    head_slowly(h, open)
}

/// [`head`] of a line the one pass did not read: where the date is, and
/// which of the three fields before it is missing (or one too many).
#[cold]
#[inline(never)]
fn head_slowly(h: &[u8], open: usize) -> Result<[Range<usize>; 4], ClfError> {
    // The date's `[`: at the start, or after a space.
    let date = if h.first() == Some(&b'[') {
        0
    } else {
        match memchr::memmem::find(h, b" [") {
            Some(k) => k + 1,
            None => return Err(ClfError::NoDate(open)),
        }
    };
    if date == 0 {
        return Err(ClfError::NoHost(0));
    }
    // `host SP ident SP user SP`: three words before the date.
    let mut words = [0..0, 0..0, 0..0];
    let mut start = 0;
    // `h[date - 1]` is the space before the date: each word ends by it.
    for n in 0..=3 {
        let end = start + memchr(b' ', &h[start..date]).unwrap_or(date - start);
        if end == start {
            return Err([ClfError::NoHost(0), ClfError::NoIdent(date), ClfError::NoUser(date)]
                .get(n)
                .copied()
                .unwrap_or(ClfError::ExtraField(start)));
        }
        if n == 3 {
            return Err(ClfError::ExtraField(start));
        }
        words[n] = start..end;
        if end + 1 == date {
            return match n {
                0 => Err(ClfError::NoIdent(date)),
                1 => Err(ClfError::NoUser(date)),
                _ => {
                    let [host, ident, user] = words;
                    Ok([host, ident, user, date + 1..h.len()])
                }
            };
        }
        start = end + 1;
    }
    // Not reached: the fourth word returns above.
    Err(ClfError::ExtraField(start))
}

/// ` status bytes` after the request, then the end or a space (Combined
/// adds the referer and the user agent): a 3-digit status or `-`, then
/// up to 19 digits or `-`. `after` is just after the request's closing
/// `"`.
fn status_and_size(b: &[u8], after: usize) -> Result<(Option<u16>, Option<u64>), ClfError> {
    status_size_end(b, after).map(|(status, size, _)| (status, size))
}

/// [`status_and_size`], and the offset just after the size.
fn status_size_end(b: &[u8], after: usize) -> Result<(Option<u16>, Option<u64>, usize), ClfError> {
    let bad = ClfError::NoStatus(after);
    let rest = b[after..].strip_prefix(b" ").ok_or(bad)?;
    // Three digits or `-`: a byte loop, no call.
    let status_len = rest.iter().position(|&c| c == b' ').unwrap_or(rest.len());
    let status = match &rest[..status_len] {
        b"-" => None,
        [a, b, c] if [a, b, c].iter().all(|d| d.is_ascii_digit()) => {
            Some(u16::from(a - b'0') * 100 + u16::from(b - b'0') * 10 + u16::from(c - b'0'))
        }
        _ => return Err(bad),
    };
    // A valid status: what follows must be ` size`.
    let at = b.len() - rest.len() + status_len;
    let rest = b[at..].strip_prefix(b" ").ok_or(ClfError::NoBytes(at))?;
    let bad = ClfError::NoBytes(at + 1);
    let size_len = rest.iter().position(|&c| c == b' ').unwrap_or(rest.len());
    let size = match &rest[..size_len] {
        b"-" => None,
        // 19 digits stay below `u64::MAX`.
        d if !d.is_empty() && d.len() <= 19 && d.iter().all(u8::is_ascii_digit) => {
            Some(d.iter().fold(0u64, |n, &c| n * 10 + u64::from(c - b'0')))
        }
        _ => return Err(bad),
    };
    let end = b.len() - rest.len() + size_len;
    Ok((status, size, end))
}

/// The words of a request line (`METHOD SP target [SP protocol]`), as
/// ranges in it.
struct Words {
    method: Range<usize>,
    target: Range<usize>,
    protocol: Option<Range<usize>>,
}

/// `tchar` (RFC 7230 §3.2.6): the bytes of a token, such as a method.
const fn is_tchar(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
}

/// `HTTP-version = HTTP-name "/" DIGIT "." DIGIT` (RFC 7230 §2.6).
fn is_http_version(w: &[u8]) -> bool {
    matches!(w, [b'H', b'T', b'T', b'P', b'/', a, b'.', b] if a.is_ascii_digit() && b.is_ascii_digit())
}

/// Reads the words of a request line (RFC 7230 §3.1.1: `method SP
/// request-target SP HTTP-version`; HTTP/0.9: `method SP target`), as
/// ranges in it. The method is a token; the target is what stands
/// between it and the protocol (a malformed target, logged as received,
/// may hold spaces). Without a protocol, the target is one word.
///
/// # Errors
/// [`ClfError::NoTarget`] (offset `r.len()`) when no target follows a
/// method; [`ClfError::NotRequest`] at the first byte that is no part of
/// a request line. Offsets in `r`.
fn request_line(r: &[u8]) -> Result<Words, ClfError> {
    // A method is a short token: a byte loop finds its end sooner than a
    // call to `memchr` (callgrind: 38 instructions a line fewer).
    let method_end = r.iter().position(|&c| !is_tchar(c)).unwrap_or(r.len());
    match r.get(method_end) {
        None if method_end > 0 => return Err(ClfError::NoTarget(r.len())),
        Some(b' ') if method_end > 0 => {}
        _ => return Err(ClfError::NotRequest(method_end)),
    }
    let method = 0..method_end;
    // Several spaces may follow the method; the target starts after them.
    let Some(k) = r[method.end..].iter().position(|&c| c != b' ') else {
        return Err(ClfError::NoTarget(r.len()));
    };
    let start = method.end + k;
    // `r[start]` is no space, so the target is never empty.
    let Some(k) = memrchr(b' ', &r[start..]) else {
        return Ok(Words { method, target: start..r.len(), protocol: None });
    };
    let last_sp = start + k;
    if !is_http_version(&r[last_sp + 1..]) {
        // Words after the target, none of them the protocol.
        let word = if last_sp + 1 == r.len() { last_sp } else { last_sp + 1 };
        return Err(ClfError::NotRequest(word));
    }
    // `r[start]` is no space and comes before `last_sp`: the target ends
    // after it at the latest.
    let end = start + r[start..last_sp].iter().rposition(|&c| c != b' ').map_or(1, |e| e + 1);
    Ok(Words { method, target: start..end, protocol: Some(last_sp + 1..r.len()) })
}

/// Reads a log line: its request field, the fields around it, then the
/// request line inside it.
fn spans(b: &[u8]) -> Result<Spans, ClfError> {
    let (open, close) = quotes(b)?;
    head(&b[..open])?;
    let (status, bytes) = status_and_size(b, close + 1)?;
    request_spans(b, open + 1, close, status, bytes)
}

/// The request line `b[from..close]` (inside its field's quotes).
pub(crate) fn request_spans(
    b: &[u8],
    from: usize,
    close: usize,
    status: Option<u16>,
    bytes: Option<u64>,
) -> Result<Spans, ClfError> {
    let request = &b[from..close];
    if request == b"-" {
        return Err(ClfError::Dash(from));
    }
    let w = request_line(request).map_err(|e| match e {
        ClfError::NotRequest(o) => ClfError::NotRequest(from + o),
        e => ClfError::NoTarget(from + e.offset()),
    })?;
    let at = |r: Range<usize>| from + r.start..from + r.end;
    Ok(Spans { method: at(w.method), target: at(w.target), protocol: w.protocol.map(at), status, bytes })
}

/// The fields of a log line around its request, read whatever the
/// request is (`"-"` for a timeout, TLS bytes): the status and the size,
/// and the Combined format's referer and user agent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Around<'a> {
    /// The status code; `None` when logged as `-` or not a log line.
    pub status: Option<u16>,
    /// The size of the response body; `None` when logged as `-`.
    pub bytes: Option<u64>,
    /// The referer as logged (Apache's `\"` and `\\` kept) and its byte
    /// offset in the line; `None` when the line has none or `"-"`.
    pub referer: Option<(&'a [u8], usize)>,
    /// The user agent as logged; `None` when the line has none or `"-"`.
    pub agent: Option<&'a [u8]>,
    /// The client's address or name (`%h`, `$remote_addr`), as logged.
    pub client: Option<&'a [u8]>,
    /// The identity `identd` gave (`%l`); `None` when logged as `-`.
    pub ident: Option<&'a [u8]>,
    /// The user who authenticated (`%u`, `$remote_user`); `None` when
    /// logged as `-`.
    pub user: Option<&'a [u8]>,
    /// The time (`%t`, `$time_local`) as logged, without its brackets.
    pub time: Option<&'a [u8]>,
}

/// Reads a log line: its request, and the fields around it (all absent
/// when the line is not a log line).
fn read_line(b: &[u8]) -> (Result<Spans, ClfError>, Around<'_>) {
    let head = quotes(b).and_then(|(open, close)| {
        let fields = head(&b[..open])?;
        status_size_end(b, close + 1).map(|(status, bytes, end)| (fields, open, close, status, bytes, end))
    });
    let ([client, ident, user, time], open, close, status, bytes, end) = match head {
        Ok(h) => h,
        Err(e) => return (Err(e), Around::default()),
    };
    let dash = |r: Range<usize>| Some(&b[r]).filter(|v| *v != b"-");
    let mut around = Around {
        status,
        bytes,
        client: Some(&b[client]),
        ident: dash(ident),
        user: dash(user),
        time: Some(&b[time]),
        ..Around::default()
    };
    // ` "referer" "user agent"` (Combined), each escaped as the request is.
    let quoted = |at: usize| -> Option<(usize, usize)> {
        if !b[at..].starts_with(b" \"") {
            return None;
        }
        closing(b, at + 1).map(|close| (at + 2, close))
    };
    let dash = |r: (usize, usize)| (&b[r.0..r.1] != b"-").then_some(r);
    if let Some(r) = quoted(end) {
        around.referer = dash(r).map(|(from, to)| (&b[from..to], from));
        if let Some(a) = quoted(r.1 + 1) {
            around.agent = dash(a).map(|(from, to)| &b[from..to]);
        }
    }
    (request_spans(b, open + 1, close, status, bytes), around)
}

/// Reads the request line of a CLF line.
///
/// # Errors
///
/// A [`ClfError`] when the line has no request field, or it is not closed,
/// or it is `"-"`, or it has no target.
pub fn request(line: &str) -> Result<Request<'_>, ClfError> {
    let s = spans(line.as_bytes())?;
    Ok(Request {
        method: &line[s.method],
        offset: s.target.start,
        target: &line[s.target],
        protocol: s.protocol.map(|p| &line[p]),
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
    /// `HTTP/1.1` and the like; `None` for an HTTP/0.9 request.
    pub protocol: Option<&'a [u8]>,
    /// The status code after the request; `None` when logged as `-`.
    pub status: Option<u16>,
    /// The size of the response after the status; `None` when logged as `-`.
    pub bytes: Option<u64>,
}

/// Reads the request of a CLF line, on its bytes.
///
/// # Errors
///
/// As [`request`].
pub fn raw_request(line: &[u8]) -> Result<RawRequest<'_>, ClfError> {
    Ok(request_in(line, spans(line)?))
}

/// The request of `line` whose fields lie at `s`.
fn request_in(line: &[u8], s: Spans) -> RawRequest<'_> {
    RawRequest {
        method: &line[s.method],
        offset: s.target.start,
        target: &line[s.target],
        protocol: s.protocol.map(|p| &line[p]),
        status: s.status,
        bytes: s.bytes,
    }
}

/// Checks a request read by [`raw_request`], as [`validate_line`] checks
/// its line; offsets in the line.
///
/// # Errors
///
/// The first [`Problem`] of the request URL.
pub fn validate_request(r: &RawRequest<'_>) -> Result<(), Problem> {
    validate_request_with(r, false).map(drop)
}

/// The text a request target is checked as: `prefix` then the target.
fn url_prefix(r: &RawRequest<'_>) -> Option<&'static [u8]> {
    Some(if r.target.first() == Some(&b'/') {
        ORIGIN.as_bytes()
    } else if r.target == b"*" {
        return None;
    } else if r.method.eq_ignore_ascii_case(b"CONNECT") {
        b"http://"
    } else {
        b""
    })
}

/// Checks a request as [`validate_request`] does; `lenient`: accepting
/// the deviations of [`ParseOptions::lenient`], each returned as a
/// warning. Offsets in the line.
///
/// # Errors
///
/// The first [`Problem`] of the request URL.
pub fn validate_request_with(r: &RawRequest<'_>, lenient: bool) -> Result<Vec<Note>, Problem> {
    let Some(prefix) = url_prefix(r) else { return Ok(Vec::new()) };
    let at = |o: usize| r.offset + o.saturating_sub(prefix.len());
    let text = [prefix, r.target].concat();
    let result = if lenient {
        parse_bytes_with(&text, &ParseOptions::lenient()).map(|(_, warnings)| {
            warnings.iter().map(|w| Note { offset: at(w.offset()), ..Note::from(w) }).collect()
        })
    } else {
        validate_bytes(&text).map(|()| Vec::new())
    };
    result.map_err(|mut p| {
        p.offset = at(p.offset);
        p
    })
}

/// The scheme a request target is read in: its own, or http for a path
/// (`GET /x`, checked as an http URL's `hpath`) and for `CONNECT`; `*`
/// for `*` (`OPTIONS *` names the server, no resource), as the command's
/// records and summary, the Python reader and the Dask recipe all say it.
/// Borrowed when the scheme is written in lower case, as it almost always
/// is: no allocation per line.
#[must_use]
pub fn request_scheme<'a>(r: &RawRequest<'a>) -> Option<Cow<'a, str>> {
    let t = r.target;
    if t == b"*" {
        return Some(Cow::Borrowed("*"));
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

/// A line checked as `check --input-format clf` checks it by default (the
/// request URL and the Combined referer, strictly): its verdict, and the
/// scheme its request URL is counted under. The one definition of "is
/// this log line valid" every front end applies: the command, the Python
/// reader, the SQL functions of every engine, the DuckDB extension and
/// the Dask recipe ([`check_lines`] is the same, in bulk).
pub fn check_line(line: &[u8]) -> (Result<(), Problem>, Option<Cow<'_, str>>) {
    let r = record_with(line, false, Fields::BOTH);
    (r.verdict, r.scheme)
}

/// Lines a batch of [`check_lines`] holds: their URLs, some 64 to 128
/// KiB, are checked in one buffer.
const BATCH: usize = 1024;

/// One line of a batch: the line, its request and the fields around it,
/// and where its request URL and its referer lie in the batch's buffer
/// (none when not checked, or for `*`).
struct Pending<'a> {
    line: &'a [u8],
    request: Result<RawRequest<'a>, ClfError>,
    around: Around<'a>,
    url: Option<Range<usize>>,
    referer: Option<Range<usize>>,
}

/// Log lines checked as [`record_with`] checks each, strictly, `each`
/// called with the same records, line by line in order, but the URLs
/// checked many at a time: the request URLs (a path after
/// `http://localhost`, as [`validate_request`] reads it) and referers of
/// a batch of lines are laid end to end in one buffer for the library's
/// bulk validator ([`rfc1738::bulk::Checker`]), which reads it block by
/// block. The full parser reads only the URLs the bulk validator rejects,
/// for their errors: it stays the one source of truth.
///
/// # Examples
/// ```
/// use rfc1738_report::clf::{check_lines, Fields};
/// let log: &[&[u8]] = &[
///     br#"h - - [d] "GET /a HTTP/1.0" 200 1"#,
///     br#"h - - [d] "GET /a b HTTP/1.0" 200 1"#,
///     br#"h - - [d] "GET /a HTTP/1.0" 200 1 "http://r.dom/a b" "ua""#,
/// ];
/// let mut valid = Vec::new();
/// check_lines(log.iter().copied(), Fields::BOTH, |_, r| valid.push((r.verdict.is_ok(), r.row().to_string())));
/// assert_eq!(valid, [(true, "http".into()), (false, "http".into()), (false, "http".into())]);
/// ```
pub fn check_lines<'a>(
    lines: impl IntoIterator<Item = &'a [u8]>,
    fields: Fields,
    each: impl FnMut(&'a [u8], Record<'a>),
) {
    check_lines_with(lines, read_line, fields, each);
}

/// [`check_lines`], each line read by `read` (the Common Log Format
/// reader, or a log format's).
pub(crate) fn check_lines_with<'a>(
    lines: impl IntoIterator<Item = &'a [u8]>,
    read: impl Fn(&'a [u8]) -> (Result<Spans, ClfError>, Around<'a>),
    fields: Fields,
    mut each: impl FnMut(&'a [u8], Record<'a>),
) {
    let mut lines = lines.into_iter();
    let mut urls = Vec::new();
    let mut batch: Vec<Pending<'a>> = Vec::with_capacity(BATCH);
    let push = |urls: &mut Vec<u8>, parts: &[&[u8]]| {
        let start = urls.len();
        parts.iter().for_each(|p| urls.extend_from_slice(p));
        start..urls.len()
    };
    loop {
        urls.clear();
        for line in lines.by_ref().take(BATCH) {
            let (spans, around) = read(line);
            let request = spans.map(|s| request_in(line, s));
            let url = match &request {
                Ok(r) if fields.request => url_prefix(r).map(|p| push(&mut urls, &[p, r.target])),
                _ => None,
            };
            let referer = around.referer.filter(|_| fields.referer).map(|(text, _)| push(&mut urls, &[text]));
            batch.push(Pending { line, request, around, url, referer });
        }
        if batch.is_empty() {
            return;
        }
        let mut checker = rfc1738::bulk::Checker::new(&urls);
        for p in batch.drain(..) {
            // `*` names no resource: nothing to check.
            let url_ok = p.url.is_none_or(|at| checker.is_valid(at));
            let referer_ok = p.referer.is_some_and(|at| checker.is_valid(at));
            let record = assemble(
                p.request,
                p.around,
                fields,
                |r| if url_ok { Ok(Vec::new()) } else { validate_request_with(r, false) },
                |text, offset| {
                    if referer_ok {
                        Referer {
                            text,
                            offset,
                            verdict: Ok(()),
                            scheme: referer_scheme(text),
                            warnings: Vec::new(),
                        }
                    } else {
                        referer(text, offset, false)
                    }
                },
            );
            each(p.line, record);
        }
    }
}

/// Which URLs of a log line are checked and counted: the request's, the
/// referer's, or both (`check --fields`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    /// The request URL.
    pub request: bool,
    /// The Combined format's referer.
    pub referer: bool,
}

impl Fields {
    /// The request URL alone.
    pub const REQUEST: Fields = Fields { request: true, referer: false };
    /// The request URL and the referer.
    pub const BOTH: Fields = Fields { request: true, referer: true };
}

/// The referer of a Combined log line, checked as an absolute URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Referer<'a> {
    /// As logged, between its quotes.
    pub text: &'a [u8],
    /// Its byte offset in the line.
    pub offset: usize,
    /// Its verdict, offsets in the line.
    pub verdict: Result<(), Problem>,
    /// Its scheme, lower-cased; `None` when it has none.
    pub scheme: Option<Cow<'a, str>>,
    /// The deviations a lenient check accepted, offsets in the line.
    pub warnings: Vec<Note>,
}

/// Checks a referer: an absolute URL (§5; a referer with no scheme is an
/// error, as any URL without one), offsets moved into the line.
fn referer(text: &[u8], offset: usize, lenient: bool) -> Referer<'_> {
    let moved = |mut p: Problem| {
        p.offset += offset;
        p
    };
    let (verdict, warnings) = if lenient {
        match parse_bytes_with(text, &ParseOptions::lenient()) {
            Ok((_, w)) => {
                (Ok(()), w.iter().map(|w| Note { offset: offset + w.offset(), ..Note::from(w) }).collect())
            }
            Err(p) => (Err(moved(p)), Vec::new()),
        }
    } else {
        (validate_bytes(text).map_err(moved), Vec::new())
    };
    Referer { text, offset, verdict, scheme: referer_scheme(text), warnings }
}

/// A referer's scheme, lower-cased (borrowed when written so, as it
/// almost always is).
fn referer_scheme(text: &[u8]) -> Option<Cow<'_, str>> {
    // Most referers are http or https: named without a scan (a profile
    // of `check --input-format clf` had the scan and its UTF-8 check at a
    // quarter of a referer's cost).
    if text.starts_with(b"http:") {
        return Some(Cow::Borrowed("http"));
    }
    if text.starts_with(b"https:") {
        return Some(Cow::Borrowed("https"));
    }
    scheme_bytes(text).and_then(|n| std::str::from_utf8(n).ok()).map(|n| {
        if n.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(n.to_ascii_lowercase())
        } else {
            Cow::Borrowed(n)
        }
    })
}

/// The summary row of a referer with no scheme.
pub const NO_SCHEME: &str = "(no scheme)";

/// What `check --input-format clf` says of one log line: the record every front
/// end gives for it (the command's `--json`, the Python reader, the Dask
/// recipe), read once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    /// The request and the fields around it, or why the line has none.
    pub request: Result<RawRequest<'a>, ClfError>,
    /// Status, size, referer and user agent, read whatever the request.
    pub around: Around<'a>,
    /// The referer, checked; `None` when the line has none, or when it
    /// is not among the [`Fields`] checked.
    pub referer: Option<Referer<'a>>,
    /// The verdict on the line: the first error of the URLs checked
    /// ([`Fields`]: the request's, then the referer's), or the line's own
    /// error.
    pub verdict: Result<(), Problem>,
    /// The scheme of the URL the request names (see [`request_scheme`]).
    pub scheme: Option<Cow<'a, str>>,
    /// The deviations a lenient check accepted, offsets in the line.
    pub warnings: Vec<Note>,
}

/// Reads and checks one log line, its request URL alone; `lenient` as
/// in [`validate_request_with`].
#[must_use]
pub fn record(line: &[u8], lenient: bool) -> Record<'_> {
    record_with(line, lenient, Fields::REQUEST)
}

/// Reads and checks one log line: the URLs `fields` names make its
/// verdict (the referer is checked, and in the record, only when named).
#[must_use]
pub fn record_with(line: &[u8], lenient: bool, fields: Fields) -> Record<'_> {
    build(line, read_line(line), lenient, fields)
}

/// The record of a line read into its request and the fields around it
/// (by [`read_line`], or by a log format's reader).
pub(crate) fn build<'a>(
    line: &'a [u8],
    (spans, around): (Result<Spans, ClfError>, Around<'a>),
    lenient: bool,
    fields: Fields,
) -> Record<'a> {
    let request = spans.map(|s| request_in(line, s));
    assemble(request, around, fields, |r| validate_request_with(r, lenient), |t, o| referer(t, o, lenient))
}

/// A line's record from its request and the fields around it, the
/// request URL checked by `check_request` and the referer by
/// `check_referer`, each only when `fields` names it: the one place a
/// line's verdict is made of its URLs' ([`build`] checks each URL on its
/// own, [`check_lines`] many in bulk).
fn assemble<'a>(
    request: Result<RawRequest<'a>, ClfError>,
    around: Around<'a>,
    fields: Fields,
    check_request: impl FnOnce(&RawRequest<'a>) -> Result<Vec<Note>, Problem>,
    check_referer: impl FnOnce(&'a [u8], usize) -> Referer<'a>,
) -> Record<'a> {
    // The referer is checked when asked for: `--fields request` costs no more than before.
    let referer = around.referer.filter(|_| fields.referer).map(|(text, offset)| check_referer(text, offset));
    let (mut verdict, mut warnings, scheme) = match &request {
        Ok(r) => {
            let (verdict, warnings) = if fields.request {
                match check_request(r) {
                    Ok(w) => (Ok(()), w),
                    Err(p) => (Err(p), Vec::new()),
                }
            } else {
                (Ok(()), Vec::new())
            };
            (verdict, warnings, request_scheme(r))
        }
        Err(e) => (Err((*e).into()), Vec::new(), None),
    };
    if let Some(r) = &referer {
        if verdict.is_ok() {
            verdict.clone_from(&r.verdict);
        }
        warnings.extend(r.warnings.iter().cloned());
    }
    Record { request, around, referer, verdict, scheme, warnings }
}

impl Record<'_> {
    /// The row of a summary by scheme this line is counted under: its
    /// scheme, `*` for `OPTIONS *` (the `scheme` of its record too),
    /// [`NO_REQUEST`] or [`NOT_CLF`].
    #[must_use]
    pub fn row(&self) -> &str {
        match (&self.request, &self.scheme) {
            (Err(e), _) => e.row(),
            (Ok(_), Some(s)) => s,
            (Ok(_), None) => "*",
        }
    }

    /// The row of a summary of referers this line's referer is counted
    /// under: its scheme or [`NO_SCHEME`]; `None` without a referer.
    #[must_use]
    pub fn referer_row(&self) -> Option<&str> {
        self.referer.as_ref().map(|r| r.scheme.as_deref().unwrap_or(NO_SCHEME))
    }

    /// The record's own keys, for `check --input-format clf --json`: `valid`,
    /// `scheme` (the summary's row: the request URL's scheme, `*` for
    /// `OPTIONS *`, `(no request)`, `(not clf)`), `client`, `ident`,
    /// `user`, `time`, `time_iso`, `method`, `target`, `protocol`,
    /// `status`, `bytes`, `referer`, `referer_valid`, `referer_scheme`,
    /// `referer_error`, `user_agent`, `error` (`null` or `{offset, kind,
    /// rule, message}`) and `warnings`. Request fields are `null` when the
    /// line has no request; status and bytes are read whatever the request;
    /// the referer's fields are `null` when it is absent or `"-"`.
    #[must_use]
    pub fn to_json(&self) -> Map<String, Value> {
        let text = |b: &[u8]| Value::from(String::from_utf8_lossy(b));
        let r = self.request.as_ref().ok();
        let mut o = Map::new();
        o.insert("valid".into(), self.verdict.is_ok().into());
        // The label the summary counts the line under, the same word.
        o.insert("scheme".into(), self.row().into());
        let a = &self.around;
        o.insert("client".into(), a.client.map_or(Value::Null, text));
        o.insert("ident".into(), a.ident.map_or(Value::Null, text));
        o.insert("user".into(), a.user.map_or(Value::Null, text));
        o.insert("time".into(), a.time.map_or(Value::Null, text));
        let iso = a.time.and_then(LogTime::clf).map(|t| t.to_string());
        o.insert("time_iso".into(), iso.map_or(Value::Null, Value::from));
        o.insert("method".into(), r.map_or(Value::Null, |r| text(r.method)));
        o.insert("target".into(), r.map_or(Value::Null, |r| text(r.target)));
        o.insert("protocol".into(), r.and_then(|r| r.protocol).map_or(Value::Null, text));
        o.insert("status".into(), json!(self.around.status));
        o.insert("bytes".into(), json!(self.around.bytes));
        let f = self.referer.as_ref();
        o.insert("referer".into(), f.map_or(Value::Null, |f| text(f.text)));
        o.insert("referer_valid".into(), json!(f.map(|f| f.verdict.is_ok())));
        o.insert("referer_scheme".into(), json!(f.map(|f| f.scheme.as_deref().unwrap_or(NO_SCHEME))));
        o.insert(
            "referer_error".into(),
            f.and_then(|f| f.verdict.as_ref().err()).map_or(Value::Null, Problem::to_json),
        );
        o.insert("user_agent".into(), self.around.agent.map_or(Value::Null, |a| Value::from(unescape(a))));
        o.insert("error".into(), self.verdict.as_ref().err().map_or(Value::Null, Problem::to_json));
        o.insert("warnings".into(), self.warnings.iter().map(Note::to_json).collect());
        o
    }
}

/// JSON text written by hand into one buffer: the keys of
/// [`Record::to_json`] with the same bytes `serde_json` writes for them,
/// without a `Map` or a `Value` per record (the writer of `check --json`,
/// whose cost a profile put at ten times the check's).
pub mod json_out {
    use crate::outcome::{Note, Problem};

    /// A JSON string of `text` (lossy UTF-8), escaped as `serde_json`
    /// escapes: `"`, `\`, and control characters below U+0020.
    pub fn string(out: &mut Vec<u8>, text: &[u8]) {
        // ASCII (most of a log) is UTF-8: no second check.
        if text.is_ascii() {
            return escaped(out, text);
        }
        match std::str::from_utf8(text) {
            Ok(t) => str(out, t),
            Err(_) => str(out, &String::from_utf8_lossy(text)),
        }
    }

    /// A JSON string of `text`.
    pub fn str(out: &mut Vec<u8>, text: &str) {
        escaped(out, text.as_bytes());
    }

    /// A JSON string of `b`, which is UTF-8.
    fn escaped(out: &mut Vec<u8>, b: &[u8]) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.reserve(b.len() + 2);
        out.push(b'"');
        let mut start = 0;
        let mut i = 0;
        while i < b.len() {
            // Eight bytes at a time while none needs an escape (most
            // text has none): one test of a word instead of eight.
            if let Some(w) = b.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
                if !needs_escape(u64::from_le_bytes(w)) {
                    i += 8;
                    continue;
                }
            }
            let c = b[i];
            i += 1;
            let escape: &[u8] = match c {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0x08 => b"\\b",
                0x0c => b"\\f",
                0..=0x1f => {
                    out.extend_from_slice(&b[start..i - 1]);
                    out.extend_from_slice(b"\\u00");
                    out.extend_from_slice(&[HEX[usize::from(c >> 4)], HEX[usize::from(c & 15)]]);
                    start = i;
                    continue;
                }
                _ => continue,
            };
            out.extend_from_slice(&b[start..i - 1]);
            out.extend_from_slice(escape);
            start = i;
        }
        out.extend_from_slice(&b[start..]);
        out.push(b'"');
    }

    /// Whether one of the eight bytes of `w` is below 0x20, `"` or `\\`
    /// (exact: a byte's borrow reaches only bytes above a match).
    #[inline]
    fn needs_escape(w: u64) -> bool {
        const LO: u64 = 0x0101_0101_0101_0101;
        const HI: u64 = 0x8080_8080_8080_8080;
        let zero = |x: u64| x.wrapping_sub(LO) & !x & HI;
        let below = w.wrapping_sub(LO * 0x20) & !w & HI;
        (below | zero(w ^ (LO * u64::from(b'"'))) | zero(w ^ (LO * u64::from(b'\\')))) != 0
    }

    /// `,"key":` before a value, written whole (see `k!`).
    pub fn key(out: &mut Vec<u8>, key: &[u8]) {
        out.extend_from_slice(key);
    }

    /// A number in decimal, as `serde_json` writes it.
    pub fn number(out: &mut Vec<u8>, n: impl Into<u64>) {
        let mut n = n.into();
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        out.extend_from_slice(&digits[at..]);
    }

    /// `null`, or the value `write` writes.
    pub fn or_null<T>(out: &mut Vec<u8>, v: Option<T>, write: impl FnOnce(&mut Vec<u8>, T)) {
        match v {
            Some(v) => write(out, v),
            None => out.extend_from_slice(b"null"),
        }
    }

    /// `true` or `false`.
    pub fn boolean(out: &mut Vec<u8>, b: bool) {
        out.extend_from_slice(if b { b"true" } else { b"false" });
    }

    /// `{offset, kind, rule, message}`, as [`Problem::to_json`].
    pub fn problem(out: &mut Vec<u8>, p: &Problem) {
        out.extend_from_slice(b"{\"offset\":");
        number(out, p.offset as u64);
        out.extend_from_slice(b",\"kind\":");
        str(out, p.kind);
        out.extend_from_slice(b",\"rule\":");
        str(out, p.rule);
        out.extend_from_slice(b",\"message\":");
        str(out, &p.message);
        out.push(b'}');
    }

    /// `[{offset, kind, security, message}, ...]`, as [`Note::to_json`].
    pub fn notes(out: &mut Vec<u8>, notes: &[Note]) {
        out.push(b'[');
        for (k, n) in notes.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"offset\":");
            number(out, n.offset as u64);
            out.extend_from_slice(b",\"kind\":");
            str(out, n.kind);
            out.extend_from_slice(b",\"security\":");
            boolean(out, n.security);
            out.extend_from_slice(b",\"message\":");
            str(out, &n.message);
            out.push(b'}');
        }
        out.push(b']');
    }
}

/// `,"name":` as one literal, for [`json_out::key`].
macro_rules! k {
    ($name:literal) => {
        concat!(",\"", $name, "\":").as_bytes()
    };
}

impl Record<'_> {
    /// The keys of [`Record::to_json`], each after a `,`, written into
    /// `out` by hand: the same bytes `serde_json` writes for that map
    /// (`check --json` writes a record per line this way).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        use json_out::{boolean, key, notes, number, or_null, problem, str, string};
        let r = self.request.as_ref().ok();
        key(out, k!("valid"));
        boolean(out, self.verdict.is_ok());
        key(out, k!("scheme"));
        str(out, self.row());
        let a = &self.around;
        for (name, v) in
            [(k!("client"), a.client), (k!("ident"), a.ident), (k!("user"), a.user), (k!("time"), a.time)]
        {
            key(out, name);
            or_null(out, v, string);
        }
        key(out, k!("time_iso"));
        or_null(out, a.time.and_then(LogTime::clf), |out, t| {
            out.push(b'"');
            t.write_iso(out);
            out.push(b'"');
        });
        key(out, k!("method"));
        or_null(out, r.map(|r| r.method), string);
        key(out, k!("target"));
        or_null(out, r.map(|r| r.target), string);
        key(out, k!("protocol"));
        or_null(out, r.and_then(|r| r.protocol), string);
        key(out, k!("status"));
        or_null(out, a.status, number);
        key(out, k!("bytes"));
        or_null(out, a.bytes, number);
        let f = self.referer.as_ref();
        key(out, k!("referer"));
        or_null(out, f.map(|f| f.text), string);
        key(out, k!("referer_valid"));
        or_null(out, f.map(|f| f.verdict.is_ok()), boolean);
        key(out, k!("referer_scheme"));
        or_null(out, f.map(|f| f.scheme.as_deref().unwrap_or(NO_SCHEME)), str);
        key(out, k!("referer_error"));
        or_null(out, f.and_then(|f| f.verdict.as_ref().err()), problem);
        key(out, k!("user_agent"));
        // Without a `\\` there is no escape to read.
        or_null(
            out,
            a.agent,
            |out, u| if u.contains(&b'\\') { str(out, &unescape(u)) } else { string(out, u) },
        );
        key(out, k!("error"));
        or_null(out, self.verdict.as_ref().err(), problem);
        key(out, k!("warnings"));
        notes(out, &self.warnings);
    }
}

/// A quoted field's text as Apache wrote it, its escapes read: `\"` is
/// `"`, `\\` is `\`, `\xhh` the octet hh (shown as UTF-8 allows).
#[must_use]
pub fn unescape(field: &[u8]) -> String {
    let mut out = Vec::with_capacity(field.len());
    let mut i = 0;
    while i < field.len() {
        match (field[i], field.get(i + 1)) {
            (b'\\', Some(&c @ (b'"' | b'\\'))) => {
                out.push(c);
                i += 2;
            }
            (b'\\', Some(b'x')) if field.len() >= i + 4 => {
                match std::str::from_utf8(&field[i + 2..i + 4])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(o) => {
                        out.push(o);
                        i += 4;
                    }
                    None => {
                        out.push(b'\\');
                        i += 1;
                    }
                }
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        r#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326"#;

    /// Log lines of every shape: each URL of the bulk validator's sample
    /// as an absolute target, as a path, after CONNECT; lines without a
    /// request; `*`; octets that are not UTF-8.
    fn sample_lines() -> Vec<Vec<u8>> {
        let sample = include_str!("../../rfc1738/tests/bulk-sample.txt");
        let mut lines = Vec::new();
        let line = |method: &str, target: &[u8]| {
            let mut l = br#"10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] ""#.to_vec();
            l.extend_from_slice(method.as_bytes());
            l.push(b' ');
            l.extend_from_slice(target);
            l.extend_from_slice(br#" HTTP/1.0" 200 12"#);
            l
        };
        for (k, url) in sample.lines().enumerate() {
            // The same URL as the referer of a Combined line, beside a
            // request valid or not.
            let mut combined = line(if k % 2 == 0 { "GET" } else { "POST" }, b"/r");
            combined.extend_from_slice(format!(" \"{url}\" \"ua\"").as_bytes());
            lines.push(combined);
            let mut combined = line("GET", b"/a b");
            combined.extend_from_slice(format!(" \"{}\" \"-\"", url.to_ascii_uppercase()).as_bytes());
            lines.push(combined);
            lines.push(line("GET", url.as_bytes()));
            let path = url.find("//").and_then(|i| url[i + 2..].find('/').map(|j| &url[i + 2 + j..]));
            lines.push(line("GET", path.unwrap_or(url).as_bytes()));
            lines.push(line("CONNECT", url.trim_start_matches("http://").as_bytes()));
        }
        lines.push(line("OPTIONS", b"*"));
        lines.push(line("GET", b"/a\xff\"b"));
        lines.push(line("GET", b"/caf\xc3\xa9"));
        lines.push(line("GET", &[b'/', b'a', 0xff, b'b']));
        lines.push(line("GET", format!("/{}", "a".repeat(9000)).as_bytes()));
        lines.push(line("GET", format!("http://{}.dom/", "h".repeat(70)).as_bytes()));
        let mut l = line("GET", b"/x");
        l.extend_from_slice(b" \"http://r.dom/\xff\" \"ua\"");
        lines.push(l);
        for bad in
            [r#"h - - [d] "GET /x HTTP/1.0" 200 1 "-" "ua""#, r#"h - - [d] "-" 408 0 "http://r.dom/" "-""#]
        {
            lines.push(bad.as_bytes().to_vec());
        }
        for bad in ["not a log line", r#"h - - [d] "-" 408 0"#, r#"h - - [d] "GET" 200 1"#, ""] {
            lines.push(bad.as_bytes().to_vec());
        }
        lines
    }

    #[test]
    fn lines_checked_in_bulk_are_lines_checked_one_by_one() {
        let lines = sample_lines();
        // More than a batch, so that batches follow each other.
        let many: Vec<&[u8]> = lines.iter().cycle().take(3 * BATCH + 7).map(Vec::as_slice).collect();
        let fieldss = [Fields::REQUEST, Fields::BOTH, Fields { request: false, referer: true }];
        for fields in fieldss {
            let mut got = Vec::new();
            check_lines(many.iter().copied(), fields, |line, r| got.push((line, r)));
            assert_eq!(got.len(), many.len());
            for (line, (seen, r)) in many.iter().zip(got) {
                assert_eq!(*line, seen);
                assert_eq!(r, record_with(line, false, fields), "{}", String::from_utf8_lossy(line));
            }
        }
        // `check_line` is the command's default: the request and the referer.
        for line in &lines {
            let r = record_with(line, false, Fields::BOTH);
            assert_eq!(check_line(line), (r.verdict, r.scheme));
        }
        let mut none = 0;
        check_lines(std::iter::empty(), Fields::BOTH, |_, _| none += 1);
        assert_eq!(none, 0);
    }

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
        // TLS bytes as nginx escapes them: no method, no request (RFC 7230 §3.1.1).
        assert_eq!(request_url(r#"h - - [d] "\x16\x03\x01" 400 0"#), Err(ClfError::NotRequest(11)));
        assert!(ClfError::NotRequest(11).is_log_line());
        assert_eq!(ClfError::NotRequest(11).row(), NO_REQUEST);
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

    #[test]
    fn a_line_without_the_fields_around_its_request_is_not_a_log_line() {
        // A request line alone, a referer alone: never a valid request.
        assert_eq!(request_url(r#""GET / HTTP/1.1""#), Err(ClfError::NoDate(0)));
        assert_eq!(request_url(r#"h - - "GET / HTTP/1.1" 200 1"#), Err(ClfError::NoDate(6)));
        assert_eq!(request_url(r#"h - - [d] "GET / HTTP/1.1""#), Err(ClfError::NoStatus(26)));
        assert_eq!(request_url(r#"h - - [d] "GET / HTTP/1.1" OK 1"#), Err(ClfError::NoStatus(26)));
        assert_eq!(request_url(r#"h - - [d] "GET / HTTP/1.1" 200"#), Err(ClfError::NoBytes(30)));
        assert_eq!(request_url(r#"h - - [d] "-""#), Err(ClfError::NoStatus(13)));
        assert!(!ClfError::NoDate(0).is_log_line() && ClfError::Dash(0).is_log_line());
        // A virtual host first: four fields, not `host ident user`.
        let line = r#"v.dom:80 ::1 - john [d] "GET /x HTTP/1.1" 200 - "-" "ua""#;
        assert_eq!(request_url(line), Err(ClfError::ExtraField(15)));
        assert!(ClfError::ExtraField(15).to_string().contains("vhost_combined"));
        // The default mode's own error text: which field is missing.
        let p = Problem::from(request_url(r#"x [d] "GET / HTTP/1.0" 200 1"#).unwrap_err());
        assert_eq!((p.offset, p.kind), (2, "clf-no-ident"));
        // Combined fields after.
        let line = r#"::1 - john [d] "GET /x HTTP/1.1" 200 - "-" "ua""#;
        assert_eq!(request_url(line), Ok(("/x", 20)));
    }

    #[test]
    fn the_record_has_the_request_the_status_the_size_and_the_request_scheme() {
        let line = r#"2001:db8::1 - - [d] "GET /a?b HTTP/1.1" 404 512 "http://r.dom/" "ua""#;
        let r = record(line.as_bytes(), false);
        let o = r.to_json();
        assert_eq!(o["scheme"], "http", "the request's scheme, not the client's address");
        assert_eq!(
            (&o["method"], &o["target"], &o["protocol"]),
            (&json!("GET"), &json!("/a?b"), &json!("HTTP/1.1"))
        );
        assert_eq!((&o["status"], &o["bytes"], &o["valid"]), (&json!(404), &json!(512), &json!(true)));
        assert_eq!(r.row(), "http");
        let line = r#"fe80::1 - - [d] "CONNECT a.dom:443 HTTP/1.1" 200 -"#;
        let r = record(line.as_bytes(), false);
        assert_eq!((r.row(), r.to_json()["bytes"].clone()), ("http", Value::Null));
        let r = record(br#"h - - [d] "GET ftp://f.dom/x HTTP/1.0" 200 1"#, false);
        assert_eq!(r.row(), "ftp");
        let r = record(br#""GET / HTTP/1.1""#, false);
        assert_eq!((r.row(), r.verdict.as_ref().unwrap_err().kind), (NOT_CLF, "clf-no-date"));
        assert_eq!(record(br#"h - - [d] "-" 408 0"#, false).row(), NO_REQUEST);
        assert_eq!(record(br#"h - - [d] "OPTIONS * HTTP/1.1" 200 0"#, false).row(), "*");
    }

    /// The hand-written JSON is byte for byte `serde_json`'s of the map.
    #[test]
    fn the_written_json_is_serde_json_s() {
        let mut lines = sample_lines();
        lines.push(b"h - frank [10/Oct/2000:13:55:36 -0700] \"GET /\x01\x1f\x7f\"\\ HTTP/1.1\" 200 1 \"-\" \"ua\\\"q\\x16\"".to_vec());
        lines.push(b"h - - [d] \"GET /\xff\xfe HTTP/1.1\" - - \"http://r.dom/\xc3\" \"\xe9\"".to_vec());
        lines.push(br#"h - - [d] "-" 408 0"#.to_vec());
        lines.push(b"not a line".to_vec());
        let all: Vec<u8> = (0..=255u8).collect();
        lines.push([br#"h - - [d] "GET /"#.as_slice(), &all, br#" HTTP/1.1" 200 1"#].concat());
        for lenient in [false, true] {
            for line in &lines {
                let r = record_with(line, lenient, Fields::BOTH);
                let mut mine = Vec::new();
                r.write_json(&mut mine);
                let mut want = serde_json::to_vec(&r.to_json()).unwrap();
                want[0] = b',';
                want.pop();
                assert_eq!(String::from_utf8_lossy(&mine), String::from_utf8_lossy(&want));
            }
        }
    }

    #[test]
    fn every_field_of_the_line_is_in_the_record() {
        let line = r#"192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 5 "-" "ua""#;
        let o = record_with(line.as_bytes(), false, Fields::BOTH).to_json();
        assert_eq!(
            (&o["client"], &o["ident"], &o["user"], &o["time"], &o["time_iso"]),
            (
                &json!("192.0.2.1"),
                &Value::Null,
                &json!("frank"),
                &json!("10/Oct/2000:13:55:36 -0700"),
                &json!("2000-10-10T13:55:36-07:00")
            )
        );
        // Read whatever the request; a time of another form has no instant.
        let o = record(br#"h id - [yesterday] "-" 408 0"#, false).to_json();
        assert_eq!(
            (&o["client"], &o["ident"], &o["user"], &o["time"], &o["time_iso"]),
            (&json!("h"), &json!("id"), &Value::Null, &json!("yesterday"), &Value::Null)
        );
        // Not a log line: no field.
        let o = record(b"x [d] \"GET / HTTP/1.0\" 200 1", false).to_json();
        assert_eq!((&o["client"], &o["time"]), (&Value::Null, &Value::Null));
        // The record's scheme is the summary's row, the same word.
        assert_eq!(o["scheme"], NOT_CLF);
        assert_eq!(record(br#"h - - [d] "-" 408 0"#, false).to_json()["scheme"], NO_REQUEST);
    }

    #[test]
    fn a_combined_line_has_its_referer_checked_and_its_user_agent_read() {
        let line =
            br#"h - - [d] "GET /a HTTP/1.1" 200 5 "http://ref.example/a b" "Mozilla/5.0 (\"x\" \\ y)""#;
        let r = record_with(line, false, Fields::BOTH);
        let o = r.to_json();
        // The whole referer, the space inside it too: invalid there.
        assert_eq!(o["referer"], "http://ref.example/a b");
        assert_eq!((&o["referer_valid"], &o["referer_scheme"]), (&json!(false), &json!("http")));
        let at = o["referer_error"]["offset"].as_u64().unwrap() as usize;
        assert_eq!(&line[at..=at], b" ");
        assert_eq!(o["user_agent"], r#"Mozilla/5.0 ("x" \ y)"#);
        // The line is invalid through its referer, at the referer's offset.
        assert_eq!((r.verdict.clone().unwrap_err().offset, o["valid"].clone()), (at, json!(false)));
        // The request alone: valid; the referer not checked.
        let r = record_with(line, false, Fields::REQUEST);
        assert_eq!((r.verdict.is_ok(), r.referer_row()), (true, None));
        let r = record_with(line, false, Fields { request: false, referer: true });
        assert_eq!(r.verdict.unwrap_err().offset, at);
        // "-" is no referer, not an invalid one; a relative one has no scheme.
        let r = record_with(br#"h - - [d] "GET /a HTTP/1.1" 200 5 "-" "-""#, false, Fields::BOTH);
        assert_eq!(
            (r.referer.is_none(), r.verdict.is_ok(), r.to_json()["user_agent"].clone()),
            (true, true, Value::Null)
        );
        let r = record_with(br#"h - - [d] "GET /a HTTP/1.1" 200 5 "/rel" "ua""#, false, Fields::BOTH);
        assert_eq!((r.referer_row(), r.verdict.is_err()), (Some(NO_SCHEME), true));
        // A referer with `\"` inside ends at the unescaped quote.
        let r =
            record_with(br#"h - - [d] "GET /a HTTP/1.1" 200 5 "http://r.dom/\"q" "ua""#, false, Fields::BOTH);
        assert_eq!(r.referer.unwrap().text, br#"http://r.dom/\"q"#);
    }

    #[test]
    fn status_and_bytes_are_read_whatever_the_request() {
        for (line, status, bytes) in [
            (&br#"h - - [d] "-" 408 0 "-" "-""#[..], 408, 0),
            (br#"h - - [d] "\x16\x03\x01" 400 226"#, 400, 226),
            (br#"h - - [d] "GET" 400 7"#, 400, 7),
        ] {
            let o = record_with(line, false, Fields::BOTH).to_json();
            assert_eq!((o["status"].clone(), o["bytes"].clone()), (json!(status), json!(bytes)));
            assert_eq!(o["valid"], false);
        }
        // OPTIONS *: one name, `*`, in the record and the summary alike.
        let r = record(br#"h - - [d] "OPTIONS * HTTP/1.1" 200 0"#, false);
        assert_eq!((r.row(), r.to_json()["scheme"].clone()), ("*", json!("*")));
    }

    #[test]
    fn a_lenient_record_warns_at_offsets_in_the_line() {
        let line = r#"h - - [d] "GET /~joe/ HTTP/1.0" 200 1"#;
        assert_eq!(record(line.as_bytes(), false).verdict.unwrap_err().offset, 16);
        let r = record(line.as_bytes(), true);
        assert_eq!(r.verdict, Ok(()));
        assert_eq!((r.warnings.len(), r.warnings[0].offset, r.warnings[0].kind), (1, 16, "unsafe-char"));
        assert_eq!(r.to_json()["warnings"][0]["offset"], 16);
    }
}
