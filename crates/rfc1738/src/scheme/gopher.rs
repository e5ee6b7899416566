//! §3.4 GOPHER:
//! `gopherurl = "gopher://" hostport [ / [ gtype [ selector
//!              [ "%09" search [ "%09" gopher+_string ] ] ] ] ]`
//!
//! `marks[0]` and `marks[1]` are the offsets of the first and second
//! `"%09"`, when present. The selector ends at the first `%09` because a
//! Gopher selector never contains a TAB (§3.4.1), nor an encoded CR or LF
//! (`%0D`, `%0A`: an error); the search ends at the
//! next one; the gopher+ string is `*xchar` and may contain more (§3.4.9).
//!
//! The search is `*xchar` too, not the http `search` the §5 BNF names:
//! §3.4.1 says "Within the `<gopher-path>`, no characters are reserved", the
//! one statement about gopher itself, and a gopher client sends the search
//! as it is (§3.4.2), `"/"` and `"?"` included. The BNF's reuse of http's
//! rule (which forbids them) reads as an artefact; docs/DIFFERENCES.md
//! quotes both texts.

use crate::chars;
use crate::error::{ParseError, Rule};
use crate::pct;
use crate::reader::Parser;
use crate::schemepart::{self, LoginRules};
use crate::url::{Parts, UrlRef};
use std::borrow::Cow;

pub(crate) fn parse(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let i = schemepart::ip_schemepart(p, parts, i, LoginRules::HOSTPORT)?;
    after_login(p, parts, i)
}

/// `[ / [ gtype [ selector ... ] ] ]` from `i`, where the login ended
/// (its `"/"` or the end).
pub(crate) fn after_login(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let Some(path) = schemepart::opt_path(p, parts, i) else {
        return Ok(());
    };
    if path == p.end {
        return Ok(());
    }
    let sel = gtype(p, path)?;
    let tab1 = until_tab(p, sel, chars::XCHAR, Rule::Selector)?;
    if tab1 == p.end {
        return Ok(());
    }
    parts.marks[0] = tab1 as u32;
    // §3.4.1: "no characters are reserved": the search is `*xchar`.
    let tab2 = until_tab(p, tab1 + 3, chars::XCHAR, Rule::Search)?;
    if tab2 == p.end {
        return Ok(());
    }
    parts.marks[1] = tab2 as u32;
    p.scan_to_end(tab2 + 3, chars::XCHAR, Rule::GopherPlusString)
}

/// `gtype = xchar`: one character or one escape.
fn gtype(p: &Parser<'_>, i: usize) -> Result<usize, ParseError> {
    let c = p.b[i];
    if !chars::XCHAR.contains(c) {
        return p.tolerate(i, Rule::Gtype);
    }
    if c == b'%' {
        return match pct::escape_at(p.b, i) {
            Some(_) => Ok(i + 3),
            None => p.bare_percent(i, Rule::Gtype),
        };
    }
    Ok(i + 1)
}

/// Consumes `class` up to the first `"%09"` (returned) or the end.
fn until_tab(p: &Parser<'_>, i: usize, class: chars::Class, rule: Rule) -> Result<usize, ParseError> {
    let mut j = i;
    loop {
        j = p.scan(j, class.literal(), rule)?;
        if j == p.end {
            return Ok(j);
        }
        if p.b[j] != b'%' || !class.contains(b'%') {
            j = p.tolerate(j, rule)?;
            continue;
        }
        match pct::escape_at(p.b, j) {
            Some(b'\t') => return Ok(j),
            // §3.4.1: a selector holds "any octets except 09 ... 0A ...
            // and 0D": an encoded CR or LF would end the request line.
            Some(b'\r' | b'\n') if rule == Rule::Selector => {
                return Err(ParseError::new(j, crate::ErrorKind::InvalidChar, rule))
            }
            Some(_) => j += 3,
            None => j = p.bare_percent(j, rule)?,
        }
    }
}

/// The gopher view (§3.4): type, selector, search and gopher+ string.
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("gopher://h.edu/7search%09gopher%20url")?;
/// let g = url.gopher().unwrap();
/// assert_eq!(g.gopher_type(), b'7');
/// assert_eq!(g.selector(), "search");
/// assert_eq!(g.request(), b"search\tgopher url\r\n");
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Gopher<'a> {
    url: UrlRef<'a>,
}

impl<'a> Gopher<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Gopher<'a> {
        Gopher { url }
    }

    fn path(&self) -> &'a str {
        self.url.url_path().unwrap_or("")
    }

    fn path_start(&self) -> usize {
        self.url.parts().path.map_or(0, |s| s.start())
    }

    /// The raw `gtype` (one character or one escape); `None` when the path
    /// is empty.
    #[must_use]
    pub fn gtype_raw(&self) -> Option<&'a str> {
        let path = self.path();
        match path.as_bytes().first()? {
            // A `%` that starts no escape (a lenient parse) is one character.
            b'%' if pct::escape_at(path.as_bytes(), 0).is_some() => Some(&path[..3]),
            _ => Some(&path[..1]),
        }
    }

    /// The gopher type, decoded; `b'1'` (a directory) when the path is
    /// empty (§3.4.1).
    #[must_use]
    pub fn gopher_type(&self) -> u8 {
        self.gtype_raw().map_or(b'1', |t| pct::decode(t)[0])
    }

    /// The selector, raw (after the type, up to the first `%09`).
    #[must_use]
    pub fn selector(&self) -> &'a str {
        let path = self.path();
        let start = self.gtype_raw().map_or(0, str::len);
        let end = self.url.mark(0).map_or(path.len(), |t| t - self.path_start());
        &path[start..end]
    }

    /// The search, raw (after the first `%09`); `None` without one.
    #[must_use]
    pub fn search(&self) -> Option<&'a str> {
        let base = self.path_start();
        let start = self.url.mark(0)? + 3 - base;
        let end = self.url.mark(1).map_or(self.path().len(), |t| t - base);
        Some(&self.path()[start..end])
    }

    /// The gopher+ string, raw (after the second `%09`); `None` without one.
    #[must_use]
    pub fn plus(&self) -> Option<&'a str> {
        let start = self.url.mark(1)? + 3 - self.path_start();
        Some(&self.path()[start..])
    }

    /// The selector, decoded.
    #[must_use]
    pub fn selector_decoded(&self) -> Cow<'a, [u8]> {
        pct::decode(self.selector())
    }

    /// The exact request a client sends (§3.4.2, §3.4.3): the decoded
    /// selector, then TAB and the decoded search, then TAB and the decoded
    /// gopher+ string, each when present, then CR LF.
    ///
    /// A gopher+ string that carries a filled-in form (§3.4.9) already
    /// ends with its data block's CR LF, so none is added after it.
    #[must_use]
    pub fn request(&self) -> Vec<u8> {
        let mut out = self.selector_decoded().into_owned();
        for part in [self.search(), self.plus()].into_iter().flatten() {
            out.push(b'\t');
            out.extend_from_slice(&pct::decode(part));
        }
        if self.plus().is_none() || !out.ends_with(b"\r\n") {
            out.extend_from_slice(b"\r\n");
        }
        out
    }
}
