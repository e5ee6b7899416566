//! §3.11 PROSPERO:
//! `prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]`,
//! `fieldspec = ";" fieldname "=" fieldvalue`.
//!
//! `marks[0]` is the offset of the first `";"`, when present.

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

/// `"/" ppath *[ ";" fieldspec ]` from `i`, where the login ended (its
/// `"/"` or the end).
pub(crate) fn after_login(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let path = schemepart::path(p, parts, i)?;
    let mut j = p.scan_until(path, chars::PPATH, Rule::Ppath, |c| c == b';')?;
    if j < p.end {
        parts.marks[0] = j as u32;
    }
    while j < p.end {
        if p.b[j] != b';' {
            return Err(p.unexpected(j, Rule::Ppath));
        }
        j = fieldspec(p, j + 1)?;
    }
    Ok(())
}

/// `fieldname "=" fieldvalue`, after the `";"`.
fn fieldspec(p: &Parser<'_>, i: usize) -> Result<usize, ParseError> {
    let eq = p.scan_until(i, chars::FIELD, Rule::Fieldspec, |c| c == b'=')?;
    if eq == p.end || p.b[eq] != b'=' {
        return Err(p.unexpected(eq, Rule::Fieldspec));
    }
    let j = p.scan_until(eq + 1, chars::FIELD, Rule::Fieldspec, |c| c == b';')?;
    if j < p.end && p.b[j] != b';' {
        return Err(p.unexpected(j, Rule::Fieldspec));
    }
    Ok(j)
}

/// The prospero view (§3.11): the hsoname and the field/value pairs.
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("prospero://host.dom//pros/name;OBJECT-VERSION=2")?;
/// let p = url.prospero().unwrap();
/// assert_eq!(&*p.hsoname(), b"/pros/name");
/// assert_eq!(p.fields().collect::<Vec<_>>(), [("OBJECT-VERSION", "2")]);
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Prospero<'a> {
    url: UrlRef<'a>,
}

impl<'a> Prospero<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Prospero<'a> {
        Prospero { url }
    }

    /// The hsoname, raw (the `ppath`). It may begin with `/`, giving `//`
    /// after the host.
    #[must_use]
    pub fn hsoname_raw(&self) -> &'a str {
        let path = self.url.url_path().unwrap_or("");
        let start = self.url.parts().path.map_or(0, |s| s.start());
        self.url.mark(0).map_or(path, |semi| &path[..semi - start])
    }

    /// The hsoname, decoded.
    #[must_use]
    pub fn hsoname(&self) -> Cow<'a, [u8]> {
        pct::decode(self.hsoname_raw())
    }

    /// The `(fieldname, fieldvalue)` pairs, raw, in order.
    pub fn fields(&self) -> impl Iterator<Item = (&'a str, &'a str)> {
        let rest = self.url.mark(0).map_or("", |semi| &self.url.without_fragment()[semi + 1..]);
        rest.split(';').filter(|_| !rest.is_empty()).map(|f| f.split_once('=').unwrap_or((f, "")))
    }
}
