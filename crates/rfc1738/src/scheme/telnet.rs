//! §3.8 TELNET: `telneturl = "telnet://" login [ "/" ]`. The user and
//! password are advisory only.

use crate::error::{ParseError, Rule};
use crate::reader::Parser;
use crate::schemepart::{self, LoginRules};
use crate::url::{Parts, UrlRef};

pub(crate) fn parse(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let i = schemepart::ip_schemepart(p, parts, i, LoginRules::LOGIN)?;
    if let Some(path) = schemepart::opt_path(p, parts, i) {
        // "The final "/" character may be omitted": nothing may follow it.
        p.expect_end(path, Rule::Urlpath)?;
    }
    Ok(())
}

/// The telnet view (§3.8): an interactive service, with an advisory user
/// and password (on [`Url::user`](crate::Url::user) and [`Url::password`](crate::Url::password)).
#[derive(Clone, Copy, Debug)]
pub struct Telnet<'a> {
    url: UrlRef<'a>,
}

impl<'a> Telnet<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Telnet<'a> {
        Telnet { url }
    }

    /// The user name to suggest to the end user, raw.
    #[must_use]
    pub fn advisory_user(&self) -> Option<&'a str> {
        self.url.user()
    }

    /// The password to suggest to the end user, raw.
    #[must_use]
    pub fn advisory_password(&self) -> Option<&'a str> {
        self.url.password()
    }
}
