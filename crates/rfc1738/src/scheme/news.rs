//! §3.6 NEWS: `newsurl = "news:" grouppart`,
//! `grouppart = "*" | group | article`.
//!
//! "A message identifier may be distinguished from a news group name by
//! the presence of the commercial at "@" character."

use crate::chars;
use crate::error::{ErrorKind, ParseError, Rule};
use crate::host;
use crate::reader::Parser;
use crate::url::{Parts, UrlRef};

pub(crate) fn parse(p: &Parser<'_>, _parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    // The common group, then the common article (§3.6: told by its "@"),
    // each in one pass; the rules below say where and why anything else
    // fails.
    let text = &p.b[i..p.end];
    let g = group_end(text);
    if g > 0 {
        if g == text.len() {
            return Ok(());
        }
        // No group octet is an "@", so the first one is at or after `g`:
        // without one, the text is no article, and a group fails where it
        // ends (the article's reading is not tried).
        if chars::find_byte(text, g, text.len(), b'@') == text.len() {
            return Err(p.unexpected(i + g, Rule::Group));
        }
    }
    if plain_article(p, i) {
        return Ok(());
    }
    grouppart(p, i)
}

/// `grouppart = "*" | group | article`
fn grouppart(p: &Parser<'_>, i: usize) -> Result<(), ParseError> {
    if &p.b[i..p.end] == b"*" {
        return Ok(());
    }
    let at = p.find(i, b'@');
    if at < p.end {
        article(p, i, at)
    } else {
        let j = group(p, i)?;
        p.expect_end(j, Rule::Group)
    }
}

/// Where `group` would end in `text`, read in one pass: a letter first,
/// then `GROUP_REST` and `"_"`, up to the first octet that is not (an
/// article's `"@"`, an error); 0 when the first is no letter.
#[inline]
pub(crate) fn group_end(text: &[u8]) -> usize {
    match text.split_first() {
        Some((&first, rest)) if chars::ALPHA_C.contains(first) => {
            1 + rest.iter().position(|&c| !IN_GROUP[c as usize]).unwrap_or(rest.len())
        }
        _ => 0,
    }
}

/// Whether the text from `i` is an `article` read in one pass each for
/// its two parts: the run of `article` characters (escapes checked) up to
/// its `"@"`, the first (no `article` character is one), then a host of
/// fewer than 64 bytes up to the end (`fast::host`, which `host::host`
/// tries first too). `article`, `host` and `grouppart` say where anything
/// else fails.
#[inline]
fn plain_article(p: &Parser<'_>, i: usize) -> bool {
    match p.scan(i, chars::ARTICLE, Rule::Article) {
        Ok(at) if at > i && at < p.end && p.b[at] == b'@' => {
            host::short(&p.b[..p.end], at + 1) == Some(p.end)
        }
        _ => false,
    }
}

/// The octets `group` takes after its first: `alpha | digit | "-" | "." |
/// "+" | "_"`.
static IN_GROUP: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = c as u8 == b'_' || chars::GROUP_REST.contains_const(c as u8);
        c += 1;
    }
    t
};

/// `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`; returns
/// where it ends.
pub(crate) fn group(p: &Parser<'_>, i: usize) -> Result<usize, ParseError> {
    if i == p.end || !chars::ALPHA_C.contains(p.b[i]) {
        let kind = if i < p.end && !chars::XCHAR.contains(p.b[i]) {
            p.unexpected(i, Rule::Group).kind()
        } else {
            ErrorKind::InvalidGroup
        };
        return Err(ParseError::new(i, kind, Rule::Group));
    }
    let mut j = i + 1;
    while j < p.end && (chars::GROUP_REST.contains(p.b[j]) || p.b[j] == b'_') {
        j += 1;
    }
    Ok(j)
}

/// `article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host`
fn article(p: &Parser<'_>, i: usize, at: usize) -> Result<(), ParseError> {
    let j = p.scan_until(i, chars::ARTICLE, Rule::Article, |c| c == b'@')?;
    if j != at {
        return Err(p.unexpected(j, Rule::Article));
    }
    if j == i {
        return Err(ParseError::new(at, ErrorKind::EmptyArticleId, Rule::Article));
    }
    let h = p.host_end(at + 1, p.end);
    if h == at + 1 && h < p.end {
        // Not even the start of a host (§3.1: a letter or digit first):
        // say what the byte is, as `schemepart::hostport` does.
        return Err(p.unexpected(h, Rule::Host));
    }
    host::host(p, at + 1, h)?;
    p.expect_end(h, Rule::Host)
}

/// The news view: a group, an article, or all groups (§3.6).
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("news:comp.infosystems.www.misc")?;
/// assert_eq!(url.news().unwrap().group(), Some("comp.infosystems.www.misc"));
/// assert!(rfc1738::Url::parse("news:*")?.news().unwrap().is_all());
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct News<'a> {
    url: UrlRef<'a>,
}

impl<'a> News<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> News<'a> {
        News { url }
    }

    fn part(&self) -> &'a str {
        self.url.scheme_specific_part()
    }

    /// Whether this is `news:*`, "all available news groups".
    #[must_use]
    pub fn is_all(&self) -> bool {
        self.part() == "*"
    }

    /// The news group name, when the URL names one (`*` is not a group).
    #[must_use]
    pub fn group(&self) -> Option<&'a str> {
        (!self.is_all() && !self.part().contains('@')).then(|| self.part())
    }

    /// The message id (`unique@host`, without `<` `>`), raw, when the URL
    /// names an article.
    #[must_use]
    pub fn article(&self) -> Option<&'a str> {
        self.part().contains('@').then(|| self.part())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `group_end` ends where `group` does, and `parse` gives the answer
    /// of the rules (`grouppart`).
    #[test]
    fn the_one_pass_readings_are_the_group_rule() {
        for text in crate::testing::every_text(b"aZ1-._+@*%/ ", 0..=5) {
            let p = Parser { b: &text, end: text.len(), lenient: None };
            let shown = String::from_utf8_lossy(&text);
            assert_eq!(group_end(&text), group(&p, 0).unwrap_or(0), "{shown}");
            let mut parts = Parts::new(crate::kind::SchemeKind::News, 0, text.len(), false);
            assert_eq!(parse(&p, &mut parts, 0), grouppart(&p, 0), "{shown}");
        }
    }

    /// `plain_article` accepts a text exactly when it holds an `"@"` and
    /// the rules accept it: every article whose host is shorter than a
    /// label may be (`fast::host`), as all of these are.
    #[test]
    fn plain_article_is_the_article_rule() {
        for text in crate::testing::every_text(b"a1.%@*:-", 0..=6) {
            let p = Parser { b: &text, end: text.len(), lenient: None };
            let rules = text.contains(&b'@') && grouppart(&p, 0).is_ok();
            assert_eq!(plain_article(&p, 0), rules, "{:?}", String::from_utf8_lossy(&text));
        }
    }
}
