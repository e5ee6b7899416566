//! HTTP access as RFC 1738 §3.3 says: a GET of the path and search, with
//! redirects followed only while they stay on http and on an allowed port.

use crate::fetched::{Content, Fetched};
use crate::net::{connect, read_line, Budget, Conn};
use crate::plan::{Plan, Step};
use crate::target::{Endpoint, Target};
use crate::{AccessError, Event, Trace};
use std::io::{BufRead, BufReader, Read, Write};

const USER_AGENT: &str = concat!("rfc1738-access/", env!("CARGO_PKG_VERSION"));

/// The request lines for `target` on `ep`, the empty line included.
fn request(ep: &Endpoint, target: &str) -> Vec<String> {
    let host = if ep.port == 80 { ep.host.clone() } else { format!("{}:{}", ep.host, ep.port) };
    vec![
        format!("GET {target} HTTP/1.1"),
        format!("Host: {host}"),
        format!("User-Agent: {USER_AGENT}"),
        "Accept: */*".into(),
        "Connection: close".into(),
        String::new(),
    ]
}

pub(crate) fn plan(ep: &Endpoint, target: &str, plan: &mut Plan) {
    plan.push(Step::Connect { host: ep.host.clone(), port: ep.port });
    for line in request(ep, target) {
        plan.send(line);
    }
    plan.note("a redirect (3xx) is followed only to http on an allowed port, up to the redirect limit");
}

/// The head of a response.
pub(crate) struct Head {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
}

