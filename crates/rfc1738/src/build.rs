//! Building URLs from parts: one builder per scheme of §3.
//!
//! A builder takes decoded values (octets, or text) and writes the escapes
//! each part needs (§2.2: "If the character corresponding to an octet is
//! reserved in a scheme, the octet must be encoded"): `:`, `@` and `/` in a
//! user name, `/` and `;` in an ftp segment, and so on, following the
//! contexts of [`pct::Context`]. What it writes parses back to the parts it
//! was given. A value that no URL can carry is a [`BuildError`] naming the
//! part, never a silently changed URL.
//!
//! # Examples
//! ```
//! use rfc1738::build::FtpBuilder;
//! let url = FtpBuilder::new("ftp.example")
//!     .user("me@home")
//!     .cwd("/etc")
//!     .name("motd;1")
//!     .typecode(b'a')
//!     .build()?;
//! assert_eq!(url.as_str(), "ftp://me%40home@ftp.example/%2Fetc/motd%3B1;type=a");
//! let plan: Vec<String> = url.ftp().unwrap().commands().iter().map(ToString::to_string).collect();
//! assert_eq!(plan, ["CWD /etc", "TYPE A", "RETR motd;1"]);
//! # Ok::<(), rfc1738::build::BuildError>(())
//! ```

use crate::chars;
use crate::error::{ErrorKind, ParseError, Rule};
use crate::host;
use crate::kind::SchemeKind;
use crate::pct::{self, Context};
use crate::url::Url;
use core::fmt;

/// Why a builder could not write a URL, and which part is at fault.
///
/// # Examples
/// ```
/// use rfc1738::build::{BuildErrorKind, GopherBuilder};
/// let e = GopherBuilder::new("h.example").selector("a\tb").build().unwrap_err();
/// assert_eq!(e.part(), rfc1738::Rule::Selector);
/// assert_eq!(e.kind(), BuildErrorKind::Octet(b'\t'));
/// assert_eq!(e.to_string(), "cannot build the selector: it cannot carry the octet 0x09");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BuildError {
    part: Rule,
    kind: BuildErrorKind,
}

/// What is wrong with the part a [`BuildError`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BuildErrorKind {
    /// The value does not match the part's rule (a host that is neither a
    /// hostname nor a hostnumber, a news group that does not start with a
    /// letter, an address that is not an RFC 822 addr-spec...).
    Invalid(ErrorKind),
    /// An octet the part cannot carry, even encoded: TAB, CR or LF in a
    /// gopher selector (§3.4.1), TAB in a gopher search (it would end it).
    Octet(u8),
    /// The part needs another one that was not given (a password needs a
    /// user name, a gopher+ string a search, a news article a host).
    Requires(Rule),
    /// The scheme has no such part (a user name in an http URL, §3.3).
    NotAllowed,
}

impl BuildError {
    const fn new(part: Rule, kind: BuildErrorKind) -> BuildError {
        BuildError { part, kind }
    }

    fn from_parse(e: ParseError) -> BuildError {
        let kind = if e.kind() == ErrorKind::UserNotAllowed {
            BuildErrorKind::NotAllowed
        } else {
            BuildErrorKind::Invalid(e.kind())
        };
        let part = if e.kind() == ErrorKind::UserNotAllowed { Rule::User } else { e.rule() };
        BuildError::new(part, kind)
    }

    /// The part (the §5 rule) that could not be written.
    #[must_use]
    pub const fn part(&self) -> Rule {
        self.part
    }

