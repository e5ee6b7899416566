//! §3.3 HTTP: `httpurl = "http://" hostport [ "/" hpath [ "?" search ]]`.
//!
//! `marks[0]` is the offset of the `"?"`, when present. No user name or
//! password is allowed (§3.3).

use crate::chars;
use crate::error::{ParseError, Rule};
use crate::reader::Parser;
use crate::schemepart::{self, LoginRules};
use crate::url::{Parts, UrlRef};

pub(crate) fn parse(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let i = schemepart::ip_schemepart(p, parts, i, LoginRules::HOSTPORT)?;
    let Some(path) = schemepart::opt_path(p, parts, i) else {
        return Ok(());
    };
    let j = p.scan_until(path, chars::HPATH, Rule::Hpath, |c| c == b'?')?;
    if j == p.end {
        return Ok(());
    }
    parts.marks[0] = j as u32;
    p.scan_to_end(j + 1, chars::SEARCH, Rule::Search)
}

/// The http view: `<path>` and `<searchpart>` (§3.3), raw.
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("http://h.com/a/b?x=1")?;
/// let http = url.http().unwrap();
/// assert_eq!((http.path(), http.search()), (Some("a/b"), Some("x=1")));
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Http<'a> {
    url: UrlRef<'a>,
}

impl<'a> Http<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Http<'a> {
        Http { url }
    }

    /// `hpath`, raw; `None` when the URL has no `/` after the host.
    #[must_use]
    pub fn path(&self) -> Option<&'a str> {
        let path = self.url.url_path()?;
        Some(self.search_start().map_or(path, |q| &path[..q - 1]))
    }

    /// `search`, raw, after the `"?"`; `None` when there is no `"?"`.
    #[must_use]
    pub fn search(&self) -> Option<&'a str> {
        let path = self.url.url_path()?;
        self.search_start().map(|q| &path[q..])
    }

    /// The path segments, raw (`/` separates them, §3.3).
    pub fn segments(&self) -> impl Iterator<Item = &'a str> {
        self.path().into_iter().flat_map(|p| p.split('/'))
    }

    /// The request-URI an HTTP client sends: `/`, the path, and `?search`.
    #[must_use]
    pub fn request_target(&self) -> String {
        let mut t = String::from("/");
        t.push_str(self.url.url_path().unwrap_or(""));
        t
    }

    /// Offset of the search within the url-path (just after the `"?"`).
    fn search_start(&self) -> Option<usize> {
        let start = self.url.parts().path?.start();
        self.url.mark(0).map(|q| q + 1 - start)
    }
}
