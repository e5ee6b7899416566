//! Entry points for the fuzz targets (feature `fuzzing`): each reader of a
//! server's bytes, run over a scripted stream instead of a socket. Not a
//! stable interface.

use crate::http::{read_head, Bounds, Chunked};
use crate::net::{Budget, LineConn};
use crate::{AccessError, MenuOutput, NoTrace, Options};
use std::io::{self, Read, Write};

/// What a server sends, read as a stream; what is sent to it, dropped.
pub struct Scripted<'a> {
    input: &'a [u8],
}

impl<'a> Scripted<'a> {
    /// A stream that yields `input`, then its end.
    #[must_use]
    pub fn new(input: &'a [u8]) -> Scripted<'a> {
        Scripted { input }
    }
}

impl Read for Scripted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.input.read(buf)
    }
}

impl Write for Scripted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Small limits, so that a fuzz input reaches them.
#[must_use]
pub fn options() -> Options {
    Options { max_bytes: 4096, max_header_bytes: 1024, max_headers: 16, max_line: 256, ..Options::default() }
}

/// An http response head: the status and the number of headers.
///
/// # Errors
/// What the reader returns.
pub fn http_head(input: &[u8]) -> Result<(u16, usize), AccessError> {
    let opts = options();
    let head = read_head(&mut io::BufReader::new(Scripted::new(input)), Bounds::of(&opts), &mut NoTrace)?;
    Ok((head.status, head.headers.len()))
}

/// A chunked body, read to its end: at most `limit` octets kept.
///
/// # Errors
/// What the reader returns.
pub fn chunked(input: &[u8], limit: u64) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    let reader = Chunked { inner: input, left: 0, done: false, max_line: 256 };
    reader.take(limit).read_to_end(&mut body)?;
    Ok(body)
}

/// The replies of an ftp control connection, read until an error or the
/// end: each code and text.
#[must_use]
pub fn ftp_replies(input: &[u8]) -> (Vec<(u16, String)>, Option<AccessError>) {
    let mut c = LineConn::new(Scripted::new(input), &options());
    let mut replies = Vec::new();
    loop {
        match crate::ftp::reply(&mut c, &mut NoTrace) {
            Ok(r) => replies.push((r.code, r.text)),
            Err(e) => return (replies, Some(e)),
        }
    }
}

/// The port of an EPSV and of a PASV reply text, and the size a `150`
/// reply announces.
#[must_use]
pub fn passive(text: &str) -> (Option<u16>, Option<u16>, Option<u64>) {
    (crate::ftp::epsv_port(text).ok(), crate::ftp::pasv_port(text).ok(), crate::ftp::announced_size(text))
}

/// A gopher menu copied as items (or raw): the output, the octets read and
/// the items seen.
///
/// # Errors
/// What the reader returns.
pub fn gopher_menu(input: &[u8], raw: bool) -> Result<(Vec<u8>, u64, u64), AccessError> {
    let opts = Options { menus: if raw { MenuOutput::Raw } else { MenuOutput::Items }, ..options() };
    let mut budget = Budget::new(&opts);
    let mut out = Vec::new();
    let (bytes, items) =
        crate::gopher::copy_menu(&mut io::BufReader::new(input), &mut budget, &mut NoTrace, &mut out)?;
    Ok((out, bytes, items))
}

/// A gopher+ reply's first line: the length it announces.
///
/// # Errors
/// What the reader returns.
pub fn gopher_plus(input: &[u8]) -> Result<Option<u64>, AccessError> {
    crate::gopher::plus_header(&mut io::BufReader::new(input), &options(), &mut NoTrace)
}

/// An NNTP status line, then a multi-line block: the code and the block
/// as written.
///
/// # Errors
/// What the reader returns.
pub fn nntp(input: &[u8]) -> Result<(u16, Vec<u8>), AccessError> {
    let opts = options();
    let mut c = LineConn::new(Scripted::new(input), &opts);
    let (code, _) = crate::news::status(&mut c, &mut NoTrace)?;
    let mut budget = Budget::new(&opts);
    let mut out = Vec::new();
    crate::news::block(&mut c, &mut budget, &mut NoTrace, &mut out)?;
    Ok((code, out))
}

/// An http response read as `fetch` reads it: the head, then the body by
/// its framing (chunked, `Content-Length`, or until the end). The status
/// and the body written.
///
/// # Errors
/// What the readers return.
pub fn http_response(input: &[u8]) -> Result<(u16, Vec<u8>), AccessError> {
    let opts = options();
    let mut reader = io::BufReader::new(Scripted::new(input));
    let head = read_head(&mut reader, Bounds::of(&opts), &mut NoTrace)?;
    let status = head.status;
    let mut budget = Budget::new(&opts);
    let mut out = Vec::new();
    crate::http::body(head, reader, &mut budget, &mut NoTrace, &mut out)?;
    Ok((status, out))
}

/// A redirect as `fetch` follows it: `location` made absolute against the
/// request for `from` (an http URL), then checked as any URL is. The next
/// host, port and request target.
///
/// # Errors
/// `from` is no http URL `fetch` would request, or the redirect is refused.
pub fn redirect(from: &str, location: &str) -> Result<(String, u16, String), AccessError> {
    let opts = options();
    let crate::target::Target::Http { ep, target } = crate::target::Target::new(from, &opts)? else {
        return Err(AccessError::Protocol("not an http URL".into()));
    };
    let next = crate::http::resolve(&ep, &target, location);
    let (ep, target) = crate::http::follow(&next, &Budget::new(&opts))?;
    Ok((ep.host, ep.port, target))
}

/// What a server sends, read as a stream; what is sent to it, kept.
struct Recorded<'a> {
    input: &'a [u8],
    sent: Vec<u8>,
}

impl Read for Recorded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.input.read(buf)
    }
}

impl Write for Recorded<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.sent.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The step from an NNTP `GROUP` reply (`count first last group`, after
/// the code) to the overview: the `XOVER` sent, if any, and the overview
/// written.
///
/// # Errors
/// What the step returns; the octets sent so far come with it.
pub fn nntp_overview(group_reply: &str, input: &[u8]) -> (Vec<u8>, Result<Vec<u8>, AccessError>) {
    let opts = options();
    let mut c = LineConn::new(Recorded { input, sent: Vec::new() }, &opts);
    let mut budget = Budget::new(&opts);
    let mut out = Vec::new();
    let result = crate::news::overview(&mut c, group_reply, &mut budget, &mut NoTrace, &mut out);
    (c.into_inner().sent, result.map(|()| out))
}
