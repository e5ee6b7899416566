//! From a URL to what access will do, with every check of RFC 1738 §6 made
//! here, before any connection is opened.

use crate::advice;
use crate::{decode, AccessError, Options, SchemeKind, Url};
use rfc1738::FtpLogin;
use std::path::PathBuf;

/// Where to connect.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    pub host: String,
    pub port: u16,
}

/// The password sent after `USER` (§3.2.1).
#[derive(Debug, Clone)]
pub(crate) enum FtpPassword {
    /// From the URL.
    Given(Vec<u8>),
    /// Anonymous login: the end user's e-mail address.
    Email(Vec<u8>),
    /// A user without a password: ask, if the server wants one.
    Ask,
}

/// An ftp access: login, the URL's commands, the transfer command.
#[derive(Debug, Clone)]
pub(crate) struct FtpTarget {
    pub ep: Endpoint,
    pub user: Vec<u8>,
    pub password: FtpPassword,
    /// `CWD` lines and `TYPE X`, in order, before the data connection.
    pub commands: Vec<Vec<u8>>,
    /// `RETR name` or `NLST [name]`.
    pub transfer: Vec<u8>,
}

/// A gopher access: the request line(s) and whether a gopher+ header answers.
#[derive(Debug, Clone)]
pub(crate) struct GopherTarget {
    pub ep: Endpoint,
    pub gtype: u8,
    /// The request without its final CR LF.
    pub request: Vec<u8>,
    pub plus: bool,
}

/// What an NNTP exchange fetches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NewsWhat {
    GroupList,
    Overview,
    Article,
}

/// An NNTP access.
#[derive(Debug, Clone)]
pub(crate) struct NntpTarget {
    pub ep: Endpoint,
    pub commands: Vec<Vec<u8>>,
    pub what: NewsWhat,
}

/// What an access does.
#[derive(Debug, Clone)]
pub(crate) enum Target {
    Ftp(FtpTarget),
    Gopher(GopherTarget),
    Http { ep: Endpoint, target: String },
    File(PathBuf),
    Nntp(NntpTarget),
    Describe { scheme: String, advice: String },
}

impl Target {
    /// Reads `input` and makes every check; nothing is connected.
    pub(crate) fn new(input: &str, opts: &Options) -> Result<Target, AccessError> {
        let url = Url::parse(input).map_err(|e| AccessError::Url(e.to_string()))?;
        match url.kind() {
            SchemeKind::Ftp => ftp(&url, opts).map(Target::Ftp),
            SchemeKind::Gopher => gopher(&url, opts).map(Target::Gopher),
            SchemeKind::Http => http(&url, opts),
            SchemeKind::File => file(&url).map(Target::File),
            SchemeKind::News => news(&url, opts).map(Target::Nntp),
            SchemeKind::Nntp => nntp(&url, opts).map(Target::Nntp),
            // No TLS here: https is read by http's rules, not fetched.
            SchemeKind::Https | SchemeKind::Other => {
                Err(AccessError::Unsupported { scheme: url.scheme().to_string() })
            }
            _ => Ok(Target::Describe { scheme: url.scheme().to_string(), advice: advice::describe(&url) }),
        }
    }
}

/// §6: CR, LF and NUL never reach a protocol line; nor do the octets in
/// `also` (TAB in a gopher selector, SP in an NNTP argument).
pub(crate) fn check_line(component: &'static str, octets: &[u8], also: &[u8]) -> Result<(), AccessError> {
    match octets.iter().find(|b| matches!(b, b'\r' | b'\n' | 0) || also.contains(b)) {
        Some(&octet) => Err(AccessError::Injection { component, octet }),
        None => Ok(()),
    }
}

/// §6: an explicit port below 1024 other than the scheme's default is
/// refused unless the caller allows it.
pub(crate) fn check_port(scheme: &str, port: u16, default: u16, opts: &Options) -> Result<(), AccessError> {
    if port == 0 {
        return Err(AccessError::Url("port 0 cannot be connected to".into()));
    }
    if port < 1024 && port != default && !opts.allow_privileged_ports {
        return Err(AccessError::PrivilegedPort { scheme: scheme.to_string(), port });
    }
    Ok(())
}

