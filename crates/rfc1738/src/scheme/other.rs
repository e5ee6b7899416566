//! Other schemes: `otherurl = genericurl`, with
//! `schemepart = *xchar | ip-schemepart`.
//!
//! A scheme-specific part that starts with `//` is read as an
//! `ip-schemepart` (login, host, port, url-path); when that fails it is
//! still a URL if it is `*xchar`, as the alternative in the BNF allows,
//! only without those components.

use crate::chars;
use crate::error::{ParseError, Rule};
use crate::options::{Lenient, ParseOptions};
use crate::reader::Parser;
use crate::schemepart::{self, LoginRules};
use crate::url::{Parts, UrlRef};

pub(crate) fn parse(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let Some(l) = p.lenient else {
        return schemepart(p, parts, i);
    };
    // A lenient parse reads a text the grammar accepts exactly as a strict
    // parse does (`foo://a_b/` stays opaque, although a lenient login
    // would take `a_b` for a host); then a text with unsafe characters or
    // bare `%` as a strict parse reads it once they are encoded, which is
    // what its normal form does (`foo://h.dom/[x` has a host, as
    // `foo://h.dom/%5Bx` has; `foo://a_b/~` is opaque, as `foo://a_b/%7E` is).
    let strict = Parser { b: p.b, end: p.end, lenient: None };
    let mut attempt = *parts;
    if schemepart(&strict, &mut attempt, i).is_ok() {
        *parts = attempt;
        return Ok(());
    }
    if l.opts.unsafe_chars || l.opts.bare_percent {
        let encodable = Lenient::new(ParseOptions {
            unsafe_chars: l.opts.unsafe_chars,
            bare_percent: l.opts.bare_percent,
            ..ParseOptions::strict()
        });
        let q = Parser { b: p.b, end: p.end, lenient: Some(&encodable) };
        let mut attempt = *parts;
        if schemepart(&q, &mut attempt, i).is_ok() {
            *parts = attempt;
            l.absorb(encodable);
            return Ok(());
        }
    }
    // Every other deviation a login could have is `*xchar` already, so
    // this last reading only finds the error.
    schemepart(p, parts, i)
}

/// `schemepart = *xchar | ip-schemepart`, the `ip-schemepart` tried first.
fn schemepart(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    if p.b[i..p.end].starts_with(b"//") {
        let mut ip = *parts;
        let mark = p.lenient.map(|l| l.mark());
        match ip_schemepart(p, &mut ip, i) {
            Ok(()) => {
                *parts = ip;
                return Ok(());
            }
            Err(ip_err) => {
                if let (Some(l), Some(mark)) = (p.lenient, mark) {
                    l.rollback(mark);
                }
                return p.scan_to_end(i, chars::XCHAR, Rule::Schemepart).map_err(|x_err| {
                    if x_err.offset() >= ip_err.offset() {
                        x_err
                    } else {
                        ip_err
                    }
                });
            }
        }
    }
    p.scan_to_end(i, chars::XCHAR, Rule::Schemepart)
}

/// `ip-schemepart = "//" login [ "/" urlpath ]`, `urlpath = *xchar`.
fn ip_schemepart(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let i = schemepart::ip_schemepart(p, parts, i, LoginRules::LOGIN)?;
    match schemepart::opt_path(p, parts, i) {
        Some(path) => p.scan_to_end(path, chars::XCHAR, Rule::Urlpath),
        None => Ok(()),
    }
}

/// Scheme names §4 asks IANA to reserve for future definition.
pub const RESERVED_NAMES: [&str; 7] = ["afs", "mid", "cid", "nfs", "tn3270", "mailserver", "z39.50"];

/// The view of a URL of any other scheme.
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("x-radio://tuner.example/88.5")?;
/// let o = url.other().unwrap();
/// assert!(o.is_experimental() && !o.is_reserved());
/// assert_eq!(url.host(), Some("tuner.example"));
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Other<'a> {
    url: UrlRef<'a>,
}

impl<'a> Other<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Other<'a> {
        Other { url }
    }

    /// The scheme-specific part, raw.
    #[must_use]
    pub fn scheme_specific_part(&self) -> &'a str {
        self.url.scheme_specific_part()
    }

    /// Whether §4 reserves the scheme name (afs, mid, cid, nfs, tn3270,
    /// mailserver, z39.50).
    #[must_use]
    pub fn is_reserved(&self) -> bool {
        // §2.1: scheme names are case-insensitive (a `UrlRef` keeps the case).
        RESERVED_NAMES.iter().any(|n| n.eq_ignore_ascii_case(self.url.scheme()))
    }

    /// Whether the scheme name starts with `x-`, reserved for experiments (§4).
    #[must_use]
    pub fn is_experimental(&self) -> bool {
        self.url.scheme().get(..2).is_some_and(|p| p.eq_ignore_ascii_case("x-"))
    }
}