impl Head {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

pub(crate) fn fetch(
    ep: &Endpoint,
    target: &str,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    let (mut ep, mut target) = (ep.clone(), target.to_string());
    let mut hops = 0;
    loop {
        let mut reader = exchange(&ep, &target, budget, trace)?;
        let head = read_head(&mut reader, Bounds::of(budget.opts), trace)?;
        if !(300..400).contains(&head.status) || head.status == 304 {
            return body(head, reader, budget, trace, out);
        }
        let location = head
            .header("location")
            .ok_or_else(|| AccessError::Protocol(format!("redirect {} without a Location", head.status)))?;
        let next = resolve(&ep, &target, location);
        hops += 1;
        if hops > budget.opts.max_redirects {
            return Err(AccessError::Redirect {
                location: next,
                reason: format!("more than {} redirects", budget.opts.max_redirects),
            });
        }
        trace.event(&Event::Note(&format!("redirect {} to {next}", head.status)));
        (ep, target) = follow(&next, budget)?;
    }
}

fn exchange(
    ep: &Endpoint,
    target: &str,
    budget: &Budget<'_>,
    trace: &mut dyn Trace,
) -> Result<BufReader<Conn>, AccessError> {
    let mut stream = connect(ep, budget, trace)?;
    let mut wire = Vec::new();
    for line in request(ep, target) {
        trace.event(&Event::Sent(line.as_bytes()));
        wire.extend_from_slice(line.as_bytes());
        wire.extend_from_slice(b"\r\n");
    }
    stream.write_all(&wire)?;
    Ok(BufReader::new(stream))
}

/// The redirect's target, checked as any URL is: same scheme, allowed port.
pub(crate) fn follow(location: &str, budget: &Budget<'_>) -> Result<(Endpoint, String), AccessError> {
    let refuse = |reason: String| AccessError::Redirect { location: location.to_string(), reason };
    match Target::new(location, budget.opts) {
        Ok(Target::Http { ep, target }) => Ok((ep, target)),
        Ok(_) => Err(refuse("it leaves the http scheme".into())),
        Err(AccessError::PrivilegedPort { port, .. }) => {
            Err(refuse(format!("port {port} is below 1024 and not the http default (RFC 1738 §6)")))
        }
        Err(e) => Err(refuse(e.to_string())),
    }
}

/// A Location made absolute against the current request.
pub(crate) fn resolve(ep: &Endpoint, target: &str, location: &str) -> String {
    let origin =
        if ep.port == 80 { format!("http://{}", ep.host) } else { format!("http://{}:{}", ep.host, ep.port) };
    if location.contains("://") || location.contains(':') && !location.starts_with('/') {
        location.to_string()
    } else if location.starts_with("//") {
        format!("http:{location}")
    } else if location.starts_with('/') {
        format!("{origin}{location}")
    } else {
        let path = target.split('?').next().unwrap_or("/");
        let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        format!("{origin}{dir}{location}")
    }
}

/// The bounds of a response head, as mature clients keep them: so many
/// header lines, so many bytes in all (interim 1xx heads included).
#[derive(Clone, Copy)]
pub(crate) struct Bounds {
    /// Bytes left for the head, line ends included.
    bytes: usize,
    /// Header lines left.
    headers: usize,
}

impl Bounds {
    pub(crate) fn of(opts: &crate::Options) -> Bounds {
        Bounds { bytes: opts.max_header_bytes, headers: opts.max_headers }
    }
}

pub(crate) fn read_head(
    reader: &mut dyn BufRead,
    mut left: Bounds,
    trace: &mut dyn Trace,
) -> Result<Head, AccessError> {
    let (max_bytes, max_headers) = (left.bytes, left.headers);
    let too_long = || AccessError::Limit {
        what: "the http response head",
        limit: max_bytes as u64,
        option: "max_header_bytes",
    };
    loop {
        let status_line = next_line(reader, &mut left.bytes, trace).map_err(|e| named(e, too_long()))?;
        let status = parse_status(&status_line)?;
        let mut headers = Vec::new();
        loop {
            let line = next_line(reader, &mut left.bytes, trace).map_err(|e| named(e, too_long()))?;
            if line.is_empty() {
                break;
            }
            if left.headers == 0 {
                let what = "the list of http headers";
                return Err(AccessError::Limit { what, limit: max_headers as u64, option: "max_headers" });
            }
            left.headers -= 1;
            let text = String::from_utf8_lossy(&line);
            if let Some((n, v)) = text.split_once(':') {
                headers.push((n.trim().to_string(), v.trim().to_string()));
            }
        }
        if !(100..200).contains(&status) {
            return Ok(Head { status, headers });
        }
    }
}

/// A line past the bytes left for the head is the head's limit.
fn named(e: AccessError, head: AccessError) -> AccessError {
    match e {
        AccessError::Limit { what: "a line from the server", .. } => head,
        other => other,
    }
}

/// The next line of the head, within the `left` bytes of the head.
fn next_line(
    reader: &mut dyn BufRead,
    left: &mut usize,
    trace: &mut dyn Trace,
) -> Result<Vec<u8>, AccessError> {
    let line = read_line(reader, left.saturating_sub(2))?
        .ok_or_else(|| AccessError::Protocol("the server closed the connection".into()))?;
    trace.event(&Event::Received(&line));
    *left = left.saturating_sub(line.len() + 2);
    Ok(line)
}

fn parse_status(line: &[u8]) -> Result<u16, AccessError> {
    let text = String::from_utf8_lossy(line);
    let mut words = text.split(' ');
    let code = match (words.next(), words.next()) {
        (Some(v), Some(code)) if v.starts_with("HTTP/") => code.parse().ok(),
        _ => None,
    };
    code.ok_or_else(|| AccessError::Protocol(format!("not an http status line: {text}")))
}

/// The body after `head`: `Transfer-Encoding: chunked`, else
/// `Content-Length` octets (fewer is an error), else all until the server
/// closes the connection (RFC 9112 §6.3).
pub(crate) fn body<'r>(
    head: Head,
    reader: impl BufRead + 'r,
    budget: &mut Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    if head.status >= 400 {
        let reason = format!("http status {}", head.status);
        return Err(AccessError::Refused { command: "GET".into(), reply: reason });
    }
    let framing = framing(&head)?;
    let (mut src, length): (Box<dyn Read + 'r>, _) = match framing {
        Framing::Chunked => {
            (Box::new(Chunked { inner: reader, left: 0, done: false, max_line: budget.opts.max_line }), None)
        }
        Framing::Length(n) => (Box::new(reader.take(n)), Some(n)),
        Framing::Close => (Box::new(reader), None),
    };
    let bytes = budget.copy(&mut src, out, length, trace)?;
    if let Some(announced) = length.filter(|&n| bytes < n) {
        return Err(AccessError::Truncated { got: bytes, announced });
    }
    let content_type = head.header("content-type").map(str::to_string);
    Ok(Fetched { bytes, content: Content::Http { status: head.status, content_type } })
}

