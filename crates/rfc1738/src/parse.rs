//! The reader and the generic grammar of §5: `genericurl` (its `scheme`
//! read by `fast::scheme`), `ip-schemepart`, `login`, `hostport`, `port`.
//!
//! Cursor invariant: every function takes the index of the first byte it
//! may consume and returns the index of the first byte it did not, always
//! `<= Parser::end`. Nothing is consumed past `end`, the offset of the
//! first `#` (§2.2: `#` delimits the URL from a fragment identifier).

use crate::chars::{self, Class};
use crate::error::{ErrorKind, ParseError, Rule};
use crate::fast::{self, Fast};
use crate::host;
use crate::options::Lenient;
use crate::pct;
use crate::scheme::{self, SchemeKind};
use crate::url::{Parts, Span};
use crate::warning::WarningKind;

/// The longest input accepted: offsets are stored as `u32`.
pub const MAX_LEN: usize = (u32::MAX - 1) as usize;

/// The bytes being read, where the URL proper ends, and, for a lenient
/// parse, its options and warnings.
///
/// Lenient handling sits where a strict parse raises its error: a strict
/// parse (`lenient: None`) never looks at it outside its `#[cold]` error
/// paths.
pub(crate) struct Parser<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) end: usize,
    pub(crate) lenient: Option<&'a Lenient>,
}

impl Parser<'_> {
    /// Consumes bytes of `class` from `i`, checking every `%` escape.
    #[inline]
    pub(crate) fn scan(&self, mut i: usize, class: Class, rule: Rule) -> Result<usize, ParseError> {
        let (b, end) = (self.b, self.end.min(self.b.len()));
        loop {
            // Eight bytes at a time up to the first byte that is not a
            // plain member (a class without a run bit: byte by byte).
            i = chars::run_of(b, i, end, class);
            while class.1 == 0 && i < end && b[i] != b'%' && class.contains(b[i]) {
                i += 1;
            }
            if !class.contains(b'%') {
                return Ok(i);
            }
            // Runs of escapes stay here; plain bytes go eight at a time.
            while i < end && b[i] == b'%' {
                if pct::escape_at(b, i).is_none() {
                    return Err(ParseError::new(i, ErrorKind::InvalidEscape, rule));
                }
                i += 3;
            }
            if i >= end || !class.contains(b[i]) {
                return Ok(i);
            }
        }
    }

    /// The error for the byte at `i` that `rule` cannot take: its kind
    /// looked up (`UNEXPECTED`), not found by a chain of tests, which
    /// an error path taken once in a while would mostly guess wrong.
    #[cold]
    pub(crate) fn unexpected(&self, i: usize, rule: Rule) -> ParseError {
        let kind = match self.b.get(i) {
            Some(&c) if i < self.end => UNEXPECTED[c as usize],
            _ => ErrorKind::UnexpectedEnd,
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
        self.scan_until(i, class, rule, |_| false).map(|_| ())
    }

    /// Consumes `class` from `i` up to the end or a byte for which `stop`
    /// holds, and returns where it stopped. Any other byte is an error for
    /// `rule`, unless the lenient options accept it (see [`Parser::tolerate`]).
    #[inline]
    pub(crate) fn scan_until(
        &self,
        i: usize,
        class: Class,
        rule: Rule,
        stop: impl Fn(u8) -> bool,
    ) -> Result<usize, ParseError> {
        let mut j = self.scan_escapes(i, class, rule)?;
        while j < self.end && !stop(self.b[j]) {
            j = self.tolerate(j, rule)?;
            j = self.scan_escapes(j, class, rule)?;
        }
        Ok(j)
    }

    /// [`Parser::scan`], where a lenient parse may accept a bare `%`. The
    /// scan loop itself stays as it is: the lenient reading starts from its
    /// error, on a cold path.
    #[inline]
    fn scan_escapes(&self, i: usize, class: Class, rule: Rule) -> Result<usize, ParseError> {
        match self.scan(i, class, rule) {
            Ok(j) => Ok(j),
            Err(e) => self.rescan(e, class, rule),
        }
    }

    /// After `scan` failed with `e`: in a lenient parse that accepts a bare
    /// `%`, the warning, and the scan goes on after it; otherwise `e`.
    #[cold]
    #[inline(never)]
    fn rescan(&self, mut e: ParseError, class: Class, rule: Rule) -> Result<usize, ParseError> {
        loop {
            if e.kind() != ErrorKind::InvalidEscape {
                return Err(e);
            }
            let j = self.bare_percent(e.offset(), rule)?;
            match self.scan(j, class, rule) {
                Ok(k) => return Ok(k),
                Err(next) => e = next,
            }
        }
    }

    /// Where a strict parse fails at `j` in `rule`: in a lenient parse, a
    /// byte the options accept is recorded as a warning and `j + 1`
    /// returned; otherwise the strict error.
    #[cold]
    #[inline(never)]
    pub(crate) fn tolerate(&self, j: usize, rule: Rule) -> Result<usize, ParseError> {
        if let (Some(l), Some(&c)) = (self.lenient, self.b.get(j)) {
            if j < self.end && l.opts.reserved_in_search && rule == Rule::Search && matches!(c, b'/' | b'?') {
                l.warn(j, WarningKind::ReservedInSearch, format!("unencoded \"{}\" in a search", c as char));
                return Ok(j + 1);
            }
            if l.opts.unsafe_chars && is_tolerable_unsafe(c) {
                l.warn(
                    j,
                    WarningKind::UnsafeChar,
                    format!("unsafe character \"{}\" should be encoded as %{c:02X} (§2.2)", c as char),
                );
                return Ok(j + 1);
            }
        }
        Err(self.unexpected(j, rule))
    }

    /// A `%` not followed by two hex digits: an error, or in a lenient
    /// parse that accepts it, a warning and `i + 1` (the `%` read as itself).
    #[cold]
    #[inline(never)]
    pub(crate) fn bare_percent(&self, i: usize, rule: Rule) -> Result<usize, ParseError> {
        match self.lenient {
            Some(l) if l.opts.bare_percent => {
                l.warn(
                    i,
                    WarningKind::BarePercent,
                    "\"%\" not followed by two hex digits, read as itself (%25)",
                );
                Ok(i + 1)
            }
            _ => Err(ParseError::new(i, ErrorKind::InvalidEscape, rule)),
        }
    }

    /// Whether the byte at `h`, which ends the run of host characters, is
    /// an underscore a lenient parse accepts (recording the warning).
    #[cold]
    #[inline(never)]
    fn tolerate_underscore(&self, h: usize) -> bool {
        match self.lenient {
            Some(l) if l.opts.underscore_in_host => {
                l.warn(
                    h,
                    WarningKind::UnderscoreInHost,
                    "\"_\" in a host name (§3.1 allows letters, digits and \"-\")",
                );
                true
            }
            _ => false,
        }
    }

    /// The end of the run of host characters from `i`, stopping before
    /// `limit`; underscores are part of the run in a lenient parse.
    #[inline]
    pub(crate) fn host_end(&self, i: usize, limit: usize) -> usize {
        let mut h = i;
        loop {
            while h < limit && chars::HOSTCHAR.contains(self.b[h]) {
                h += 1;
            }
            if h < limit && self.b[h] == b'_' && self.tolerate_underscore(h) {
                h += 1;
                continue;
            }
            return h;
        }
    }

    /// The first `needle` in `i..end`, or `end`.
    #[inline]
    pub(crate) fn find(&self, i: usize, needle: u8) -> usize {
        chars::find_byte(self.b, i, self.end, needle)
    }
}

