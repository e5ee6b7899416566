//! The reader and the generic grammar of §5: `genericurl`, `scheme`,
//! `ip-schemepart`, `login`, `hostport`, `port`.
//!
//! Cursor invariant: every function takes the index of the first byte it
//! may consume and returns the index of the first byte it did not, always
//! `<= Parser::end`. Nothing is consumed past `end`, the offset of the
//! first `#` (§2.2: `#` delimits the URL from a fragment identifier).

use crate::chars::{self, Class};
use crate::error::{ErrorKind, ParseError, Rule};
use crate::host;
use crate::pct;
use crate::scheme::{self, SchemeKind};
use crate::url::{Parts, Span};

/// The longest input accepted: offsets are stored as `u32`.
pub const MAX_LEN: usize = (u32::MAX - 1) as usize;

/// The bytes being read and where the URL proper ends.
pub(crate) struct Parser<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) end: usize,
}

impl Parser<'_> {
    /// Consumes bytes of `class` from `i`, checking every `%` escape.
    #[inline]
    pub(crate) fn scan(&self, mut i: usize, class: Class, rule: Rule) -> Result<usize, ParseError> {
        let b = self.b;
        while i < self.end {
            let c = b[i];
            if !class.contains(c) {
                break;
            }
            if c == b'%' {
                if pct::escape_at(b, i).is_none() {
                    return Err(ParseError::new(i, ErrorKind::InvalidEscape, rule));
                }
                i += 3;
            } else {
                i += 1;
            }
        }
        Ok(i)
    }

    /// The error for the byte at `i` that `rule` cannot take.
    #[cold]
    pub(crate) fn unexpected(&self, i: usize, rule: Rule) -> ParseError {
        let kind = match self.b.get(i) {
            _ if i >= self.end => ErrorKind::UnexpectedEnd,
            Some(&c) if chars::is_control(c) => ErrorKind::ControlChar,
            Some(&c) if c >= 0x80 => ErrorKind::NonAscii,
            Some(b'%') => ErrorKind::InvalidChar,
            Some(&c) if chars::is_unsafe(c) => ErrorKind::Unsafe,
            Some(&c) if chars::RESERVED.contains(c) => ErrorKind::Reserved,
            _ => ErrorKind::InvalidChar,
        };
        ParseError::new(i, kind, rule)
    }

    /// Succeeds when `i` is the end of the URL.
    #[inline]
    pub(crate) fn expect_end(&self, i: usize, rule: Rule) -> Result<(), ParseError> {
        if i == self.end {
            Ok(())
        } else {
            Err(self.unexpected(i, rule))
        }
    }

    /// Consumes `class` from `i` and requires that it reaches the end.
    pub(crate) fn scan_to_end(&self, i: usize, class: Class, rule: Rule) -> Result<(), ParseError> {
        let j = self.scan(i, class, rule)?;
        self.expect_end(j, rule)
    }

    /// The first `needle` in `i..end`, or `end`.
    #[inline]
    pub(crate) fn find(&self, i: usize, needle: u8) -> usize {
        self.b[i..self.end].iter().position(|&c| c == needle).map_or(self.end, |d| i + d)
    }
}

/// `genericurl = scheme ":" schemepart`, then the scheme's own grammar.
pub(crate) fn parse(input: &str) -> Result<Parts, ParseError> {
    let b = input.as_bytes();
    if b.len() > MAX_LEN {
        return Err(ParseError::new(MAX_LEN, ErrorKind::TooLong, Rule::Scheme));
    }
    let end = b.iter().position(|&c| c == b'#').unwrap_or(b.len());
    let p = Parser { b, end };
    let colon = scheme_name(&p)?;
    let kind = SchemeKind::from_bytes(&b[..colon]);
    let mut parts = Parts::new(kind, colon, end, end < b.len());
    scheme::parse(&p, &mut parts, colon + 1)?;
    if end < b.len() {
        fragment(b, end + 1)?;
    }
    Ok(parts)
}

/// `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]`; returns the offset
/// of the `":"` after it.
fn scheme_name(p: &Parser<'_>) -> Result<usize, ParseError> {
    let i = p.scan(0, chars::SCHEME, Rule::Scheme)?;
    if i == 0 {
        return Err(ParseError::new(0, ErrorKind::EmptyScheme, Rule::Scheme));
    }
    if i < p.end && p.b[i] == b':' {
        Ok(i)
    } else {
        let kind = if i == p.end || p.b[i] == b'/' || chars::is_unsafe(p.b[i]) {
            ErrorKind::MissingColon
        } else {
            p.unexpected(i, Rule::Scheme).kind()
        };
        Err(ParseError::new(i, kind, Rule::Scheme))
    }
}

/// The fragment identifier. RFC 1738 does not define its syntax; it is
/// held to `*xchar`, the characters a URL itself may use (§2.2: "URLs are
/// written only with the graphic printable characters").
fn fragment(b: &[u8], start: usize) -> Result<(), ParseError> {
    let p = Parser { b, end: b.len() };
    p.scan_to_end(start, chars::XCHAR, Rule::Fragment)
}

/// What a scheme lets `login` contain.
#[derive(Clone, Copy)]
pub(crate) struct LoginRules {
    /// `user [ ":" password ] "@"` may appear.
    pub(crate) user: bool,
    /// `":" port` may appear.
    pub(crate) port: bool,
    /// The host may be empty (file, §3.10).
    pub(crate) empty_host: bool,
}