/// How a response's body is delimited (RFC 9112 §6.3).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// `Transfer-Encoding: chunked`, the one coding this client reads.
    Chunked,
    /// `Content-Length` octets.
    Length(u64),
    /// Everything until the server closes the connection.
    Close,
}

/// The framing of a response, or why it cannot be known. RFC 9112 §6.3:
/// a Transfer-Encoding overrides a Content-Length, and chunked must be
/// its last coding; this client decodes no other coding, so anything but
/// `chunked` alone is refused rather than saved still encoded. A
/// Content-Length that is not `1*DIGIT`, or several that differ, makes
/// the framing invalid (§6.3, point 5); repeats of one value are taken
/// (RFC 9110 §8.6).
pub(crate) fn framing(head: &Head) -> Result<Framing, AccessError> {
    let values = |name: &'static str| {
        head.headers.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(name)).flat_map(|(_, v)| v.split(','))
    };
    let codings: Vec<String> = values("transfer-encoding").map(|c| c.trim().to_ascii_lowercase()).collect();
    if !codings.is_empty() {
        return if codings == ["chunked"] {
            Ok(Framing::Chunked)
        } else {
            let shown = codings.join(", ");
            Err(AccessError::Protocol(format!(
                "the server sent Transfer-Encoding: {shown}; only chunked alone is read (RFC 9112 §6.3)"
            )))
        };
    }
    let mut length = None;
    for value in values("content-length") {
        let value = value.trim();
        let n = content_length(value).ok_or_else(|| {
            AccessError::Protocol(format!("the server sent Content-Length: {value}, which is not a length"))
        })?;
        if length.is_some_and(|l| l != n) {
            return Err(AccessError::Protocol(format!(
                "the server sent two different Content-Length values ({} and {n})",
                length.unwrap_or(n)
            )));
        }
        length = Some(n);
    }
    Ok(length.map_or(Framing::Close, Framing::Length))
}

/// `Content-Length = 1*DIGIT` (RFC 9110 §8.6), within a u64.
fn content_length(value: &str) -> Option<u64> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// `chunk-size [ chunk-ext ]` (RFC 9112 §7.1): `chunk-size = 1*HEXDIG`,
/// nothing before it; then optional whitespace and `;` extensions. A `+`
/// or a space before the digits, which `from_str_radix` and `trim` would
/// let through, is refused: peers that disagree on a size disagree on
/// where the next response starts.
fn chunk_size(line: &[u8]) -> Option<u64> {
    let digits = line.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    let rest = &line[digits..];
    let ext =
        rest.iter().position(|b| !matches!(b, b' ' | b'\t')).map_or(&rest[rest.len()..], |i| &rest[i..]);
    if digits == 0 || digits > 16 || !(ext.is_empty() || ext[0] == b';') {
        return None;
    }
    line[..digits].iter().try_fold(0u64, |n, &b| {
        let d = char::from(b).to_digit(16)?;
        n.checked_mul(16)?.checked_add(u64::from(d))
    })
}

/// The chunked transfer coding (RFC 9112 §7.1).
pub(crate) struct Chunked<R> {
    pub(crate) inner: R,
    pub(crate) left: u64,
    pub(crate) done: bool,
    /// The longest chunk-size or trailer line.
    pub(crate) max_line: usize,
}

impl<R: BufRead> Chunked<R> {
    fn next_chunk(&mut self) -> std::io::Result<()> {
        let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
        let line = read_line(&mut self.inner, self.max_line)
            .map_err(|_| bad("bad chunk"))?
            .ok_or_else(|| bad("truncated chunked body"))?;
        self.left = chunk_size(&line).ok_or_else(|| bad("bad chunk size"))?;
        if self.left == 0 {
            self.done = true;
            // Trailer lines, each bounded; as many as the deadline allows.
            while read_line(&mut self.inner, self.max_line)
                .map_err(|_| bad("bad trailer"))?
                .is_some_and(|l| !l.is_empty())
            {}
        }
        Ok(())
    }
}

