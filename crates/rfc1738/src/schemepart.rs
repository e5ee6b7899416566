//! The Common Internet Scheme Syntax of §3.1, shared by every scheme
//! that uses it: `ip-schemepart`, `login`, `hostport`, `port`, and the
//! `"/" url-path` after them.

use crate::chars;
use crate::error::{ErrorKind, ParseError, Rule};
use crate::host;
use crate::reader::Parser;
use crate::url::{Parts, Span};
use crate::warning::WarningKind;

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
    let h = host::short(b, i)?;
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

/// `port = digits` (§5). §5 gives it no range, as it gives `hostnumber`
/// none: a port above 65535 is read (its value unknown to [`Url::port`])
/// and reported by `security_warnings` (docs/DIFFERENCES.md).
///
/// [`Url::port`]: crate::Url::port
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
    // Above 65535, no TCP port: `port_value` says so with `None`.
    parts.port_value = u16::try_from(value).ok();
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
