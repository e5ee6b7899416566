//! `rfc1738 set URL PART=VALUE...`: a URL with some of its parts changed,
//! written again through the library's builders, so that each value is
//! encoded for its part and the result is an RFC 1738 URL (or an error
//! naming the part).
//!
//! A URL is taken apart into decoded values, one per part of its scheme
//! (the names of `parse --get`: `user`, `host`, `ftp.cwd`, ...); the
//! changes replace some of them; the scheme's builder writes the URL. An
//! empty value removes an optional part (`port=`, `user=`), except where
//! the scheme gives the empty value a meaning of its own: `ftp.name=`,
//! `gopher.selector=`. `user=""` is not expressible this way: give the
//! URL with `@` already (`ftp://@h/`) to keep an empty user.
//!
//! `scheme=NAME` is applied first: the scheme-specific part carries over
//! as written, and must be one of the new scheme (§5), so the login of the
//! Common Internet Scheme Syntax (§3.1) carries between ftp, http, gopher,
//! nntp, telnet, wais, prospero and any other scheme written with `//`,
//! and the url-path where the new scheme reads it (`http://h/a?q` to
//! `https://h/a?q`, `ftp://h/a` to `http://h/a`; not `ftp://h/a;type=i`
//! to http). The other changes then apply to the new URL.
//!
//! A port is `digits` (§5), with no range, as `parse` reads it: a port
//! above 65535 is written, and reported by the security warnings.

use rfc1738::build::{
    BuildError, FileBuilder, FtpBuilder, GenericBuilder, GopherBuilder, HttpBuilder, MailtoBuilder,
    NewsBuilder, NntpBuilder, ProsperoBuilder, TelnetBuilder, WaisBuilder,
};
use rfc1738::{pct, SchemeKind, Url};
use std::collections::BTreeMap;
use std::fmt;

/// Why a URL could not be changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetError {
    /// The part is not one of this URL's scheme (`http.search` on an ftp
    /// URL).
    UnknownPart {
        /// The part named.
        part: String,
        /// The scheme kind of the URL.
        kind: &'static str,
    },
    /// The value of a part that takes a number is not one.
    NotANumber {
        /// The part named.
        part: String,
    },
    /// The builder refused the result: the error names the part.
    Build(BuildError),
    /// The fragment does not fit after the new URL.
    Fragment(rfc1738::ParseError),
    /// The scheme-specific part, kept as written, is not one of the new
    /// scheme (or the name is not a scheme).
    Scheme {
        /// The new scheme name.
        scheme: String,
        /// The error of the URL with the new scheme.
        error: rfc1738::ParseError,
    },
    /// A word of trurl's (`path`, `query`) names no part of this
    /// scheme: which parts it has instead.
    NoSuchWord {
        /// The word given.
        part: String,
        /// The scheme kind of the URL.
        kind: &'static str,
        /// The parts that hold what the word means, in this scheme.
        instead: &'static str,
    },
    /// No URL was given, and the changes lack the part a URL is built
    /// from: `scheme`, or `host` for a scheme written with `//`.
    NoSeed(&'static str),
    /// The port is not `digits`: the error `parse` gives for the same
    /// port, its offset in the value.
    Port {
        /// Byte offset in the value.
        offset: usize,
        /// The kind of error `parse` gives there.
        kind: rfc1738::ErrorKind,
    },
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::UnknownPart { part, kind } => {
                write!(
                    f,
                    "{part}: not a part set can change in this {kind} URL (its parts: {})",
                    parts(kind).join(" ")
                )
            }
            SetError::NotANumber { part } => write!(f, "{part}: the value must be a number"),
            SetError::NoSuchWord { part, kind, instead } => {
                let a = SchemeKind::from_bytes(kind.as_bytes()).article();
                write!(f, "{part}: {a} {kind} URL has no single {part}; {instead}")
            }
            SetError::Build(e) => write!(f, "{e}"),
            SetError::Fragment(e) => write!(f, "fragment: {e}"),
            SetError::NoSeed(part) => {
                write!(f, "{part}: a URL built from parts alone needs a {part} (scheme=http host=a.dom)")
            }
            SetError::Scheme { scheme, error } => {
                write!(f, "scheme: the rest of the URL, as written, is no {scheme} URL: {error}")
            }
            SetError::Port { offset, kind } => {
                write!(f, "port: {} at offset {offset} (in {})", kind.message(), rfc1738::Rule::Port.name())
            }
        }
    }
}