/// What a byte no rule takes at its place is: a control character, not
/// ASCII (§2.2), unsafe, reserved, or another byte out of place (`"%"`
/// among them: an escape that is one is refused for its digits).
static UNEXPECTED: [ErrorKind; 256] = {
    let mut t = [ErrorKind::InvalidChar; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = if chars::is_control(b) {
            ErrorKind::ControlChar
        } else if b >= 0x80 {
            ErrorKind::NonAscii
        } else if b == b'%' {
            ErrorKind::InvalidChar
        } else if chars::is_unsafe(b) {
            ErrorKind::Unsafe
        } else if chars::RESERVED.contains_const(b) {
            ErrorKind::Reserved
        } else {
            ErrorKind::InvalidChar
        };
        c += 1;
    }
    t
};

/// `genericurl = scheme ":" schemepart`, then the scheme's own grammar.
pub(crate) fn parse(input: &str) -> Result<Parts, ParseError> {
    let mut parts = Parts::new(SchemeKind::Other, 0, 0, false);
    parse_into(input.as_bytes(), &mut parts).map(|()| parts)
}

/// [`parse`] into `parts`, which hold the answer when it is `Ok` (the
/// caller's own, so that the parts are written once, where they stay).
///
/// Every rule works on bytes: no class holds an octet above 7F (§2.2: "URLs
/// are written only with the graphic printable characters of the US-ASCII
/// coded character set"), so text that is not UTF-8 fails where its first
/// such octet stands, as any other non-ASCII text does.
#[inline]
pub(crate) fn parse_into(b: &[u8], parts: &mut Parts) -> Result<(), ParseError> {
    if b.len() > MAX_LEN {
        return Err(too_long());
    }
    // The common shape in one pass; the rules read everything else.
    let known = match fast::parse(b, parts) {
        Fast::Done(answer) => return answer,
        Fast::Scheme(colon, kind) => Some((colon, kind)),
    };
    // No rule accepts `#` (§2.2: it is unsafe), so a strict parse of
    // the whole input succeeds only when there is none, and the search
    // for it is needed only when that parse fails.
    *parts = match url_proper(b, b.len(), None, known) {
        Ok(parts) => parts,
        Err(e) if chars::find_byte(b, 0, b.len(), b'#') == b.len() => return Err(e),
        Err(_) => with_fragment(b, None, known)?,
    };
    Ok(())
}