    /// What is wrong with it.
    #[must_use]
    pub const fn kind(&self) -> BuildErrorKind {
        self.kind
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot build the {}: ", self.part)?;
        match self.kind {
            BuildErrorKind::Invalid(kind) => write!(f, "{kind}"),
            BuildErrorKind::Octet(b) => write!(f, "it cannot carry the octet 0x{b:02X}"),
            BuildErrorKind::Requires(rule) => write!(f, "it needs a {rule}"),
            BuildErrorKind::NotAllowed => write!(f, "this scheme has none"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Parses what a builder wrote: the last check, which also gives the `Url`.
fn finish(text: &str) -> Result<Url, BuildError> {
    Url::parse(text).map_err(BuildError::from_parse)
}

/// Checks a host: a `hostname` or a `hostnumber` (§3.1).
fn check_host(host: &str) -> Result<(), BuildError> {
    host::check(host).map_err(|e| BuildError::new(Rule::Host, BuildErrorKind::Invalid(e.kind())))
}

/// Fails with [`BuildErrorKind::Octet`] when `value` holds one of `octets`.
fn forbid(value: &[u8], octets: &[u8], part: Rule) -> Result<(), BuildError> {
    match value.iter().find(|b| octets.contains(b)) {
        Some(&b) => Err(BuildError::new(part, BuildErrorKind::Octet(b))),
        None => Ok(()),
    }
}

/// `[ user [ ":" password ] "@" ] host [ ":" port ]`, shared by the builders.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Login {
    user: Option<Vec<u8>>,
    password: Option<Vec<u8>>,
    host: String,
    port: Option<u16>,
}

impl Login {
    fn new(host: &str) -> Login {
        Login { host: host.to_owned(), ..Login::default() }
    }

    /// Writes `scheme://login`, checking the host.
    fn write(&self, scheme: &str, out: &mut String) -> Result<(), BuildError> {
        out.push_str(scheme);
        out.push_str("://");
        match (&self.user, &self.password) {
            (None, Some(_)) => {
                return Err(BuildError::new(Rule::Password, BuildErrorKind::Requires(Rule::User)))
            }
            (Some(user), password) => {
                // §3.1: ":", "@" and "/" must be encoded in a user or password.
                out.push_str(&pct::encode(user, Context::User));
                if let Some(pw) = password {
                    out.push(':');
                    out.push_str(&pct::encode(pw, Context::User));
                }
                out.push('@');
            }
            (None, None) => {}
        }
        check_host(&self.host)?;
        out.push_str(&self.host);
        if let Some(port) = self.port {
            out.push(':');
            out.push_str(&port.to_string());
        }
        Ok(())
    }
}

macro_rules! login_setters {
    (user) => {
        /// The user name, decoded; `:`, `@` and `/` get encoded (§3.1).
        #[must_use]
        pub fn user(mut self, user: impl AsRef<[u8]>) -> Self {
            self.login.user = Some(user.as_ref().to_vec());
            self
        }
        /// The password, decoded; it needs a user name (§3.1).
        #[must_use]
        pub fn password(mut self, password: impl AsRef<[u8]>) -> Self {
            self.login.password = Some(password.as_ref().to_vec());
            self
        }
    };
    (port) => {
        /// The port; none means the scheme's default.
        #[must_use]
        pub fn port(mut self, port: u16) -> Self {
            self.login.port = Some(port);
            self
        }
    };
}

/// Builds ftp URLs (§3.2): `ftp://user:password@host:port/cwd1/.../name;type=X`.
///
/// # Examples
/// ```
/// use rfc1738::build::FtpBuilder;
/// let url = FtpBuilder::new("h.example").cwd("pub").cwd("a/b").name("x y").build()?;
/// assert_eq!(url.as_str(), "ftp://h.example/pub/a%2Fb/x%20y");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FtpBuilder {
    login: Login,
    cwd: Vec<Vec<u8>>,
    name: Vec<u8>,
    typecode: Option<u8>,
}

impl FtpBuilder {
    /// An ftp URL for `host`, with no path.
    #[must_use]
    pub fn new(host: &str) -> FtpBuilder {
        FtpBuilder { login: Login::new(host), cwd: Vec::new(), name: Vec::new(), typecode: None }
    }
    login_setters!(user);
    login_setters!(port);

    /// Adds a directory to change to (one `CWD`, §3.2.2), decoded; `/` and
    /// `;` get encoded. An empty one is a `CWD` with no argument.
    #[must_use]
    pub fn cwd(mut self, segment: impl AsRef<[u8]>) -> FtpBuilder {
        self.cwd.push(segment.as_ref().to_vec());
        self
    }

    /// The file name, decoded; `/` and `;` get encoded.
    #[must_use]
    pub fn name(mut self, name: impl AsRef<[u8]>) -> FtpBuilder {
        self.name = name.as_ref().to_vec();
        self
    }

    /// The typecode, `a`, `i` or `d` in either case (§3.2.2); written in
    /// lower case.
    #[must_use]
    pub fn typecode(mut self, typecode: u8) -> FtpBuilder {
        self.typecode = Some(typecode);
        self
    }

    /// Writes the URL.
    ///
    /// # Errors
    /// A [`BuildError`] for an invalid host, a password without a user, or
    /// a typecode other than a, i, d.
    pub fn build(&self) -> Result<Url, BuildError> {
        let mut out = String::new();
        self.login.write("ftp", &mut out)?;
        out.push('/');
        for seg in &self.cwd {
            out.push_str(&pct::encode(seg, Context::Fsegment));
            out.push('/');
        }
        out.push_str(&pct::encode(&self.name, Context::Fsegment));
        if let Some(t) = self.typecode {
            let t = t.to_ascii_lowercase();
            if !matches!(t, b'a' | b'i' | b'd') {
                return Err(BuildError::new(
                    Rule::Ftptype,
                    BuildErrorKind::Invalid(ErrorKind::InvalidTypecode),
                ));
            }
            out.push_str(";type=");
            out.push(t as char);
        }
        finish(&out)
    }
}

/// Builds http URLs (§3.3): `http://host:port/path?search`. There is no
/// user name or password in an http URL.
///
/// # Examples
/// ```
/// use rfc1738::build::HttpBuilder;
/// let url = HttpBuilder::new("h.example").segment("a b").segment("c?d").search("q=1/2").build()?;
/// assert_eq!(url.as_str(), "http://h.example/a%20b/c%3Fd?q=1%2F2");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpBuilder {
    /// `http`, or `https` (RFC 2818 §2.4: the same syntax).
    scheme: &'static str,
    login: Login,
    segments: Vec<Vec<u8>>,
    search: Option<Vec<u8>>,
}

impl HttpBuilder {
    /// An http URL for `host`, with no path.
    #[must_use]
    pub fn new(host: &str) -> HttpBuilder {
        HttpBuilder { scheme: "http", login: Login::new(host), segments: Vec::new(), search: None }
    }