impl std::error::Error for SetError {}

impl SetError {
    /// The error's id, as a diagnostic shows it (`error[unknown-part]`):
    /// the parse's or the builder's kind where one of them refused the
    /// value.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            SetError::UnknownPart { .. } => "unknown-part",
            SetError::NotANumber { .. } => "not-a-number",
            SetError::NoSuchWord { .. } => "no-such-word",
            SetError::NoSeed(_) => "no-seed",
            SetError::Build(e) => match e.kind() {
                rfc1738::build::BuildErrorKind::Invalid(kind) => kind.id(),
                rfc1738::build::BuildErrorKind::Octet(_) => "octet",
                rfc1738::build::BuildErrorKind::Requires(_) => "requires",
                _ => "not-allowed",
            },
            SetError::Fragment(e) | SetError::Scheme { error: e, .. } => e.kind().id(),
            SetError::Port { kind, .. } => kind.id(),
        }
    }

    /// Where in the value the fault is, when it is known (a port's first
    /// byte that is not a digit).
    #[must_use]
    pub fn offset(&self) -> Option<usize> {
        match self {
            SetError::Port { offset, .. } => Some(*offset),
            _ => None,
        }
    }

    /// Whether the part's name, not its value, is at fault.
    #[must_use]
    pub fn is_about_the_name(&self) -> bool {
        matches!(self, SetError::UnknownPart { .. } | SetError::NoSuchWord { .. })
    }

    /// The message without the offset a diagnostic shows as a column.
    #[must_use]
    pub fn message(&self) -> String {
        match self {
            SetError::Port { kind, .. } => format!("port: {}", kind.message()),
            SetError::Fragment(e) => format!("fragment: {}", e.kind().message()),
            SetError::Scheme { scheme, error } => format!(
                "scheme: the rest of the URL, as written, is no {scheme} URL: its {}: {}",
                error.rule().name(),
                error.kind().message()
            ),
            _ => self.to_string(),
        }
    }

    /// The part the error is about: a part name of `set` (`port`,
    /// `scheme`, `fragment`), or for a value the builder refused, the §5
    /// rule it names (`host`, `fpath`).
    #[must_use]
    pub fn part(&self) -> &str {
        match self {
            SetError::UnknownPart { part, .. }
            | SetError::NotANumber { part }
            | SetError::NoSuchWord { part, .. } => part,
            SetError::Build(e) => e.part().name(),
            SetError::Fragment(_) => "fragment",
            SetError::NoSeed(part) => part,
            SetError::Scheme { .. } => "scheme",
            SetError::Port { .. } => "port",
        }
    }
}

/// The parts `set` changes in a URL of kind `kind` (a [`SchemeKind::name`]).
#[must_use]
pub fn parts(kind: &str) -> Vec<&'static str> {
    let own: &[&str] = match kind {
        "ftp" => &["user", "password", "host", "port", "ftp.cwd", "ftp.name", "ftp.typecode"],
        "http" | "https" => &["host", "port", "http.path", "http.search"],
        "gopher" => &["host", "port", "gopher.type", "gopher.selector", "gopher.search", "gopher.plus"],
        "mailto" => &["mailto.address"],
        "news" => &["news.group", "news.article"],
        "nntp" => &["host", "port", "nntp.group", "nntp.article"],
        "telnet" => &["user", "password", "host", "port"],
        "wais" => &["host", "port", "wais.database", "wais.search", "wais.wtype", "wais.wpath"],
        "file" => &["host", "file.path"],
        "prospero" => &["host", "port", "prospero.hsoname"],
        _ => &["user", "password", "host", "port", "url_path"],
    };
    own.to_vec()
}