/// [`parse`], accepting what the options of `lenient` accept and
/// recording a warning for each.
pub(crate) fn parse_lenient(input: &str, lenient: &Lenient) -> Result<Parts, ParseError> {
    if input.len() > MAX_LEN {
        return Err(too_long());
    }
    with_fragment(input.as_bytes(), Some(lenient), None)
}

/// The error for an input longer than [`MAX_LEN`].
#[cold]
fn too_long() -> ParseError {
    ParseError::new(MAX_LEN, ErrorKind::TooLong, Rule::Scheme)
}

/// The URL up to the first `"#"`, then the fragment after it. `known`:
/// the `":"` and kind of a scheme read before, which ends before any `"#"`
/// (no scheme character is one), so it holds for the shorter URL too.
/// Kept out of line: the common parse does not come here.
#[inline(never)]
fn with_fragment(
    b: &[u8],
    lenient: Option<&Lenient>,
    known: Option<(usize, SchemeKind)>,
) -> Result<Parts, ParseError> {
    let end = chars::find_byte(b, 0, b.len(), b'#');
    let parts = url_proper(b, end, lenient, known)?;
    if end < b.len() {
        fragment(b, end + 1, lenient)?;
    }
    Ok(parts)
}

/// The URL without its fragment: `b[..end]`; `known`, the `":"` and the
/// kind of its scheme when they have been read already.
#[inline]
fn url_proper(
    b: &[u8],
    end: usize,
    lenient: Option<&Lenient>,
    known: Option<(usize, SchemeKind)>,
) -> Result<Parts, ParseError> {
    let p = Parser { b, end, lenient };
    let (colon, kind) = match known {
        Some(known) => known,
        // `scheme` stops at a `"#"` at the latest, so `end` needs no check.
        None => match fast::scheme(b) {
            fast::Scheme::Colon(colon) => (colon, SchemeKind::from_prefix(b, colon)),
            fast::Scheme::Error(i) => return Err(no_scheme(&p, i)),
        },
    };
    let mut parts = Parts::new(kind, colon, end, end < b.len());
    scheme::parse(&p, &mut parts, colon + 1)?;
    Ok(parts)
}

/// §2.2 unsafe characters that a lenient parse accepts unencoded: all but
/// `%` (an escape), `#` (the fragment), and `<`, `>`, `"`, which delimit
/// URLs in text, so that a raw one means a badly cut URL or injected markup.
const fn is_tolerable_unsafe(c: u8) -> bool {
    chars::is_unsafe(c) && !matches!(c, b'%' | b'#' | b'<' | b'>' | b'"')
}

/// The error when the scheme characters `0..i` are not a scheme followed
/// by `":"`.
#[cold]
#[inline(never)]
pub(crate) fn no_scheme(p: &Parser<'_>, i: usize) -> ParseError {
    if i == 0 {
        return ParseError::new(0, ErrorKind::EmptyScheme, Rule::Scheme);
    }
    let kind = if i == p.end || p.b[i] == b'/' || chars::is_unsafe(p.b[i]) {
        ErrorKind::MissingColon
    } else {
        p.unexpected(i, Rule::Scheme).kind()
    };
    ParseError::new(i, kind, Rule::Scheme)
}

/// The fragment identifier. RFC 1738 does not define its syntax; it is
/// held to `*xchar`, the characters a URL itself may use (§2.2: "URLs are
/// written only with the graphic printable characters").
fn fragment(b: &[u8], start: usize, lenient: Option<&Lenient>) -> Result<(), ParseError> {
    let p = Parser { b, end: b.len(), lenient };
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
    if let Some((h, region_end)) = plain_hostport_end(p, i) {
        parts.host = Some(Span::new(i, h));
        after_host(p, parts, h, region_end, rules)?;
        return Ok(region_end);
    }
    let region_end = p.find(i, b'/');
    let at = Some(chars::find_byte(p.b, i, region_end, b'@')).filter(|&at| at < region_end);
    let host_start = match at {
        Some(at) => {
            // Read first, so that a byte no rule accepts is reported where
            // it stands, not as a user where none may be.
            userinfo(p, parts, i, at)?;
            if !rules.user {
                disallowed_user(p, i)?;
            }
            at + 1
        }
        None => i,
    };
    hostport(p, parts, host_start, region_end, rules)?;
    Ok(region_end)
}