impl<R: BufRead> Read for Chunked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 && !self.done {
            self.next_chunk()?;
        }
        if self.done {
            return Ok(0);
        }
        let want = buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "truncated chunk"));
        }
        self.left -= n as u64;
        if self.left == 0 {
            // RFC 9112 §7.1: chunk-data CRLF; anything else is not chunked.
            let mut crlf = [0u8; 2];
            self.inner.read_exact(&mut crlf)?;
            if crlf != *b"\r\n" {
                return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "no CRLF after chunk data"));
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_body() {
        let raw: &[u8] = b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\nTrailer: 1\r\n\r\n";
        let mut body = String::new();
        Chunked { inner: raw, left: 0, done: false, max_line: 100 }.read_to_string(&mut body).unwrap();
        assert_eq!(body, "hello world");
    }

    #[test]
    fn chunk_sizes_are_hex_digits_only() {
        assert_eq!(chunk_size(b"1a"), Some(26));
        assert_eq!(chunk_size(b"5;name=value"), Some(5));
        assert_eq!(chunk_size(b"5 ;x"), Some(5));
        for bad in [&b"+5"[..], b" 5", b"-5", b"", b";x", b"5x", b"0x5", b"11111111111111111"] {
            assert_eq!(chunk_size(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn chunk_data_ends_with_crlf() {
        let raw: &[u8] = b"5\r\nhelloXY6\r\n world\r\n0\r\n\r\n";
        let mut body = String::new();
        let r = Chunked { inner: raw, left: 0, done: false, max_line: 100 }.read_to_string(&mut body);
        assert_eq!(r.unwrap_err().kind(), std::io::ErrorKind::InvalidData);
    }

    fn head(headers: &[(&str, &str)]) -> Head {
        Head { status: 200, headers: headers.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect() }
    }

    #[test]
    fn the_framing_is_read_as_rfc_9112_says() {
        let cases: &[(&[(&str, &str)], Framing)] = &[
            (&[], Framing::Close),
            (&[("Content-Length", "10")], Framing::Length(10)),
            (&[("content-length", "0")], Framing::Length(0)),
            (&[("Content-Length", "1000, 1000")], Framing::Length(1000)),
            (&[("Content-Length", "7"), ("Content-Length", "7")], Framing::Length(7)),
            (&[("Transfer-Encoding", "chunked")], Framing::Chunked),
            (&[("Transfer-Encoding", "Chunked"), ("Content-Length", "5")], Framing::Chunked),
        ];
        for (headers, want) in cases {
            assert_eq!(framing(&head(headers)).unwrap(), *want, "{headers:?}");
        }
    }

    #[test]
    fn a_length_that_is_not_one_number_is_refused() {
        for headers in [
            &[("Content-Length", "-1")][..],
            &[("Content-Length", "12345678901234567890123")],
            &[("Content-Length", "1000, 999")],
            &[("Content-Length", "10"), ("Content-Length", "11")],
            &[("Content-Length", "")],
            &[("Content-Length", "+5")],
            &[("Content-Length", "5 5")],
            &[("Content-Length", "0x10")],
        ] {
            let err = framing(&head(headers)).unwrap_err().to_string();
            assert!(err.contains("Content-Length"), "{headers:?}: {err}");
        }
    }

    #[test]
    fn a_transfer_coding_other_than_chunked_alone_is_refused() {
        for value in ["gzip, chunked", "gzip", "chunked, gzip", "chunked, chunked", "identity", ""] {
            let err = framing(&head(&[("Transfer-Encoding", value)])).unwrap_err().to_string();
            assert!(err.contains("Transfer-Encoding"), "{value}: {err}");
        }
        let two = head(&[("Transfer-Encoding", "gzip"), ("Transfer-Encoding", "chunked")]);
        assert!(framing(&two).is_err());
    }

    #[test]
    fn locations() {
        let ep = Endpoint { host: "h".into(), port: 8080 };
        assert_eq!(resolve(&ep, "/a/b?x", "/c"), "http://h:8080/c");
        assert_eq!(resolve(&ep, "/a/b?x", "c"), "http://h:8080/a/c");
        assert_eq!(resolve(&ep, "/a/b", "ftp://x/y"), "ftp://x/y");
        assert_eq!(resolve(&ep, "/a/b", "//g/y"), "http://g/y");
    }
}