/// The parts `set` changes in `url`: those of its kind, `scheme` and
/// `fragment`. An
/// opaque URL of a scheme §3 does not define (`x-other:text`, §5 `*xchar`)
/// has no login or url-path, only its scheme-specific part.
#[must_use]
pub fn parts_of(url: &Url) -> Vec<&'static str> {
    let mut own = if url.kind() == SchemeKind::Other && !url.has_authority() {
        vec![OPAQUE]
    } else {
        parts(url.kind().name())
    };
    own.insert(0, "scheme");
    own.push("fragment");
    own
}

/// The part of an opaque URL: its scheme-specific part.
const OPAQUE: &str = "other.scheme_specific_part";

/// Whether a URL of some scheme has `part` for `set` to change: a name
/// that none has is a mistake of the command line, not of a URL.
#[must_use]
pub fn is_part(part: &str) -> bool {
    WORDS.contains(&part)
        || part == "scheme"
        || part == OPAQUE
        || ["ftp", "http", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero", "other"]
            .iter()
            .any(|kind| parts(kind).contains(&part))
}

/// trurl's words for parts, taken where a scheme has the part they mean:
/// `path`, `query`, `fragment` (see [`meant`]).
pub const WORDS: [&str; 3] = ["path", "query", "fragment"];

/// The part a word of trurl's means in a URL of `kind`, or why it means
/// none: `path` is http's `hpath` (§3.3), file's path (§3.10), and the
/// url-path of the other `//` schemes (§3.1) but ftp's, gopher's and
/// wais's, which split it into parts of their own; `query` is the search
/// of http (§3.3), gopher (§3.4) and wais (§3.5).
///
/// # Errors
///
/// [`SetError::NoSuchWord`], which names the parts to use instead.
pub fn meant(word: &str, url: &Url) -> Result<&'static str, SetError> {
    let kind = url.kind().name();
    let none = |instead| Err(SetError::NoSuchWord { part: word.to_owned(), kind, instead });
    match (word, url.kind()) {
        ("path", SchemeKind::Http) => Ok("http.path"),
        ("path", SchemeKind::File) => Ok("file.path"),
        ("path", SchemeKind::Ftp) => none("its path is ftp.cwd (the directories) and ftp.name (§3.2.2)"),
        ("path", SchemeKind::Gopher) => none("its path is gopher.type and gopher.selector (§3.4)"),
        ("path", SchemeKind::Wais) => none("its path is wais.database and wais.wtype, wais.wpath (§3.5)"),
        ("path", SchemeKind::Nntp) => none("its path is nntp.group and nntp.article (§3.7)"),
        ("path", SchemeKind::Prospero) => none("its path is prospero.hsoname (§3.11)"),
        ("path", SchemeKind::Mailto | SchemeKind::News | SchemeKind::Telnet) => {
            none("a path is a part of http, file and other // URLs")
        }
        ("path", _) if url.has_authority() => Ok("url_path"),
        ("path", _) => none("an opaque URL has other.scheme_specific_part alone"),
        ("query", SchemeKind::Http) => Ok("http.search"),
        ("query", SchemeKind::Gopher) => Ok("gopher.search"),
        ("query", SchemeKind::Wais) => Ok("wais.search"),
        ("query", _) => none("a search (`?`) is a part of http, gopher and wais URLs alone"),
        _ => Err(SetError::UnknownPart { part: word.to_owned(), kind }),
    }
}