    /// An https URL for `host`, with no path: http's syntax (§3.3), as
    /// RFC 2818 §2.4 gives it, and port 443 by default.
    ///
    /// # Examples
    /// ```
    /// let url = rfc1738::build::HttpBuilder::https("h.example").segment("a").build()?;
    /// assert_eq!((url.as_str(), url.effective_port()), ("https://h.example/a", Some(443)));
    /// # Ok::<(), rfc1738::build::BuildError>(())
    /// ```
    #[must_use]
    pub fn https(host: &str) -> HttpBuilder {
        HttpBuilder { scheme: "https", ..HttpBuilder::new(host) }
    }
    login_setters!(port);

    /// Adds a path segment, decoded; `/` and `?` get encoded. With no
    /// segment the URL has no path, or an empty one before a search.
    #[must_use]
    pub fn segment(mut self, segment: impl AsRef<[u8]>) -> HttpBuilder {
        self.segments.push(segment.as_ref().to_vec());
        self
    }

    /// The search, decoded; `/` and `?` get encoded (§3.3).
    #[must_use]
    pub fn search(mut self, search: impl AsRef<[u8]>) -> HttpBuilder {
        self.search = Some(search.as_ref().to_vec());
        self
    }

    /// Writes the URL.
    ///
    /// # Errors
    /// A [`BuildError`] for an invalid host.
    pub fn build(&self) -> Result<Url, BuildError> {
        let mut out = String::new();
        self.login.write(self.scheme, &mut out)?;
        if !self.segments.is_empty() || self.search.is_some() {
            out.push('/');
        }
        let segs: Vec<String> = self.segments.iter().map(|s| pct::encode(s, Context::Hsegment)).collect();
        out.push_str(&segs.join("/"));
        if let Some(search) = &self.search {
            out.push('?');
            out.push_str(&pct::encode(search, Context::Search));
        }
        finish(&out)
    }
}

/// Builds gopher URLs (§3.4):
/// `gopher://host:port/<gophertype><selector>%09<search>%09<gopher+_string>`.
///
/// # Examples
/// ```
/// use rfc1738::build::GopherBuilder;
/// let url = GopherBuilder::new("h.example").gopher_type(b'7').selector("/find").search("a b").build()?;
/// assert_eq!(url.as_str(), "gopher://h.example/7/find%09a%20b");
/// assert_eq!(url.gopher().unwrap().request(), b"/find\ta b\r\n");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GopherBuilder {
    login: Login,
    gopher_type: u8,
    selector: Vec<u8>,
    search: Option<Vec<u8>>,
    plus: Option<Vec<u8>>,
}

