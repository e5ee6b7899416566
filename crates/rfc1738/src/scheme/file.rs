//! §3.10 FILES: `fileurl = "file://" [ host | "localhost" ] "/" fpath`.
//!
//! No user, password or port. An empty host and `localhost` both mean
//! "the machine from which the URL is being interpreted".

use crate::chars;
use crate::error::{ParseError, Rule};
use crate::reader::Parser;
use crate::schemepart::{self, LoginRules};
use crate::url::{Parts, UrlRef};

const RULES: LoginRules = LoginRules { user: false, port: false, empty_host: true };

pub(crate) fn parse(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let i = schemepart::ip_schemepart(p, parts, i, RULES)?;
    let path = schemepart::path(p, parts, i)?;
    p.scan_to_end(path, chars::FPATH, Rule::Fpath)
}

/// The file view (§3.10).
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("file://vms.host.edu/disk$user/my/notes/note12345.txt")?;
/// let f = url.file().unwrap();
/// assert_eq!(f.host(), "vms.host.edu");
/// assert!(!f.is_local());
/// assert!(rfc1738::Url::parse("file:///etc/motd")?.file().unwrap().is_local());
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct File<'a> {
    url: UrlRef<'a>,
}

impl<'a> File<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> File<'a> {
        File { url }
    }

    /// The host, raw; may be empty.
    #[must_use]
    pub fn host(&self) -> &'a str {
        self.url.host().unwrap_or("")
    }

    /// The path, raw, without the `/` after the host.
    #[must_use]
    pub fn path(&self) -> &'a str {
        self.url.url_path().unwrap_or("")
    }

    /// Whether the host is empty or `localhost` (case-insensitive, as host
    /// names are): the machine interpreting the URL.
    #[must_use]
    #[inline(always)]
    pub fn is_local(&self) -> bool {
        let h = self.host();
        h.is_empty() || h.eq_ignore_ascii_case("localhost")
    }

    /// The path segments, raw: `<directory>/.../<name>`.
    pub fn segments(&self) -> impl Iterator<Item = &'a str> {
        self.path().split('/')
    }
}
