//! §3.2 FTP: `ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]`.
//!
//! `marks[0]` is the offset of the `";"` of `";type="`, when present.

use crate::chars;
use crate::error::{ErrorKind, ParseError, Rule};
use crate::pct;
use crate::reader::Parser;
use crate::schemepart::{self, LoginRules};
use crate::url::{Parts, UrlRef};
use core::fmt;
use std::borrow::Cow;

pub(crate) fn parse(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let i = schemepart::ip_schemepart(p, parts, i, LoginRules::LOGIN)?;
    match schemepart::opt_path(p, parts, i) {
        Some(path) => fpath_typecode(p, parts, path),
        None => Ok(()),
    }
}

/// `fpath [ ";type=" ftptype ]`. A `";"` is reserved within segments
/// (§3.2.2), so the first one must start the typecode.
fn fpath_typecode(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    let j = p.scan_until(i, chars::FPATH, Rule::Fpath, |c| c == b';')?;
    if j == p.end {
        return Ok(());
    }
    ftptype(p, j)?;
    parts.marks[0] = j as u32;
    Ok(())
}

/// `";type=" ftptype` with `ftptype = "A" | "I" | "D" | "a" | "i" | "d"`,
/// from the `";"` at `semi` to the end.
pub(crate) fn ftptype(p: &Parser<'_>, semi: usize) -> Result<(), ParseError> {
    const TYPE: &[u8] = b";type=";
    if !p.b[semi..p.end].starts_with(TYPE) {
        return Err(ParseError::new(semi, ErrorKind::InvalidTypecode, Rule::Ftptype));
    }
    let t = semi + TYPE.len();
    if t == p.end || !matches!(p.b[t], b'a' | b'i' | b'd' | b'A' | b'I' | b'D') {
        return Err(ParseError::new(t, ErrorKind::InvalidTypecode, Rule::Ftptype));
    }
    p.expect_end(t + 1, Rule::Ftptype)
}

/// The ftp view of a [`Url`](crate::Url) or [`UrlRef`]: the path split as §3.2.2 says.
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("ftp://myname@host.dom/%2Fetc/motd")?;
/// let ftp = url.ftp().unwrap();
/// assert_eq!(ftp.cwd().collect::<Vec<_>>(), ["%2Fetc"]);
/// assert_eq!(ftp.name(), "motd");
/// let plan: Vec<String> = ftp.commands().iter().map(|c| c.to_string()).collect();
/// assert_eq!(plan, ["CWD /etc", "RETR motd"]);
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Ftp<'a> {
    url: UrlRef<'a>,
}

impl<'a> Ftp<'a> {
    pub(crate) fn new(url: UrlRef<'a>) -> Ftp<'a> {
        Ftp { url }
    }

    /// `fpath`: the url-path without `";type=X"`, raw.
    #[must_use]
    pub fn fpath(&self) -> &'a str {
        let path = self.url.url_path().unwrap_or("");
        match self.url.mark(0) {
            Some(semi) => &path[..semi - self.url.parts().path.map_or(0, |s| s.start())],
            None => path,
        }
    }

    /// The `<cwd1>` ... `<cwdN>` segments, raw. Each may be empty.
    #[must_use]
    pub fn cwd(&self) -> Cwd<'a> {
        let fpath = self.fpath();
        let dirs = fpath.rfind('/').map(|slash| &fpath[..slash]);
        Cwd { rest: dirs }
    }

    /// The `<name>`: the last segment, raw; may be empty.
    #[must_use]
    pub fn name(&self) -> &'a str {
        let fpath = self.fpath();
        fpath.rfind('/').map_or(fpath, |slash| &fpath[slash + 1..])
    }

    /// The typecode, lower-cased (`b'a'`, `b'i'` or `b'd'`), when given.
    #[must_use]
    pub fn typecode(&self) -> Option<u8> {
        self.url.mark(0).map(|semi| self.url.as_str().as_bytes()[semi + 6].to_ascii_lowercase())
    }

    /// The login of §3.2.1: the URL's user and password, or the anonymous
    /// convention when no user is given.
    #[must_use]
    pub fn login(&self) -> FtpLogin<'a> {
        match self.url.user() {
            None => FtpLogin::Anonymous,
            Some(user) => {
                FtpLogin::User { user: pct::decode(user), password: self.url.password().map(pct::decode) }
            }
        }
    }

    /// The commands of §3.2.2 after login: one `CWD` per cwd segment
    /// (decoded, so `%2F` stays inside one argument), then `NLST name` for
    /// typecode `d`, otherwise `TYPE X` (when a typecode is given) and
    /// `RETR name`.
    ///
    /// When the name is empty and no typecode is given there is no file to
    /// retrieve; §3.2.3 leaves the choice to the client, and this plan lists
    /// the directory (`NLST`), as a client does for `ftp://host/dir/`.
    #[must_use]
    pub fn commands(&self) -> Vec<FtpCommand<'a>> {
        let mut out: Vec<FtpCommand<'a>> = self.cwd().map(|seg| FtpCommand::new("CWD", seg)).collect();
        let name = self.name();
        match self.typecode() {
            Some(b'd') => out.push(FtpCommand::new("NLST", name)),
            Some(t) => {
                let code = if t == b'a' { "A" } else { "I" };
                out.push(FtpCommand { verb: "TYPE", arg: Cow::Borrowed(code.as_bytes()) });
                out.push(FtpCommand::new("RETR", name));
            }
            None if name.is_empty() => out.push(FtpCommand::new("NLST", name)),
            None => out.push(FtpCommand::new("RETR", name)),
        }
        out
    }
}

/// The iterator of [`Ftp::cwd`].
#[derive(Clone, Debug)]
pub struct Cwd<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for Cwd<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.find('/') {
            Some(slash) => {
                self.rest = Some(&rest[slash + 1..]);
                Some(&rest[..slash])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// How a client logs in (§3.2.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FtpLogin<'a> {
    /// No user in the URL: `USER anonymous`, and the end user's e-mail
    /// address as password if the server asks for one.
    Anonymous,
    /// The URL's user (decoded) and password, if any; with none, the client
    /// asks the end user for one if the server requests it.
    User {
        /// The user name, decoded; may be empty (§3.1).
        user: Cow<'a, [u8]>,
        /// The password, decoded; `None` when absent.
        password: Option<Cow<'a, [u8]>>,
    },
}

/// One FTP command of the plan: a verb and its decoded argument octets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FtpCommand<'a> {
    /// `CWD`, `TYPE`, `RETR` or `NLST`.
    pub verb: &'static str,
    /// The argument, decoded; may be empty (`CWD ` with a null argument).
    pub arg: Cow<'a, [u8]>,
}

impl<'a> FtpCommand<'a> {
    fn new(verb: &'static str, raw: &'a str) -> FtpCommand<'a> {
        FtpCommand { verb, arg: pct::decode(raw) }
    }

    /// The command line as sent, without CR LF: `CWD` always carries its
    /// (possibly null) argument after a space (§3.2.2 "CWD " with a null
    /// argument); other verbs drop the space when the argument is empty.
    #[must_use]
    pub fn line(&self) -> Vec<u8> {
        let mut line = self.verb.as_bytes().to_vec();
        if !self.arg.is_empty() || self.verb == "CWD" {
            line.push(b' ');
            line.extend_from_slice(&self.arg);
        }
        line
    }
}

impl fmt::Display for FtpCommand<'_> {
    /// The line, with U+FFFD for octets that are not UTF-8.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.line()))
    }
}