/// The decoded value of each part of `url` that it has.
fn values(url: &Url) -> BTreeMap<&'static str, Vec<u8>> {
    let d = |s: &str| pct::decode(s).into_owned();
    let mut v = BTreeMap::new();
    let mut put = |k: &'static str, value: Option<Vec<u8>>| {
        if let Some(value) = value {
            v.insert(k, value);
        }
    };
    put("user", url.user().map(d));
    put("password", url.password().map(d));
    put("host", url.host().map(|h| h.as_bytes().to_vec()));
    // The port as written (§5 `port = digits`, no range): a number would
    // lose one of more digits than a u64 holds. An empty one is none.
    put("port", url.port_str().filter(|p| !p.is_empty()).map(|p| p.as_bytes().to_vec()));
    match url.kind() {
        SchemeKind::Ftp => {
            let f = url.ftp().expect("kind is ftp");
            put("ftp.cwd", Some(f.cwd().map(&d).collect::<Vec<_>>().join(&b'/')));
            put("ftp.name", Some(d(f.name())));
            put("ftp.typecode", f.typecode().map(|t| vec![t]));
        }
        SchemeKind::Http | SchemeKind::Https => {
            let h = url.http().expect("kind is http");
            put("http.path", h.path().map(d));
            put("http.search", h.search().map(d));
        }
        SchemeKind::Gopher => {
            let g = url.gopher().expect("kind is gopher");
            put("gopher.type", Some(vec![g.gopher_type()]));
            put("gopher.selector", Some(d(g.selector())));
            put("gopher.search", g.search().map(d));
            put("gopher.plus", g.plus().map(d));
        }
        SchemeKind::Mailto => put("mailto.address", Some(url.mailto().expect("kind").address().into_owned())),
        SchemeKind::News => {
            let n = url.news().expect("kind is news");
            put("news.group", n.group().map(d));
            put("news.article", n.article().map(d));
        }
        SchemeKind::Nntp => {
            let n = url.nntp().expect("kind is nntp");
            put("nntp.group", Some(d(n.group())));
            put("nntp.article", n.article_raw().map(d));
        }
        SchemeKind::Wais => {
            let w = url.wais().expect("kind is wais");
            put("wais.database", Some(d(w.database())));
            put("wais.search", w.search().map(d));
            put("wais.wtype", w.wtype().map(d));
            put("wais.wpath", w.wpath().map(d));
        }
        SchemeKind::File => {
            let f = url.file().expect("kind is file");
            put("host", Some(f.host().as_bytes().to_vec()));
            put("file.path", Some(d(f.path())));
        }
        SchemeKind::Prospero => {
            put("prospero.hsoname", Some(url.prospero().expect("kind").hsoname().into_owned()));
        }
        SchemeKind::Telnet => {}
        SchemeKind::Other if !url.has_authority() => put(OPAQUE, Some(d(url.scheme_specific_part()))),
        SchemeKind::Other => put("url_path", url.url_path().map(d)),
    }
    v
}

/// `url` with the parts in `changes` replaced by their values (decoded
/// text, encoded here for their part); an empty value removes an optional
/// part. Prospero fields are kept as they are, and so is the fragment
/// unless `fragment` is among the changes.
///
/// # Errors
///
/// A [`SetError`]: a part the scheme does not have, a port or article that
/// is not a number, or a value the builder refuses (the error names the part).
pub fn set(url: &Url, changes: &[(&str, &[u8])]) -> Result<Url, SetError> {
    let renamed;
    let url = match changes.iter().rev().find(|(p, _)| *p == "scheme") {
        Some((_, name)) => {
            renamed = with_scheme(url, name)?;
            &renamed
        }
        None => url,
    };
    // §2.2: the fragment is no part of the URL; it follows it as it was,
    // or as given (encoded as an `xchar` run, `#` and the unsafe escaped).
    let fragment = match changes.iter().rev().find(|(p, _)| *p == "fragment") {
        Some((_, [])) => None,
        Some((_, v)) => Some(pct::encode(v, pct::Context::Xchar)),
        None => url.fragment().map(str::to_owned),
    };
    let mut changes: Vec<(&str, &[u8])> =
        changes.iter().copied().filter(|(p, _)| *p != "scheme" && *p != "fragment").collect();
    for change in &mut changes {
        if change.0 == "path" || change.0 == "query" {
            change.0 = meant(change.0, url)?;
        }
    }
    if changes.is_empty() {
        return with_fragment(url.as_str(), fragment.as_deref());
    }
    let kind = url.kind().name();
    let allowed = parts_of(url);
    let mut v = values(url);
    for &(part, value) in &changes {
        let Some(&key) = allowed.iter().find(|&&p| p == part) else {
            return Err(SetError::UnknownPart { part: part.to_owned(), kind });
        };
        v.insert(key, value.to_vec());
    }
    // A removed optional part: an empty value, except where the empty
    // value is the part (an ftp name, a gopher selector, an ftp cwd).
    let keeps_empty =
        ["ftp.name", "ftp.cwd", "gopher.selector", "mailto.address", "wais.database", "nntp.group"];
    v.retain(|k, value| !value.is_empty() || keeps_empty.contains(k) || !changes.iter().any(|(p, _)| p == k));
    let built = with_port(build(url, &v)?, &v)?;
    with_fragment(built.as_str(), fragment.as_deref())
}