impl GopherBuilder {
    /// A gopher URL for `host`: type `1`, empty selector.
    #[must_use]
    pub fn new(host: &str) -> GopherBuilder {
        GopherBuilder {
            login: Login::new(host),
            gopher_type: b'1',
            selector: Vec::new(),
            search: None,
            plus: None,
        }
    }
    login_setters!(port);

    /// The gopher type, one octet (default `1`, a directory).
    #[must_use]
    pub fn gopher_type(mut self, t: u8) -> GopherBuilder {
        self.gopher_type = t;
        self
    }

    /// The selector, decoded. It cannot hold TAB, CR or LF (§3.4.1).
    #[must_use]
    pub fn selector(mut self, selector: impl AsRef<[u8]>) -> GopherBuilder {
        self.selector = selector.as_ref().to_vec();
        self
    }

    /// The search string, decoded (§3.4.2). It cannot hold TAB, which
    /// would end it.
    #[must_use]
    pub fn search(mut self, search: impl AsRef<[u8]>) -> GopherBuilder {
        self.search = Some(search.as_ref().to_vec());
        self
    }

    /// The gopher+ string, decoded (§3.4.3 to §3.4.9); it needs a search,
    /// which may be empty, and may hold any octet.
    #[must_use]
    pub fn plus(mut self, plus: impl AsRef<[u8]>) -> GopherBuilder {
        self.plus = Some(plus.as_ref().to_vec());
        self
    }

    /// Writes the URL.
    ///
    /// # Errors
    /// A [`BuildError`] for an invalid host, TAB, CR or LF in the selector,
    /// TAB in the search, or a gopher+ string without a search.
    pub fn build(&self) -> Result<Url, BuildError> {
        const LINE: &[u8] = b"\t\r\n";
        forbid(&self.selector, LINE, Rule::Selector)?;
        let mut out = String::new();
        self.login.write("gopher", &mut out)?;
        out.push('/');
        let empty = self.selector.is_empty() && self.search.is_none() && self.plus.is_none();
        if !(empty && self.gopher_type == b'1') {
            out.push_str(&pct::encode(&[self.gopher_type], Context::Xchar));
        }
        out.push_str(&pct::encode(&self.selector, Context::Xchar));
        match (&self.search, &self.plus) {
            (None, Some(_)) => {
                return Err(BuildError::new(Rule::GopherPlusString, BuildErrorKind::Requires(Rule::Search)))
            }
            (None, None) => {}
            (Some(search), plus) => {
                // A TAB would end the search; CR and LF are the security
                // checks' business (§6), as in a parsed URL.
                forbid(search, b"\t", Rule::Search)?;
                out.push_str("%09");
                // §3.4.1 reserves nothing in a gopher search, but "/" and
                // "?" there mislead RFC 3986 and WHATWG readers (the
                // `GopherSearchDelimiter` warning): written as escapes,
                // the search means the same to a gopher client (§3.4.2
                // sends it decoded) and to them.
                out.push_str(&pct::encode(search, Context::Search));
                if let Some(plus) = plus {
                    out.push_str("%09");
                    out.push_str(&pct::encode(plus, Context::Xchar));
                }
            }
        }
        finish(&out)
    }
}

/// Builds mailto URLs (§3.5) from an RFC 822 `addr-spec`.
///
/// # Examples
/// ```
/// use rfc1738::build::MailtoBuilder;
/// let url = MailtoBuilder::new("\"j doe\"@example.com").build()?;
/// assert_eq!(url.as_str(), "mailto:%22j%20doe%22@example.com");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailtoBuilder {
    address: Vec<u8>,
}

impl MailtoBuilder {
    /// A mailto URL for `address`, decoded (`local-part@domain`).
    #[must_use]
    pub fn new(address: impl AsRef<[u8]>) -> MailtoBuilder {
        MailtoBuilder { address: address.as_ref().to_vec() }
    }

    /// Writes the URL.
    ///
    /// # Errors
    /// A [`BuildError`] when the address is not one RFC 822 `addr-spec`.
    pub fn build(&self) -> Result<Url, BuildError> {
        finish(&format!("mailto:{}", pct::encode(&self.address, Context::Xchar)))
    }
}

