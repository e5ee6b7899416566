//! §3.7 NNTP: `nntpurl = "nntp://" hostport "/" group [ "/" digits ]`.
//!
//! `marks[0]` is the offset of the `"/"` before the article number.

use crate::error::{ErrorKind, ParseError, Rule};
use crate::reader::Parser;
use crate::scheme::news;
use crate::schemepart::{self, LoginRules};
use crate::url::{Parts, UrlRef};

pub(crate) fn parse(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let i = schemepart::ip_schemepart(p, parts, i, LoginRules::HOSTPORT)?;
    after_login(p, parts, i)
}

/// `"/" group [ "/" article-number ]` from `i`, where the login ended
/// (its `"/"` or the end).
pub(crate) fn after_login(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let path = schemepart::path(p, parts, i)?;
    let j = news::group(p, path)?;
    if j == p.end {
        return Ok(());
    }
    if p.b[j] != b'/' {
        return Err(p.unexpected(j, Rule::Group));
    }
    parts.marks[0] = j as u32;
    article_number(p, j + 1)
}

/// `digits`, which must fit in 64 bits to be usable.
fn article_number(p: &Parser<'_>, i: usize) -> Result<(), ParseError> {
    let digits = &p.b[i..p.end];
    let n = digits.iter().take_while(|c| c.is_ascii_digit()).count();
    if n == 0 {
        let kind = if i == p.end {
            ErrorKind::InvalidArticleNumber
        } else {
            p.unexpected(i, Rule::ArticleNumber).kind()
        };
        let kind = if kind == ErrorKind::InvalidChar { ErrorKind::InvalidArticleNumber } else { kind };
        return Err(ParseError::new(i, kind, Rule::ArticleNumber));
    }
    if n != digits.len() {
        return Err(p.unexpected(i + n, Rule::ArticleNumber));
    }
    parse_u64(digits).map(|_| ()).ok_or(ParseError::new(
        i,
        ErrorKind::InvalidArticleNumber,
        Rule::ArticleNumber,
    ))
}

fn parse_u64(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')))
}

/// The nntp view: the group and the article number (§3.7).
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("nntp://news.dom/comp.lang.c/1234")?;
/// let n = url.nntp().unwrap();
/// assert_eq!((n.group(), n.article()), ("comp.lang.c", Some(1234)));
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Nntp<'a> {
    url: UrlRef<'a>,
}

impl<'a> Nntp<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Nntp<'a> {
        Nntp { url }
    }

    /// The news group name.
    #[must_use]
    pub fn group(&self) -> &'a str {
        let path = self.url.url_path().unwrap_or("");
        path.split('/').next().unwrap_or("")
    }

    /// The article number within the group, when given.
    #[must_use]
    pub fn article(&self) -> Option<u64> {
        self.article_raw().and_then(|d| parse_u64(d.as_bytes()))
    }

    /// The article number as written.
    #[must_use]
    pub fn article_raw(&self) -> Option<&'a str> {
        self.url.mark(0).map(|slash| &self.url.without_fragment()[slash + 1..])
    }
}