impl LoginRules {
    /// `login`: user, password, host and port (ftp, telnet, other schemes).
    pub(crate) const LOGIN: LoginRules = LoginRules { user: true, port: true, empty_host: false };
    /// `hostport` alone (http, gopher, nntp, wais, prospero).
    pub(crate) const HOSTPORT: LoginRules = LoginRules { user: false, port: true, empty_host: false };
}

/// `ip-schemepart = "//" login [ "/" urlpath ]`, up to the `/`: returns the
/// offset of the `/` after the login, or `end`.
pub(crate) fn ip_schemepart(
    p: &Parser<'_>,
    parts: &mut Parts,
    i: usize,
    rules: LoginRules,
) -> Result<usize, ParseError> {
    if !p.b[i..p.end].starts_with(b"//") {
        return Err(ParseError::new(i, ErrorKind::ExpectedDoubleSlash, Rule::IpSchemepart));
    }
    login(p, parts, i + 2, rules)
}

/// `login = [ user [ ":" password ] "@" ] hostport`
///
/// §3.1: within user and password, ":", "@" and "/" must be encoded, so
/// the login ends at the first `/` and a raw `@` can only end the user.
fn login(p: &Parser<'_>, parts: &mut Parts, i: usize, rules: LoginRules) -> Result<usize, ParseError> {
    let region_end = p.find(i, b'/');
    let at = p.b[i..region_end].iter().position(|&c| c == b'@').map(|d| i + d);
    let host_start = match at {
        Some(at) => {
            if !rules.user {
                return Err(ParseError::new(i, ErrorKind::UserNotAllowed, Rule::Login));
            }
            userinfo(p, parts, i, at)?;
            at + 1
        }
        None => i,
    };
    hostport(p, parts, host_start, region_end, rules)?;
    Ok(region_end)
}

/// `user [ ":" password ]`, ending exactly at `at` (the `"@"`).
fn userinfo(p: &Parser<'_>, parts: &mut Parts, i: usize, at: usize) -> Result<(), ParseError> {
    let j = p.scan(i, chars::USER, Rule::User)?;
    parts.user = Some(Span::new(i, j));
    if j == at {
        return Ok(());
    }
    if p.b[j] != b':' {
        return Err(p.unexpected(j, Rule::User));
    }
    let k = p.scan(j + 1, chars::USER, Rule::Password)?;
    if k != at {
        return Err(p.unexpected(k, Rule::Password));
    }
    parts.password = Some(Span::new(j + 1, k));
    Ok(())
}

/// `hostport = host [ ":" port ]`, ending exactly at `region_end`.
fn hostport(
    p: &Parser<'_>,
    parts: &mut Parts,
    i: usize,
    region_end: usize,
    rules: LoginRules,
) -> Result<(), ParseError> {
    let mut h = i;
    while h < region_end && chars::HOSTCHAR.contains(p.b[h]) {
        h += 1;
    }
    if h == i && h < region_end && p.b[h] != b':' {
        // Not even the start of a host: say what the byte is.
        return Err(p.unexpected(h, Rule::Host));
    }
    if !(rules.empty_host && h == i) {
        host::host(p.b, i, h)?;
    }
    parts.host = Some(Span::new(i, h));
    if h == region_end {
        return Ok(());
    }
    if p.b[h] != b':' {
        return Err(p.unexpected(h, Rule::Host));
    }
    if !rules.port {
        return Err(ParseError::new(h, ErrorKind::PortNotAllowed, Rule::Hostport));
    }
    port(p, parts, h + 1, region_end)
}

/// `port = digits`, a TCP port number (at most 65535).
fn port(p: &Parser<'_>, parts: &mut Parts, i: usize, region_end: usize) -> Result<(), ParseError> {
    let mut j = i;
    let mut value: u32 = 0;
    while j < region_end && p.b[j].is_ascii_digit() {
        value = (value * 10 + u32::from(p.b[j] - b'0')).min(65536);
        j += 1;
    }
    if j == i {
        let kind = if i == region_end { ErrorKind::EmptyPort } else { p.unexpected(i, Rule::Port).kind() };
        return Err(ParseError::new(i, kind, Rule::Port));
    }
    if j != region_end {
        return Err(p.unexpected(j, Rule::Port));
    }
    parts.port_value =
        u16::try_from(value).map_err(|_| ParseError::new(i, ErrorKind::PortOutOfRange, Rule::Port))?;
    parts.port = Some(Span::new(i, j));
    Ok(())
}

/// `[ "/" url-path ]` after a login: records the url-path when the `/` is
/// there and returns where the path starts.
pub(crate) fn opt_path(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Option<usize> {
    if i == p.end {
        return None;
    }
    debug_assert_eq!(p.b[i], b'/', "login ends at '/' or the end");
    parts.path = Some(Span::new(i + 1, p.end));
    Some(i + 1)
}

/// `"/" url-path` after a login, where the `/` is required.
pub(crate) fn path(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<usize, ParseError> {
    opt_path(p, parts, i).ok_or_else(|| ParseError::new(i, ErrorKind::ExpectedSlash, Rule::Urlpath))
}

/// The whole of a successful [`crate::Url::parse`], without keeping
/// anything: validation alone, allocation-free.
///
/// # Errors
/// The same [`ParseError`] as [`crate::Url::parse`].
///
/// # Examples
/// ```
/// assert!(rfc1738::validate("gopher://h.edu/7search%09query").is_ok());
/// let e = rfc1738::validate("http://h.edu/a b").unwrap_err();
/// assert_eq!(e.offset(), 14);
/// ```
pub fn validate(input: &str) -> Result<(), ParseError> {
    parse(input).map(|_| ())
}