/// Builds news URLs (§3.6): a group, an article, or all groups.
///
/// # Examples
/// ```
/// use rfc1738::build::NewsBuilder;
/// assert_eq!(NewsBuilder::group("comp.lang.c").build()?.as_str(), "news:comp.lang.c");
/// assert_eq!(NewsBuilder::article("a@b@host.example").build()?.as_str(), "news:a%40b@host.example");
/// assert_eq!(NewsBuilder::all().build()?.as_str(), "news:*");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewsBuilder {
    part: NewsPart,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum NewsPart {
    All,
    Group(String),
    Article(Vec<u8>),
}

impl NewsBuilder {
    /// `news:*`, all groups.
    #[must_use]
    pub fn all() -> NewsBuilder {
        NewsBuilder { part: NewsPart::All }
    }

    /// A news group, such as `comp.infosystems.www.misc`.
    #[must_use]
    pub fn group(name: &str) -> NewsBuilder {
        NewsBuilder { part: NewsPart::Group(name.to_owned()) }
    }

    /// An article by message id, decoded and without `<` `>`:
    /// `unique@host`, split at the last `@`.
    #[must_use]
    pub fn article(id: impl AsRef<[u8]>) -> NewsBuilder {
        NewsBuilder { part: NewsPart::Article(id.as_ref().to_vec()) }
    }

    /// Writes the URL.
    ///
    /// # Errors
    /// A [`BuildError`] for a group name that is not
    /// `alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`, or an article id
    /// with no `@host` or an empty unique part.
    pub fn build(&self) -> Result<Url, BuildError> {
        match &self.part {
            NewsPart::All => finish("news:*"),
            NewsPart::Group(g) => {
                check_group(g)?;
                finish(&format!("news:{g}"))
            }
            NewsPart::Article(id) => {
                let at = id
                    .iter()
                    .rposition(|&b| b == b'@')
                    .ok_or(BuildError::new(Rule::Article, BuildErrorKind::Requires(Rule::Host)))?;
                let host = core::str::from_utf8(&id[at + 1..])
                    .map_err(|_| BuildError::new(Rule::Host, BuildErrorKind::Invalid(ErrorKind::NonAscii)))?;
                check_host(host)?;
                finish(&format!("news:{}@{host}", pct::encode(&id[..at], Context::Article)))
            }
        }
    }
}

/// `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`, which
/// allows no escapes.
fn check_group(g: &str) -> Result<(), BuildError> {
    let b = g.as_bytes();
    let ok = b.first().is_some_and(|&c| chars::ALPHA_C.contains(c))
        && b[1..].iter().all(|&c| chars::GROUP_REST.contains(c) || c == b'_');
    if ok {
        Ok(())
    } else {
        Err(BuildError::new(Rule::Group, BuildErrorKind::Invalid(ErrorKind::InvalidGroup)))
    }
}

/// Builds nntp URLs (§3.7): `nntp://host:port/group/article-number`.
///
/// # Examples
/// ```
/// use rfc1738::build::NntpBuilder;
/// let url = NntpBuilder::new("news.example", "comp.lang.c").article(42).build()?;
/// assert_eq!(url.as_str(), "nntp://news.example/comp.lang.c/42");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NntpBuilder {
    login: Login,
    group: String,
    article: Option<u64>,
}

impl NntpBuilder {
    /// An nntp URL for a group on `host`.
    #[must_use]
    pub fn new(host: &str, group: &str) -> NntpBuilder {
        NntpBuilder { login: Login::new(host), group: group.to_owned(), article: None }
    }
    login_setters!(port);

    /// The article number within the group.
    #[must_use]
    pub fn article(mut self, number: u64) -> NntpBuilder {
        self.article = Some(number);
        self
    }

    /// Writes the URL.
    ///
    /// # Errors
    /// A [`BuildError`] for an invalid host or group name.
    pub fn build(&self) -> Result<Url, BuildError> {
        let mut out = String::new();
        self.login.write("nntp", &mut out)?;
        check_group(&self.group)?;
        out.push('/');
        out.push_str(&self.group);
        if let Some(n) = self.article {
            out.push('/');
            out.push_str(&n.to_string());
        }
        finish(&out)
    }
}

