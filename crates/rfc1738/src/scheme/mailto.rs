//! §3.5 MAILTO: `mailtourl = "mailto:" encoded822addr`,
//! `encoded822addr = 1*xchar ; further defined in RFC822`.
//!
//! Once decoded, the address must be one RFC 822 §6.1 `addr-spec`:
//!
//! ```text
//! addr-spec  = local-part "@" domain
//! local-part = word *("." word)          word = atom / quoted-string
//! domain     = sub-domain *("." sub-domain)
//! sub-domain = domain-ref / domain-literal   domain-ref = atom
//! ```
//!
//! Linear white space between tokens, which RFC 822 allows, is not
//! accepted: one address, with nothing around it.

use crate::chars;
use crate::error::{ErrorKind, ParseError, Rule};
use crate::parse::Parser;
use crate::pct;
use crate::url::{Parts, UrlRef};
use std::borrow::Cow;

pub(crate) fn parse(p: &Parser<'_>, _parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    if i == p.end {
        return Err(ParseError::new(i, ErrorKind::UnexpectedEnd, Rule::Encoded822addr));
    }
    p.scan_to_end(i, chars::XCHAR, Rule::Encoded822addr)?;
    addr_spec(&p.b[i..p.end])
        .map_err(|at| ParseError::new(i + at, ErrorKind::InvalidAddress, Rule::Encoded822addr))
}

/// The octets of the decoded address, read one at a time, each with the
/// offset it came from.
struct Octets<'a> {
    encoded: &'a [u8],
    i: usize,
}

impl Octets<'_> {
    /// The next octet and its offset, without consuming it.
    #[inline]
    fn peek(&self) -> Option<(u8, usize)> {
        let c = *self.encoded.get(self.i)?;
        Some((pct::escape_at(self.encoded, self.i).unwrap_or(c), self.i))
    }

    /// The next octet and its offset.
    #[inline]
    fn next(&mut self) -> Option<(u8, usize)> {
        let octet = self.peek()?;
        self.i += if pct::escape_at(self.encoded, self.i).is_some() { 3 } else { 1 };
        Some(octet)
    }

    /// The next octet, consumed when `f` holds for it.
    #[inline]
    fn next_if(&mut self, f: impl Fn(&(u8, usize)) -> bool) -> Option<(u8, usize)> {
        self.peek().filter(f).and_then(|_| self.next())
    }
}

/// Checks the decoded `encoded` against `addr-spec`; `Err` is the offset
/// (in `encoded`) where it stops matching.
fn addr_spec(encoded: &[u8]) -> Result<(), usize> {
    let mut s = Octets { encoded, i: 0 };
    let end = encoded.len();
    dotted(&mut s, end, word)?;
    match s.next() {
        Some((b'@', _)) => {}
        Some((_, at)) => return Err(at),
        None => return Err(end),
    }
    dotted(&mut s, end, sub_domain)?;
    match s.next() {
        Some((_, at)) => Err(at),
        None => Ok(()),
    }
}

/// `item *("." item)`
fn dotted(
    s: &mut Octets<'_>,
    end: usize,
    item: fn(&mut Octets<'_>, usize) -> Result<(), usize>,
) -> Result<(), usize> {
    item(s, end)?;
    while s.next_if(|&(c, _)| c == b'.').is_some() {
        item(s, end)?;
    }
    Ok(())
}

/// `word = atom / quoted-string`
fn word(s: &mut Octets<'_>, end: usize) -> Result<(), usize> {
    match s.peek() {
        Some((b'"', _)) => quoted(s, end, b'"', b'"'),
        _ => atom(s, end),
    }
}

/// `sub-domain = domain-ref / domain-literal`
fn sub_domain(s: &mut Octets<'_>, end: usize) -> Result<(), usize> {
    match s.peek() {
        Some((b'[', _)) => quoted(s, end, b'[', b']'),
        _ => atom(s, end),
    }
}

/// `atom = 1*<any CHAR except specials, SPACE and CTLs>`
fn atom(s: &mut Octets<'_>, end: usize) -> Result<(), usize> {
    const SPECIALS: &[u8] = b"()<>@,;:\\\".[]";
    let mut n = 0;
    while s.next_if(|&(c, _)| c > b' ' && c < 0x7f && !SPECIALS.contains(&c)).is_some() {
        n += 1;
    }
    if n == 0 {
        return Err(s.peek().map_or(end, |(_, at)| at));
    }
    Ok(())
}

/// `quoted-string = <"> *(qtext/quoted-pair) <">` and
/// `domain-literal = "[" *(dtext / quoted-pair) "]"`: any CHAR but the
/// closing delimiter, `\` and CR, with `\` quoting the next CHAR.
fn quoted(s: &mut Octets<'_>, end: usize, open: u8, close: u8) -> Result<(), usize> {
    let _ = s.next_if(|&(c, _)| c == open);
    loop {
        match s.next() {
            None => return Err(end),
            Some((c, _)) if c == close => return Ok(()),
            Some((b'\\', _)) => match s.next() {
                Some((c, _)) if c < 0x80 => {}
                Some((_, at)) => return Err(at),
                None => return Err(end),
            },
            Some((c, at)) if c == b'\r' || c >= 0x80 || (open == b'[' && c == b'[') => return Err(at),
            Some(_) => {}
        }
    }
}

/// The mailto view: the address (§3.5).
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("mailto:joe%25work@example.com")?;
/// assert_eq!(&*url.mailto().unwrap().address(), b"joe%work@example.com");
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Mailto<'a> {
    url: UrlRef<'a>,
}

impl<'a> Mailto<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Mailto<'a> {
        Mailto { url }
    }

    /// The encoded address, as written.
    #[must_use]
    pub fn address_raw(&self) -> &'a str {
        self.url.scheme_specific_part()
    }

    /// The RFC 822 address, decoded.
    #[must_use]
    pub fn address(&self) -> Cow<'a, [u8]> {
        pct::decode(self.address_raw())
    }
}