/// The URL `text` (with its fragment, if any, cut) and `fragment` after it.
fn with_fragment(text: &str, fragment: Option<&str>) -> Result<Url, SetError> {
    let bare = text.split_once('#').map_or(text, |(u, _)| u);
    match fragment {
        Some(f) => Url::parse(&format!("{bare}#{f}")).map_err(SetError::Fragment),
        None => Url::parse(bare).map_err(SetError::Fragment),
    }
}

/// A URL made from parts alone (`scheme=http host=a.dom`, as trurl
/// builds one with no URL given): a seed of the scheme holding the part
/// that names what it locates (`host`, or for an opaque scheme its
/// address or group), then [`set`] with every change.
///
/// # Errors
///
/// [`SetError::NoSeed`] when `scheme` or that part is missing; else what
/// [`set`] says.
pub fn build_from(changes: &[(&str, &[u8])]) -> Result<Url, SetError> {
    let last = |name: &str| changes.iter().rev().find(|(p, _)| *p == name).map(|(_, v)| *v);
    let Some(scheme) = last("scheme").filter(|s| !s.is_empty()) else {
        return Err(SetError::NoSeed("scheme"));
    };
    let scheme = String::from_utf8_lossy(scheme).to_ascii_lowercase();
    // Each seed is the least URL of its scheme (§3), its parts replaced
    // by the changes.
    let seed = match SchemeKind::from_bytes(scheme.as_bytes()) {
        SchemeKind::Mailto if last("mailto.address").is_none() => {
            return Err(SetError::NoSeed("mailto.address"))
        }
        SchemeKind::Mailto => format!("{scheme}:a@b"),
        SchemeKind::News if last("news.group").or(last("news.article")).is_none() => {
            return Err(SetError::NoSeed("news.group"))
        }
        SchemeKind::News => format!("{scheme}:a"),
        SchemeKind::File => format!("{scheme}:///"),
        SchemeKind::Other if last(OPAQUE).is_some() => format!("{scheme}:a"),
        _ if last("host").is_none() => return Err(SetError::NoSeed("host")),
        SchemeKind::Nntp => format!("{scheme}://a/a"),
        SchemeKind::Wais => format!("{scheme}://a/a"),
        SchemeKind::Prospero => format!("{scheme}://a/a"),
        _ => format!("{scheme}://a/"),
    };
    let seed = Url::parse(&seed).map_err(|error| SetError::Scheme { scheme: scheme.clone(), error })?;
    let changes: Vec<(&str, &[u8])> = changes.iter().copied().filter(|(p, _)| *p != "scheme").collect();
    set(&seed, &changes)
}