/// Builds telnet URLs (§3.8): `telnet://user:password@host:port/`.
///
/// # Examples
/// ```
/// use rfc1738::build::TelnetBuilder;
/// let url = TelnetBuilder::new("bbs.example").user("guest").port(2323).build()?;
/// assert_eq!(url.as_str(), "telnet://guest@bbs.example:2323/");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TelnetBuilder {
    login: Login,
}

impl TelnetBuilder {
    /// A telnet URL for `host`.
    #[must_use]
    pub fn new(host: &str) -> TelnetBuilder {
        TelnetBuilder { login: Login::new(host) }
    }
    login_setters!(user);
    login_setters!(port);

    /// Writes the URL, with the final `/`.
    ///
    /// # Errors
    /// A [`BuildError`] for an invalid host or a password without a user.
    pub fn build(&self) -> Result<Url, BuildError> {
        let mut out = String::new();
        self.login.write("telnet", &mut out)?;
        out.push('/');
        finish(&out)
    }
}

/// Builds wais URLs (§3.9): a database, a search in it, or a document.
///
/// # Examples
/// ```
/// use rfc1738::build::WaisBuilder;
/// let url = WaisBuilder::new("w.example", "db").document("TEXT", "id/1").build()?;
/// assert_eq!(url.as_str(), "wais://w.example/db/TEXT/id%2F1");
/// let url = WaisBuilder::new("w.example", "db").search("x y").build()?;
/// assert_eq!(url.as_str(), "wais://w.example/db?x%20y");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaisBuilder {
    login: Login,
    database: Vec<u8>,
    search: Option<Vec<u8>>,
    document: Option<(Vec<u8>, Vec<u8>)>,
}

impl WaisBuilder {
    /// A wais URL for a database on `host` (`waisdatabase`).
    #[must_use]
    pub fn new(host: &str, database: impl AsRef<[u8]>) -> WaisBuilder {
        WaisBuilder {
            login: Login::new(host),
            database: database.as_ref().to_vec(),
            search: None,
            document: None,
        }
    }
    login_setters!(port);

    /// A search in the database (`waisindex`), decoded.
    #[must_use]
    pub fn search(mut self, search: impl AsRef<[u8]>) -> WaisBuilder {
        self.search = Some(search.as_ref().to_vec());
        self
    }

    /// A document in the database (`waisdoc`): its type and id, decoded.
    #[must_use]
    pub fn document(mut self, wtype: impl AsRef<[u8]>, wpath: impl AsRef<[u8]>) -> WaisBuilder {
        self.document = Some((wtype.as_ref().to_vec(), wpath.as_ref().to_vec()));
        self
    }

    /// Writes the URL.
    ///
    /// # Errors
    /// A [`BuildError`] for an invalid host, or both a search and a
    /// document (§3.9 has no such form).
    pub fn build(&self) -> Result<Url, BuildError> {
        let mut out = String::new();
        self.login.write("wais", &mut out)?;
        out.push('/');
        out.push_str(&pct::encode(&self.database, Context::Uchar));
        match (&self.search, &self.document) {
            (Some(_), Some(_)) => return Err(BuildError::new(Rule::Search, BuildErrorKind::NotAllowed)),
            (Some(search), None) => {
                out.push('?');
                out.push_str(&pct::encode(search, Context::Search));
            }
            (None, Some((wtype, wpath))) => {
                out.push('/');
                out.push_str(&pct::encode(wtype, Context::Uchar));
                out.push('/');
                out.push_str(&pct::encode(wpath, Context::Uchar));
            }
            (None, None) => {}
        }
        finish(&out)
    }
}

/// Builds file URLs (§3.10): `file://host/path`.
///
/// # Examples
/// ```
/// use rfc1738::build::FileBuilder;
/// let url = FileBuilder::new("").path("etc/motd").build()?;
/// assert_eq!(url.as_str(), "file:///etc/motd");
/// let url = FileBuilder::new("vms.host.edu").segment("disk$user").segment("a;b").build()?;
/// assert_eq!(url.as_str(), "file://vms.host.edu/disk$user/a%3Bb");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileBuilder {
    host: String,
    segments: Vec<Vec<u8>>,
}

impl FileBuilder {
    /// A file URL on `host`: empty or `localhost` for the local machine.
    #[must_use]
    pub fn new(host: &str) -> FileBuilder {
        FileBuilder { host: host.to_owned(), segments: Vec::new() }
    }

