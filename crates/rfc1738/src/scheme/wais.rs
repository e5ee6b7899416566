//! §3.9 WAIS: `waisurl = waisdatabase | waisindex | waisdoc`:
//!
//! ```text
//! waisdatabase = "wais://" hostport "/" database
//! waisindex    = "wais://" hostport "/" database "?" search
//! waisdoc      = "wais://" hostport "/" database "/" wtype "/" wpath
//! ```
//!
//! `marks[0]` is the offset of the `"?"` or of the first `"/"` after the
//! database; `marks[1]` the offset of the `"/"` after the wtype.

use crate::chars;
use crate::error::{ParseError, Rule};
use crate::reader::Parser;
use crate::schemepart::{self, LoginRules};
use crate::url::{Parts, UrlRef};

pub(crate) fn parse(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let i = schemepart::ip_schemepart(p, parts, i, LoginRules::HOSTPORT)?;
    after_login(p, parts, i)
}

/// `"/" database [ "?" search | "/" wtype "/" wpath ]` from `i`, where
/// the login ended (its `"/"` or the end).
pub(crate) fn after_login(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let path = schemepart::path(p, parts, i)?;
    let j = p.scan_until(path, chars::UCHAR, Rule::Database, |c| c == b'?' || c == b'/')?;
    if j == p.end {
        return Ok(());
    }
    parts.marks[0] = j as u32;
    match p.b[j] {
        b'?' => p.scan_to_end(j + 1, chars::SEARCH, Rule::Search),
        b'/' => {
            let k = p.scan_until(j + 1, chars::UCHAR, Rule::Wtype, |c| c == b'/')?;
            if k == p.end || p.b[k] != b'/' {
                return Err(p.unexpected(k, Rule::Wtype));
            }
            parts.marks[1] = k as u32;
            p.scan_to_end(k + 1, chars::UCHAR, Rule::Wpath)
        }
        _ => Err(p.unexpected(j, Rule::Database)),
    }
}

/// Which of the three forms of §3.9 a WAIS URL has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaisForm {
    /// `waisdatabase`: a database available for searching.
    Database,
    /// `waisindex`: a particular search.
    Index,
    /// `waisdoc`: a document within a database.
    Doc,
}

/// The wais view (§3.9).
///
/// # Examples
/// ```
/// use rfc1738::WaisForm;
/// let url = rfc1738::Url::parse("wais://w.org/db/TEXT/doc%20id")?;
/// let w = url.wais().unwrap();
/// assert_eq!((w.form(), w.database(), w.wtype(), w.wpath()),
///            (WaisForm::Doc, "db", Some("TEXT"), Some("doc%20id")));
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Wais<'a> {
    url: UrlRef<'a>,
}

impl<'a> Wais<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Wais<'a> {
        Wais { url }
    }

    fn text(&self) -> &'a str {
        self.url.without_fragment()
    }

    /// The form of the URL.
    #[must_use]
    pub fn form(&self) -> WaisForm {
        match self.url.mark(0).map(|m| self.text().as_bytes()[m]) {
            None => WaisForm::Database,
            Some(b'?') => WaisForm::Index,
            Some(_) => WaisForm::Doc,
        }
    }

    /// The database name, raw.
    #[must_use]
    pub fn database(&self) -> &'a str {
        let start = self.url.parts().path.map_or(0, |s| s.start());
        &self.text()[start..self.url.mark(0).unwrap_or(self.text().len())]
    }

    /// The search, raw, for the index form.
    #[must_use]
    pub fn search(&self) -> Option<&'a str> {
        (self.form() == WaisForm::Index).then(|| &self.text()[self.url.mark(0).unwrap_or(0) + 1..])
    }

    /// The WAIS type of the document, raw, for the doc form.
    #[must_use]
    pub fn wtype(&self) -> Option<&'a str> {
        let (m0, m1) = (self.url.mark(0)?, self.url.mark(1)?);
        Some(&self.text()[m0 + 1..m1])
    }

    /// The document id, raw (opaque, §3.9), for the doc form.
    #[must_use]
    pub fn wpath(&self) -> Option<&'a str> {
        Some(&self.text()[self.url.mark(1)? + 1..])
    }
}