/// `url` under the scheme `name`, its scheme-specific part and fragment
/// as written.
fn with_scheme(url: &Url, name: &[u8]) -> Result<Url, SetError> {
    let name = String::from_utf8_lossy(name).into_owned();
    let rest = &url.as_str()[url.scheme().len()..];
    Url::parse(&format!("{name}{rest}")).map_err(|error| SetError::Scheme { scheme: name, error })
}

/// The port of `v` read as `parse` reads it (§5 `port = digits`): a
/// number that fits 16 bits, or `None` for a larger one (written by
/// [`with_port`]).
///
/// # Errors
///
/// [`SetError::Port`], the error of `parse` for the same port.
fn port_of(v: &BTreeMap<&str, Vec<u8>>) -> Result<Option<u16>, SetError> {
    let Some(digits) = v.get("port") else { return Ok(None) };
    if let Some(k) = digits.iter().position(|c| !c.is_ascii_digit()) {
        // What `parse` says of this port: the URL `telnet://h:PORT` read
        // up to the byte; a byte that ends a port there (`/`, `#`) is one
        // no port holds either.
        let head = b"telnet://h:";
        let probe = [&head[..], &digits[..=k]].concat();
        let (offset, kind) = match Url::parse(&String::from_utf8_lossy(&probe)) {
            Err(e) if e.rule() == rfc1738::Rule::Port && e.offset() >= head.len() => {
                (e.offset() - head.len(), e.kind())
            }
            _ => (k, rfc1738::ErrorKind::InvalidChar),
        };
        return Err(SetError::Port { offset, kind });
    }
    // Above 65535: a stand-in for the builder, replaced by `with_port`.
    Ok(Some(String::from_utf8_lossy(digits).parse::<u16>().unwrap_or(1)))
}

/// `built` with the port of `v` written as given when it is above 65535
/// (the builders take a `u16`; [`port_of`] gave them a stand-in).
fn with_port(built: Url, v: &BTreeMap<&str, Vec<u8>>) -> Result<Url, SetError> {
    let Some(digits) = v.get("port") else { return Ok(built) };
    if String::from_utf8_lossy(digits).parse::<u16>().is_ok() {
        return Ok(built);
    }
    let Some(port) = built.port_str() else { return Ok(built) };
    let s = built.as_str();
    let at = port.as_ptr() as usize - s.as_ptr() as usize;
    let text = format!("{}{}{}", &s[..at], String::from_utf8_lossy(digits), &s[at + port.len()..]);
    Url::parse(&text).map_err(SetError::Fragment)
}

fn text(v: &BTreeMap<&str, Vec<u8>>, k: &str) -> Option<String> {
    v.get(k).map(|b| String::from_utf8_lossy(b).into_owned())
}

fn number<T: std::str::FromStr>(v: &BTreeMap<&str, Vec<u8>>, k: &str) -> Result<Option<T>, SetError> {
    match text(v, k) {
        None => Ok(None),
        Some(t) => t.parse().map(Some).map_err(|_| SetError::NotANumber { part: k.to_owned() }),
    }
}

/// Sets the login parts a builder has.
macro_rules! login {
    ($b:expr, $v:expr, user) => {{
        let mut b = $b;
        if let Some(u) = $v.get("user") {
            b = b.user(u);
        }
        if let Some(p) = $v.get("password") {
            b = b.password(p);
        }
        login!(b, $v, port)
    }};
    ($b:expr, $v:expr, port) => {{
        let mut b = $b;
        if let Some(port) = port_of($v)? {
            b = b.port(port);
        }
        b
    }};
}