    /// Adds a path segment, decoded; `/` and `;` get encoded.
    #[must_use]
    pub fn segment(mut self, segment: impl AsRef<[u8]>) -> FileBuilder {
        self.segments.push(segment.as_ref().to_vec());
        self
    }

    /// Adds the segments of `path`, decoded, split at each `/`.
    #[must_use]
    pub fn path(mut self, path: impl AsRef<[u8]>) -> FileBuilder {
        self.segments.extend(path.as_ref().split(|&b| b == b'/').map(<[u8]>::to_vec));
        self
    }

    /// Writes the URL. No segment is the same as one empty segment.
    ///
    /// # Errors
    /// A [`BuildError`] for a host that is not empty, `localhost`, a
    /// hostname or a hostnumber.
    pub fn build(&self) -> Result<Url, BuildError> {
        if !self.host.is_empty() {
            check_host(&self.host)?;
        }
        let segs: Vec<String> = self.segments.iter().map(|s| pct::encode(s, Context::Fsegment)).collect();
        finish(&format!("file://{}/{}", self.host, segs.join("/")))
    }
}

/// Builds prospero URLs (§3.11): `prospero://host:port/hsoname;field=value`.
///
/// # Examples
/// ```
/// use rfc1738::build::ProsperoBuilder;
/// let url = ProsperoBuilder::new("p.example", "/pros/a;b").field("OBJECT-VERSION", "2").build()?;
/// assert_eq!(url.as_str(), "prospero://p.example//pros/a%3Bb;OBJECT-VERSION=2");
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProsperoBuilder {
    login: Login,
    hsoname: Vec<u8>,
    fields: Vec<(Vec<u8>, Vec<u8>)>,
}

impl ProsperoBuilder {
    /// A prospero URL for an object on `host`. The hsoname is decoded; its
    /// `/` stay path separators, `;` and `=` get encoded.
    #[must_use]
    pub fn new(host: &str, hsoname: impl AsRef<[u8]>) -> ProsperoBuilder {
        ProsperoBuilder { login: Login::new(host), hsoname: hsoname.as_ref().to_vec(), fields: Vec::new() }
    }
    login_setters!(port);

    /// Adds a `;name=value` field, both decoded; `;` and `=` get encoded.
    #[must_use]
    pub fn field(mut self, name: impl AsRef<[u8]>, value: impl AsRef<[u8]>) -> ProsperoBuilder {
        self.fields.push((name.as_ref().to_vec(), value.as_ref().to_vec()));
        self
    }

    /// Writes the URL.
    ///
    /// # Errors
    /// A [`BuildError`] for an invalid host.
    pub fn build(&self) -> Result<Url, BuildError> {
        let mut out = String::new();
        self.login.write("prospero", &mut out)?;
        out.push('/');
        let segs: Vec<String> =
            self.hsoname.split(|&b| b == b'/').map(|s| pct::encode(s, Context::Fsegment)).collect();
        out.push_str(&segs.join("/"));
        for (name, value) in &self.fields {
            out.push(';');
            out.push_str(&pct::encode(name, Context::Field));
            out.push('=');
            out.push_str(&pct::encode(value, Context::Field));
        }
        finish(&out)
    }
}

/// Builds a URL of any scheme in the Common Internet Scheme Syntax (§3.1),
/// `scheme://user:password@host:port/url-path`, or with an opaque
/// scheme-specific part (§5 `otherurl`). The url-path and the opaque part
/// are decoded; only what no `xchar` may be (`%`, unsafe, controls,
/// non-ASCII) gets encoded, so reserved characters keep their meaning.
///
/// For the schemes of §3 the scheme's own rules apply: a user name in an
/// http URL is an error, and so is a login in a mailto or news URL.
///
/// # Examples
/// ```
/// use rfc1738::build::{BuildErrorKind, GenericBuilder};
/// let url = GenericBuilder::new("x-radio").host("tuner.example").path("88.5 MHz").build()?;
/// assert_eq!(url.as_str(), "x-radio://tuner.example/88.5%20MHz");
/// let url = GenericBuilder::new("x-note").path("//not/a/host").build()?;
/// assert_eq!((url.as_str(), url.host()), ("x-note:%2F/not/a/host", None));
/// let e = GenericBuilder::new("http").user("me").host("h.example").build().unwrap_err();
/// assert_eq!((e.part(), e.kind()), (rfc1738::Rule::User, BuildErrorKind::NotAllowed));
/// let e = GenericBuilder::new("news").user("u").host("h.example").build().unwrap_err();
/// assert_eq!((e.part(), e.kind()), (rfc1738::Rule::Login, BuildErrorKind::NotAllowed));
/// # Ok::<(), rfc1738::build::BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenericBuilder {
    scheme: String,
    login: Option<Login>,
    path: Option<Vec<u8>>,
}