/// The fast path of `login`: a valid host name (checked in the same pass,
/// see `fast.rs`), maybe `":"` and digits, then `"/"` or the end: no user
/// (no `"@"` can be in it), and the login ends there. `None` sends
/// everything else (a hostnumber, a user, an error) the long way.
#[inline]
fn plain_hostport_end(p: &Parser<'_>, i: usize) -> Option<(usize, usize)> {
    let b = &p.b[..p.end.min(p.b.len())];
    let h = fast::host(b, i)?;
    let mut j = h;
    if j < b.len() && b[j] == b':' {
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
    }
    (j == b.len() || b[j] == b'/').then_some((h, j))
}

/// A user in a scheme whose grammar has none: an error, or a warning in a
/// lenient parse that accepts it.
#[cold]
fn disallowed_user(p: &Parser<'_>, i: usize) -> Result<(), ParseError> {
    match p.lenient {
        Some(l) if l.opts.user_in_any_scheme => {
            l.warn(i, WarningKind::DisallowedUser, "a user name or password where the scheme allows none");
            Ok(())
        }
        _ => Err(ParseError::new(i, ErrorKind::UserNotAllowed, Rule::Login)),
    }
}

/// `user [ ":" password ]`, ending exactly at `at` (the `"@"`).
fn userinfo(p: &Parser<'_>, parts: &mut Parts, i: usize, at: usize) -> Result<(), ParseError> {
    let j = p.scan_until(i, chars::USER, Rule::User, |c| c == b':' || c == b'@')?;
    parts.user = Some(Span::new(i, j));
    if j == at {
        return Ok(());
    }
    let k = p.scan_until(j + 1, chars::USER, Rule::Password, |c| c == b'@')?;
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
    let h = p.host_end(i, region_end);
    if h == i && h < region_end && p.b[h] != b':' {
        // Not even the start of a host: say what the byte is.
        return Err(p.unexpected(h, Rule::Host));
    }
    if !(rules.empty_host && h == i) {
        host::host(p, i, h)?;
    }
    parts.host = Some(Span::new(i, h));
    after_host(p, parts, h, region_end, rules)
}

/// `[ ":" port ]` from `h`, the end of the host, to `region_end`.
fn after_host(
    p: &Parser<'_>,
    parts: &mut Parts,
    h: usize,
    region_end: usize,
    rules: LoginRules,
) -> Result<(), ParseError> {
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
        if i == region_end {
            return empty_port(p, i);
        }
        return Err(ParseError::new(i, p.unexpected(i, Rule::Port).kind(), Rule::Port));
    }
    if j != region_end {
        return Err(p.unexpected(j, Rule::Port));
    }
    parts.port_value =
        u16::try_from(value).map_err(|_| ParseError::new(i, ErrorKind::PortOutOfRange, Rule::Port))?;
    parts.port = Some(Span::new(i, j));
    Ok(())
}

/// `":"` with no digits after it: an error, or a warning in a lenient
/// parse that accepts it (the URL then has no explicit port).
#[cold]
fn empty_port(p: &Parser<'_>, i: usize) -> Result<(), ParseError> {
    match p.lenient {
        Some(l) if l.opts.empty_port => {
            l.warn(i, WarningKind::EmptyPort, "\":\" with no port after it");
            Ok(())
        }
        _ => Err(ParseError::new(i, ErrorKind::EmptyPort, Rule::Port)),
    }
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
    validate_bytes(input.as_bytes())
}

/// [`validate`] for bytes that may not be UTF-8, such as lines read from a
/// log: no UTF-8 check is needed first, since every octet above 7F is an
/// error at its offset (kind [`crate::ErrorKind::NonAscii`]), as it is in
/// a `&str`.
///
/// # Errors
/// The same [`ParseError`] as [`validate`] gives for the same bytes.
///
/// # Examples
/// ```
/// assert!(rfc1738::validate_bytes(b"ftp://h.dom/file").is_ok());
/// let e = rfc1738::validate_bytes(b"http://h.dom/a\xffb").unwrap_err();
/// assert_eq!((e.offset(), e.kind()), (14, rfc1738::ErrorKind::NonAscii));
/// ```
pub fn validate_bytes(input: &[u8]) -> Result<(), ParseError> {
    parse_into(input, &mut Parts::new(SchemeKind::Other, 0, 0, false))
}