pub(crate) fn endpoint(url: &Url, default: u16, opts: &Options) -> Result<Endpoint, AccessError> {
    let host = url
        .host()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| AccessError::Url("the url names no host".into()))?;
    // §5 gives `port` no range, so a port above 65535 is valid; no TCP
    // port has its number: refused here, before connecting.
    if let (None, Some(digits)) = (url.port(), url.port_str()) {
        return Err(AccessError::Url(format!("port {digits} is above 65535: no TCP port has this number")));
    }
    let port = url.port().unwrap_or(default);
    check_port(url.scheme(), port, default, opts)?;
    Ok(Endpoint { host: host.to_string(), port })
}

/// §3.2.1 login and §3.2.2 commands, as the core plans them: one CWD per
/// segment with the decoded segment as argument (`%2Fetc` is `CWD /etc`, an
/// empty segment `CWD ` with a null argument), TYPE, then RETR or NLST.
fn ftp(url: &Url, opts: &Options) -> Result<FtpTarget, AccessError> {
    let ep = endpoint(url, 21, opts)?;
    let view = url.ftp().ok_or_else(|| AccessError::Url("not an ftp url".into()))?;
    let (user, password) = match view.login() {
        FtpLogin::Anonymous => (b"anonymous".to_vec(), FtpPassword::Email(opts.email.as_bytes().to_vec())),
        FtpLogin::User { user, password } => {
            (user.into_owned(), password.map_or(FtpPassword::Ask, |p| FtpPassword::Given(p.into_owned())))
        }
    };
    check_line("ftp user", &user, &[])?;
    let password = match password {
        FtpPassword::Given(p) => {
            check_line("ftp password", &p, &[])?;
            FtpPassword::Given(telnet_escape(p))
        }
        FtpPassword::Email(p) => {
            check_line("e-mail address used as password", &p, &[])?;
            FtpPassword::Email(telnet_escape(p))
        }
        FtpPassword::Ask => FtpPassword::Ask,
    };
    let (mut commands, mut transfer) = (Vec::new(), None);
    for command in view.commands() {
        let component = if command.verb == "CWD" { "ftp cwd segment" } else { "ftp file name" };
        check_line(component, &command.arg, &[])?;
        match command.verb {
            "RETR" | "NLST" => transfer = Some(telnet_escape(command.line())),
            _ => commands.push(telnet_escape(command.line())),
        }
    }
    let user = telnet_escape(user);
    let transfer =
        transfer.ok_or_else(|| AccessError::Url("the ftp url names nothing to retrieve".into()))?;
    Ok(FtpTarget { ep, user, password, commands, transfer })
}

/// RFC 959 §4.1.3 makes the ftp control connection a Telnet connection
/// (RFC 854), where octet 255 is IAC, the start of a Telnet command; a
/// data octet 255 is sent doubled (IAC IAC), as RFC 854 says. Sent bare,
/// it and the octet after it would be read as a command (IAC IP, IAC DM).
pub(crate) fn telnet_escape(line: Vec<u8>) -> Vec<u8> {
    if !line.contains(&0xff) {
        return line;
    }
    let mut out = Vec::with_capacity(line.len() + 4);
    for b in line {
        out.push(b);
        if b == 0xff {
            out.push(0xff);
        }
    }
    out
}

/// §3.4: the decoded selector, TAB and search, TAB and gopher+ string.
fn gopher(url: &Url, opts: &Options) -> Result<GopherTarget, AccessError> {
    let ep = endpoint(url, 70, opts)?;
    let view = url.gopher().ok_or_else(|| AccessError::Url("not a gopher url".into()))?;
    let mut request = decode(view.selector()).into_owned();
    check_line("gopher selector", &request, b"\t")?;
    if let Some(search) = view.search() {
        let search = decode(search);
        check_line("gopher search", &search, &[])?;
        request.push(b'\t');
        request.extend_from_slice(&search);
    }
    let plus = view.plus().map(decode);
    if let Some(plus) = &plus {
        check_plus(plus)?;
        request.push(b'\t');
        request.extend_from_slice(plus.strip_suffix(b"\r\n").unwrap_or(plus));
    }
    Ok(GopherTarget { ep, gtype: view.gopher_type(), request, plus: plus.is_some() })
}