impl GenericBuilder {
    /// A URL of `scheme`, with nothing after the `:` yet.
    #[must_use]
    pub fn new(scheme: &str) -> GenericBuilder {
        GenericBuilder { scheme: scheme.to_owned(), login: None, path: None }
    }

    fn login(&mut self) -> &mut Login {
        self.login.get_or_insert_with(Login::default)
    }

    /// The host, which makes this a `//` URL (§3.1).
    #[must_use]
    pub fn host(mut self, host: &str) -> GenericBuilder {
        host.clone_into(&mut self.login().host);
        self
    }

    /// The user name, decoded.
    #[must_use]
    pub fn user(mut self, user: impl AsRef<[u8]>) -> GenericBuilder {
        self.login().user = Some(user.as_ref().to_vec());
        self
    }

    /// The password, decoded.
    #[must_use]
    pub fn password(mut self, password: impl AsRef<[u8]>) -> GenericBuilder {
        self.login().password = Some(password.as_ref().to_vec());
        self
    }

    /// The port.
    #[must_use]
    pub fn port(mut self, port: u16) -> GenericBuilder {
        self.login().port = Some(port);
        self
    }

    /// The url-path after the host's `/`, or the whole scheme-specific part
    /// when there is no host; decoded.
    #[must_use]
    pub fn path(mut self, path: impl AsRef<[u8]>) -> GenericBuilder {
        self.path = Some(path.as_ref().to_vec());
        self
    }

    /// Writes the URL.
    ///
    /// # Errors
    /// A [`BuildError`] for an invalid scheme name or host, a part the
    /// scheme does not have, or a text the scheme's grammar rejects.
    pub fn build(&self) -> Result<Url, BuildError> {
        let name = self.scheme.as_bytes();
        if name.is_empty() || !name.iter().all(|&c| chars::SCHEME.contains(c)) {
            return Err(BuildError::new(Rule::Scheme, BuildErrorKind::Invalid(ErrorKind::InvalidChar)));
        }
        let kind = SchemeKind::from_bytes(name);
        let mut out = String::new();
        match &self.login {
            Some(_) if matches!(kind, SchemeKind::Mailto | SchemeKind::News) => {
                // §3.5, §3.6: no `//` login; `news://u@h` would read as a
                // message id, `mailto://u@h` as an address.
                return Err(BuildError::new(Rule::Login, BuildErrorKind::NotAllowed));
            }
            Some(login) => {
                let no_user = matches!(
                    kind,
                    SchemeKind::Http
                        | SchemeKind::Https
                        | SchemeKind::Gopher
                        | SchemeKind::Nntp
                        | SchemeKind::Wais
                        | SchemeKind::Prospero
                        | SchemeKind::File
                );
                if no_user && (login.user.is_some() || login.password.is_some()) {
                    let part = if login.user.is_some() { Rule::User } else { Rule::Password };
                    return Err(BuildError::new(part, BuildErrorKind::NotAllowed));
                }
                login.write(&self.scheme, &mut out)?;
                if let Some(path) = &self.path {
                    out.push('/');
                    out.push_str(&pct::encode(path, Context::Xchar));
                }
            }
            None => {
                out.push_str(&self.scheme);
                out.push(':');
                let path = self.path.as_deref().unwrap_or_default();
                // An opaque part that starts with `//` would be read as a
                // login (§5 tries `ip-schemepart` first): its first `/` is
                // written encoded, which decodes to the same octets.
                let rest = if path.starts_with(b"//") {
                    out.push_str("%2F");
                    &path[1..]
                } else {
                    path
                };
                out.push_str(&pct::encode(rest, Context::Xchar));
            }
        }
        let url = finish(&out)?;
        if self.login.is_some() && !url.has_authority() {
            // Never a login written and read back as something else.
            return Err(BuildError::new(Rule::Login, BuildErrorKind::NotAllowed));
        }
        Ok(url)
    }
}