fn build(url: &Url, v: &BTreeMap<&str, Vec<u8>>) -> Result<Url, SetError> {
    let host = text(v, "host").unwrap_or_default();
    let get = |k: &str| v.get(k).cloned();
    let result = match url.kind() {
        SchemeKind::Ftp => {
            let mut b = login!(FtpBuilder::new(&host), v, user);
            let cwd = get("ftp.cwd").unwrap_or_default();
            if !cwd.is_empty() {
                for seg in cwd.split(|&c| c == b'/') {
                    b = b.cwd(seg);
                }
            }
            b = b.name(get("ftp.name").unwrap_or_default());
            if let Some(t) = get("ftp.typecode") {
                b = b.typecode(t.first().copied().unwrap_or(b' '));
            }
            b.build()
        }
        kind @ (SchemeKind::Http | SchemeKind::Https) => {
            let new = if kind == SchemeKind::Https { HttpBuilder::https } else { HttpBuilder::new };
            let mut b = login!(new(&host), v, port);
            if let Some(path) = get("http.path") {
                for seg in path.split(|&c| c == b'/') {
                    b = b.segment(seg);
                }
            }
            if let Some(s) = get("http.search") {
                b = b.search(s);
            }
            b.build()
        }
        SchemeKind::Gopher => {
            let mut b = login!(GopherBuilder::new(&host), v, port);
            if let Some(t) = get("gopher.type") {
                b = b.gopher_type(t.first().copied().unwrap_or(b'1'));
            }
            b = b.selector(get("gopher.selector").unwrap_or_default());
            if let Some(s) = get("gopher.search") {
                b = b.search(s);
            }
            if let Some(p) = get("gopher.plus") {
                b = b.plus(p);
            }
            b.build()
        }
        SchemeKind::Mailto => MailtoBuilder::new(get("mailto.address").unwrap_or_default()).build(),
        SchemeKind::News => match (text(v, "news.group"), get("news.article")) {
            (_, Some(a)) => NewsBuilder::article(a).build(),
            (Some(g), None) if g == "*" => NewsBuilder::all().build(),
            (Some(g), None) => NewsBuilder::group(&g).build(),
            (None, None) => NewsBuilder::group("").build(),
        },
        SchemeKind::Nntp => {
            let group = text(v, "nntp.group").unwrap_or_default();
            let mut b = login!(NntpBuilder::new(&host, &group), v, port);
            if let Some(n) = number::<u64>(v, "nntp.article")? {
                b = b.article(n);
            }
            b.build()
        }
        SchemeKind::Telnet => login!(TelnetBuilder::new(&host), v, user).build(),
        SchemeKind::Wais => {
            let mut b = login!(WaisBuilder::new(&host, get("wais.database").unwrap_or_default()), v, port);
            if let Some(s) = get("wais.search") {
                b = b.search(s);
            }
            if let (Some(t), Some(p)) = (get("wais.wtype"), get("wais.wpath")) {
                b = b.document(t, p);
            }
            b.build()
        }
        SchemeKind::File => FileBuilder::new(&host).path(get("file.path").unwrap_or_default()).build(),
        SchemeKind::Prospero => {
            let hsoname = get("prospero.hsoname").unwrap_or_default();
            let mut b = login!(ProsperoBuilder::new(&host, hsoname), v, port);
            let p = url.prospero().expect("kind is prospero");
            for (name, value) in p.fields() {
                b = b.field(pct::decode(name), pct::decode(value));
            }
            b.build()
        }
        SchemeKind::Other => {
            let mut b = GenericBuilder::new(url.scheme());
            if url.has_authority() || v.contains_key("host") {
                b = login!(b.host(&host), v, user);
            }
            if let Some(p) = get("url_path").or_else(|| get(OPAQUE)) {
                b = b.path(p);
            }
            b.build()
        }
    };
    result.map_err(SetError::Build)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_str(url: &str, changes: &[(&str, &str)]) -> Result<String, SetError> {
        let changes: Vec<(&str, &[u8])> = changes.iter().map(|(k, v)| (*k, v.as_bytes())).collect();
        set(&Url::parse(url).unwrap(), &changes).map(|u| u.as_str().to_owned())
    }

    #[test]
    fn each_value_is_encoded_for_its_part() {
        assert_eq!(
            set_str("ftp://h.dom/pub/x", &[("user", "me@home"), ("ftp.name", "a;b")]).unwrap(),
            "ftp://me%40home@h.dom/pub/a%3Bb"
        );
        assert_eq!(
            set_str("http://h.dom/a?b", &[("http.search", "x/y z")]).unwrap(),
            "http://h.dom/a?x%2Fy%20z"
        );
        assert_eq!(set_str("http://h.dom:8080/a", &[("port", "")]).unwrap(), "http://h.dom/a");
        assert_eq!(
            set_str("gopher://h.dom/7s%09q", &[("gopher.search", "a b")]).unwrap(),
            "gopher://h.dom/7s%09a%20b"
        );
        assert_eq!(
            set_str("ftp://@h.dom/f", &[("host", "k.dom")]).unwrap(),
            "ftp://@k.dom/f",
            "the empty user stays"
        );
        assert_eq!(set_str("http://h.dom/#frag", &[("host", "k.dom")]).unwrap(), "http://k.dom/#frag");
        assert_eq!(set_str("nntp://h.dom/g/1", &[("nntp.article", "2")]).unwrap(), "nntp://h.dom/g/2");
        assert_eq!(set_str("mailto:a@b.dom", &[("mailto.address", "c@d.dom")]).unwrap(), "mailto:c@d.dom");
    }

    #[test]
    fn scheme_ports_and_opaque_parts() {
        assert_eq!(set_str("http://h.dom/a?q", &[("scheme", "https")]).unwrap(), "https://h.dom/a?q");
        assert_eq!(
            set_str("ftp://u@h.dom/a/b", &[("scheme", "telnet"), ("port", "")])
                .unwrap_err()
                .to_string()
                .split(':')
                .next(),
            Some("scheme")
        );
        assert_eq!(
            set_str("http://h.dom/a", &[("scheme", "ftp"), ("user", "me")]).unwrap(),
            "ftp://me@h.dom/a"
        );
        assert_eq!(set_str("http://h.dom/", &[("port", "65536")]).unwrap(), "http://h.dom:65536/");
        assert_eq!(set_str("http://h.dom:99999/x", &[("host", "k.dom")]).unwrap(), "http://k.dom:99999/x");
        assert_eq!(set_str("x-a:b%20c", &[("other.scheme_specific_part", "d e")]).unwrap(), "x-a:d%20e");
    }

    #[test]
    fn the_fragment_is_kept_set_or_removed() {
        assert_eq!(set_str("http://h.dom/a?q#f", &[("port", "81")]).unwrap(), "http://h.dom:81/a?q#f");
        assert_eq!(
            set_str("http://h.dom/a#f", &[("fragment", "a b#c")]).unwrap(),
            "http://h.dom/a#a%20b%23c"
        );
        assert_eq!(set_str("http://h.dom/a#f", &[("fragment", "")]).unwrap(), "http://h.dom/a");
        assert_eq!(set_str("x-a:b#f", &[("fragment", "g")]).unwrap(), "x-a:b#g");
        assert!(is_part("fragment"));
    }

    #[test]
    fn errors_name_the_part() {
        let e = set_str("http://h.dom/", &[("user", "me")]).unwrap_err();
        assert!(matches!(e, SetError::UnknownPart { ref part, kind: "http" } if part == "user"), "{e}");
        let e = set_str("http://h.dom/", &[("host", "a b")]).unwrap_err();
        assert!(matches!(e, SetError::Build(b) if b.part() == rfc1738::Rule::Host), "{e}");
        let e = set_str("http://h.dom/", &[("port", "x")]).unwrap_err();
        assert_eq!(e.to_string(), "port: character not allowed here at offset 0 (in port)");
        let e = set_str("x-other:opaque-part", &[("host", "mirror.example")]).unwrap_err();
        assert!(matches!(e, SetError::UnknownPart { ref part, kind: "other" } if part == "host"), "{e}");
        let e = set_str("gopher://h.dom/1x", &[("gopher.selector", "a\tb")]).unwrap_err();
        assert!(e.to_string().contains("selector"), "{e}");
    }
}