/// A gopher+ string has no CR, LF or NUL. The filled-in form of §3.4.9
/// (`+`, TAB, `1`, CR LF, lines, `.` CR LF) is refused too, on every port:
/// its lines would reach whatever listens there (`SET pwned 1` to a Redis
/// on 6379). `lint` names the form (`gopher-form`).
fn check_plus(plus: &[u8]) -> Result<(), AccessError> {
    check_line("gopher+ string", plus, &[])
}

/// §3.3: the path and search, sent as they are written (still encoded).
fn http(url: &Url, opts: &Options) -> Result<Target, AccessError> {
    let ep = endpoint(url, 80, opts)?;
    let view = url.http().ok_or_else(|| AccessError::Url("not an http url".into()))?;
    Ok(Target::Http { ep, target: view.request_target() })
}

/// §3.10: only this machine's files.
fn file(url: &Url) -> Result<PathBuf, AccessError> {
    let view = url.file().ok_or_else(|| AccessError::Url("not a file url".into()))?;
    if !view.is_local() {
        return Err(AccessError::ForeignFileHost { host: view.host().to_string() });
    }
    // A segment is one file name: an encoded "/" in it is data, which no
    // file name can hold (the same reading as ftp's §3.2.2).
    if let Some(segment) = view.segments().find(|s| decode(s).contains(&b'/')) {
        return Err(AccessError::EncodedSlash { segment: segment.to_string() });
    }
    let mut path = b"/".to_vec();
    path.extend_from_slice(&decode(view.path()));
    check_line("file path", &path, &[])?;
    Ok(os_path(path))
}

#[cfg(unix)]
fn os_path(path: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(std::ffi::OsString::from_vec(path))
}

#[cfg(not(unix))]
fn os_path(path: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&path).into_owned())
}

/// §3.6: `news:*`, `news:group`, `news:unique@host`, from the configured server.
fn news(url: &Url, opts: &Options) -> Result<NntpTarget, AccessError> {
    let (host, port) = opts.news_server.clone().ok_or(AccessError::NoNewsServer)?;
    // §6: the configured server's port obeys the rule a URL's port does.
    check_port("news", port, 119, opts)?;
    let ep = Endpoint { host, port };
    let view = url.news().ok_or_else(|| AccessError::Url("not a news url".into()))?;
    if view.is_all() {
        return Ok(NntpTarget { ep, commands: vec![b"LIST".to_vec()], what: NewsWhat::GroupList });
    }
    if let Some(id) = view.article() {
        let id = decode(id);
        check_line("message id", &id, b" \t<>")?;
        let command = [b"ARTICLE <".as_slice(), &id, b">"].concat();
        return Ok(NntpTarget { ep, commands: vec![command], what: NewsWhat::Article });
    }
    let group = decode(view.group().unwrap_or(""));
    check_line("newsgroup name", &group, b" \t")?;
    let commands = vec![[b"GROUP ".as_slice(), &group].concat()];
    Ok(NntpTarget { ep, commands, what: NewsWhat::Overview })
}

/// §3.7: the group, then the article by number.
fn nntp(url: &Url, opts: &Options) -> Result<NntpTarget, AccessError> {
    let ep = endpoint(url, 119, opts)?;
    let view = url.nntp().ok_or_else(|| AccessError::Url("not an nntp url".into()))?;
    let group = decode(view.group());
    check_line("newsgroup name", &group, b" \t")?;
    let mut commands = vec![[b"GROUP ".as_slice(), &group].concat()];
    let what = match view.article() {
        Some(n) => {
            commands.push(format!("ARTICLE {n}").into_bytes());
            NewsWhat::Article
        }
        None => NewsWhat::Overview,
    };
    Ok(NntpTarget { ep, commands, what })
}
