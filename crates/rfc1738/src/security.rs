//! The security checks of §6, and a few more a careful reviewer would make.
//!
//! §6 names three risks: a port other than the protocol's own, which can
//! aim a harmless retrieval at another protocol's server; encoded
//! delimiters (CR, LF) that a client might decode before sending; and
//! passwords in URLs. Each check here returns [`Warning`]s with the offset
//! of what triggered it; none of them makes the URL invalid.

use crate::host;
use crate::kind::SchemeKind;
use crate::pct;
use crate::simd;
use crate::url::{Url, UrlRef};
use crate::warning::{Message, Warning, WarningKind, WarningRef};
use std::borrow::Cow;

/// What replaces a password in [`Url::redacted`].
pub const REDACTED: &str = "***";

impl Url {
    /// The security warnings of the URL, in the order of their offsets.
    ///
    /// | kind | when | section |
    /// |---|---|---|
    /// | [`ForeignPort`](WarningKind::ForeignPort) | a port below 1024 that is not the scheme's | §6 |
    /// | [`NonDefaultPort`](WarningKind::NonDefaultPort) | any other port that is not the scheme's | §6 |
    /// | [`LineInjection`](WarningKind::LineInjection) | `%0D`, `%0A`, `%00` in a part sent on a protocol line (ftp, gopher, news, telnet, mailto), `%09` adding a gopher field | §6 |
    /// | [`Password`](WarningKind::Password) | a non-empty password | §6 |
    /// | [`HostnumberOutOfRange`](WarningKind::HostnumberOutOfRange) | a hostnumber group above 255 | §3.1 |
    /// | [`HostnumberLeadingZero`](WarningKind::HostnumberLeadingZero) | a hostnumber group with a leading zero | §3.1 |
    /// | [`MisleadingUser`](WarningKind::MisleadingUser) | a user name that looks like a host name | §3.1 |
    /// | [`DirectoryEscape`](WarningKind::DirectoryEscape) | an ftp or file segment `..`, or one that decodes to a `/` | §3.2.2, §3.10 |
    /// | [`InternalHost`](WarningKind::InternalHost) | `localhost` or a loopback, private or link-local hostnumber | |
    /// | [`RemoteFile`](WarningKind::RemoteFile) | a file URL on another host | §3.10 |
    /// | [`OptionInjection`](WarningKind::OptionInjection) | a telnet user name starting with `-` | §3.8 |
    /// | [`SchemeStart`](WarningKind::SchemeStart) | a scheme starting with a digit, `+`, `-` or `.` | §2.1 |
    /// | [`PortLeadingZero`](WarningKind::PortLeadingZero) | a port with leading zeros | §3.1 |
    /// | [`PortOutOfRange`](WarningKind::PortOutOfRange) | a port above 65535 | §5 |
    /// | [`MailtoHeaders`](WarningKind::MailtoHeaders) | `?` or `&` in a mailto address | §3.5 |
    /// | [`FragmentAuthority`](WarningKind::FragmentAuthority) | a fragment that looks like a login or a host | §2.2 |
    /// | [`DeviceFile`](WarningKind::DeviceFile) | a file path under `/dev`, `/proc` or `/sys` | §3.10 |
    /// | [`UncPath`](WarningKind::UncPath) | a file path starting with `//` (a network share) | §3.10 |
    /// | [`GopherForm`](WarningKind::GopherForm) | a gopher+ string with an encoded CR LF (sent as it is) | §3.4 |
    /// | [`GopherSearchDelimiter`](WarningKind::GopherSearchDelimiter) | `?` or `/` in a gopher search, which generic readers split | §3.4.1 |
    ///
    /// nntp URLs have no part that can carry an escape (a group name and
    /// digits), so they cannot carry a line injection.
    ///
    /// # Examples
    /// ```
    /// use rfc1738::{Url, WarningKind};
    /// let url = Url::parse("gopher://mail.example:25/7x%09HELO%0D%0AMAIL%20FROM:x")?;
    /// let kinds: Vec<_> = url.security_warnings().iter().map(|w| (w.offset(), w.kind())).collect();
    /// assert_eq!(kinds, [(22, WarningKind::ForeignPort),
    ///                    (34, WarningKind::LineInjection), (37, WarningKind::LineInjection)]);
    /// assert!(Url::parse("gopher://gopher.example/0about")?.security_warnings().is_empty());
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    #[must_use]
    pub fn security_warnings(&self) -> Vec<Warning> {
        self.as_url_ref().security_warnings()
    }

    /// The URL for display and logs: the password, when there is a
    /// non-empty one, replaced by [`REDACTED`] (§6: "The use of URLs
    /// containing passwords that should be secret is clearly unwise").
    ///
    /// # Examples
    /// ```
    /// let url = rfc1738::Url::parse("ftp://me:s3cret@ftp.example/pub/")?;
    /// assert_eq!(url.redacted(), "ftp://me:***@ftp.example/pub/");
    /// let url = rfc1738::Url::parse("ftp://me@ftp.example/pub/")?;
    /// assert_eq!(url.redacted(), url.as_str());
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    #[must_use]
    pub fn redacted(&self) -> Cow<'_, str> {
        match self.parts().password {
            Some(span) if span.start() < span.end() => {
                let s = self.as_str();
                let r = span.range();
                Cow::Owned(format!("{}{REDACTED}{}", &s[..r.start], &s[r.end..]))
            }
            _ => Cow::Borrowed(self.as_str()),
        }
    }
}

impl Url {
    /// The security warnings of the URL one by one, in the order of
    /// [`Url::security_warnings`], their messages not written: see
    /// [`UrlRef::for_each_security_warning`].
    pub fn for_each_security_warning(&self, f: impl FnMut(WarningRef<'_>)) {
        self.as_url_ref().for_each_security_warning(f);
    }
}

impl<'a> UrlRef<'a> {
    /// [`Url::security_warnings`] of the borrowed URL, without a copy of
    /// its text. A message that names the scheme names it as written.
    ///
    /// # Examples
    /// ```
    /// let url = rfc1738::UrlRef::parse("ftp://me:secret@h.example/")?;
    /// assert_eq!(url.security_warnings(), url.to_url().security_warnings());
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    #[must_use]
    pub fn security_warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        self.for_each_security_warning(|w| out.push(w.into()));
        out
    }

    /// The warnings of [`UrlRef::security_warnings`] given to `f` one by
    /// one, in the same order, each borrowing the URL: no message is
    /// written and nothing is allocated for the common ones (a message
    /// with a number in it is written). For a caller that reads many URLs:
    /// a warning's kind and offset, or its message written once for the
    /// rows that share it ([`crate::Message`]).
    ///
    /// # Examples
    /// ```
    /// let url = rfc1738::UrlRef::parse("file://nas.example/x")?;
    /// let mut kinds = Vec::new();
    /// url.for_each_security_warning(|w| kinds.push(w.kind().id()));
    /// assert_eq!(kinds, ["remote-file"]);
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    pub fn for_each_security_warning(&self, mut f: impl FnMut(WarningRef<'a>)) {
        let host = self.host();
        match self.plain() {
            // The checks that can warn on a URL with no port, login or
            // fragment and a scheme starting with a letter.
            Some(kind) if !host.is_some_and(|h| hostnumber_groups(h).is_some()) => {
                // A host name (most are): a warning about it (internal,
                // remote) is the one at the host, before the path's. The
                // path's come in the order of their offsets too: a file
                // path's warning is at its start, where `directory_escape`
                // does not warn when it does (its first segment is empty,
                // or `dev`, `proc` or `sys`).
                let out = &mut f;
                if let Some(h) = host {
                    internal_host(self, h, out);
                }
                if kind == SchemeKind::File {
                    remote_file(self, out);
                    file_path(self, out);
                    directory_escape(self, out);
                }
            }
            Some(kind) => {
                // In the order `all_checks` makes them, sorted.
                let mut out = Found::new();
                if let Some(h) = host {
                    hostnumber(self, h, &mut out);
                    internal_host(self, h, &mut out);
                }
                if kind == SchemeKind::File {
                    directory_escape(self, &mut out);
                    remote_file(self, &mut out);
                    file_path(self, &mut out);
                }
                out.each(f);
            }
            None => {
                let mut out = Found::new();
                self.all_checks(&mut out);
                out.each(f);
            }
        }
    }

    /// The kind of a URL that only the host checks (and for a file URL,
    /// its path's) can warn about: no port, user, password or fragment, a
    /// scheme starting with a letter, and a kind with none of the checks of
    /// one scheme (line injection, a telnet user, mailto headers, a gopher
    /// search, a news article's host). Most URLs of a column are.
    fn plain(&self) -> Option<SchemeKind> {
        let kind = self.kind();
        let quiet = matches!(
            kind,
            SchemeKind::Http
                | SchemeKind::Https
                | SchemeKind::Nntp
                | SchemeKind::Wais
                | SchemeKind::File
                | SchemeKind::Prospero
                | SchemeKind::Other
        ) && {
            // The spans alone: no part is sliced out of the text.
            let p = self.parts();
            p.port.is_none() && p.user.is_none() && p.password.is_none() && !p.has_fragment
        } && self.as_str().as_bytes()[0].is_ascii_alphabetic();
        quiet.then_some(kind)
    }

    /// Every check of [`UrlRef::security_warnings`], in order.
    fn all_checks(&self, out: &mut Found<'a>) {
        port_check(self, out);
        line_injection(self, out);
        password(self, out);
        if let Some(h) = self.host() {
            hostnumber(self, h, out);
            internal_host(self, h, out);
        }
        if let Some(article) = self.news().and_then(|n| n.article()) {
            if let Some((_, h)) = article.rsplit_once('@') {
                hostnumber(self, h, out);
            }
        }
        misleading_user(self, out);
        directory_escape(self, out);
        remote_file(self, out);
        option_injection(self, out);
        scheme_start(self, out);
        port_leading_zero(self, out);
        port_out_of_range(self, out);
        mailto_headers(self, out);
        fragment_authority(self, out);
        file_path(self, out);
        gopher_form(self, out);
        gopher_search_delimiter(self, out);
    }

    /// The offset of `part`, a slice of [`UrlRef::as_str`], within it.
    pub(crate) fn offset_of(&self, part: &str) -> usize {
        let offset = (part.as_ptr() as usize).wrapping_sub(self.as_str().as_ptr() as usize);
        debug_assert!(offset <= self.as_str().len(), "a slice of the URL");
        offset
    }
}

/// `text`, which need not be a valid URL, with the password of a login
/// replaced by [`REDACTED`]: for a text that does not parse (a line that
/// a report shows as it was given), where [`Url::redacted`] cannot be
/// asked.
///
/// The login is read as §3.1 lays it out, without its rules: after the
/// first `"://"`, up to the next `"/"` (or the end); its user and
/// password end at the last `"@"` in it, and the password starts after
/// the first `":"` before that `"@"`. A text without that shape is
/// returned as it is.
///
/// # Examples
/// ```
/// assert_eq!(rfc1738::redact_text("ftp://me:s3cret@ftp.example/a b"), "ftp://me:***@ftp.example/a b");
/// assert_eq!(rfc1738::redact_text("ftp://me:s3c@ret@h x/"), "ftp://me:***@h x/");
/// assert_eq!(rfc1738::redact_text("ftp://h.example:21/ x"), "ftp://h.example:21/ x");
/// ```
#[must_use]
pub fn redact_text(text: &str) -> Cow<'_, str> {
    let Some(start) = text.find("://").map(|k| k + 3) else { return Cow::Borrowed(text) };
    let end = text[start..].find('/').map_or(text.len(), |k| start + k);
    let login = &text[start..end];
    let Some(at) = login.rfind('@') else { return Cow::Borrowed(text) };
    match login[..at].find(':') {
        Some(colon) if colon + 1 < at => {
            let (from, to) = (start + colon + 1, start + at);
            Cow::Owned(format!("{}{REDACTED}{}", &text[..from], &text[to..]))
        }
        _ => Cow::Borrowed(text),
    }
}

/// Where a check puts its warnings: a [`Found`] that sorts them, or the
/// caller's function when they come in the order of their offsets.
trait Sink<'a> {
    fn push(&mut self, w: WarningRef<'a>);
}

impl<'a, F: FnMut(WarningRef<'a>)> Sink<'a> for F {
    #[inline]
    fn push(&mut self, w: WarningRef<'a>) {
        self(w);
    }
}

impl<'a> Sink<'a> for Found<'a> {
    #[inline]
    fn push(&mut self, w: WarningRef<'a>) {
        Found::push(self, w);
    }
}

/// The warnings of the checks, given in the order of their offsets (two
/// at one offset in the order found): the first in place, all of them in
/// a `Vec` once there is a second. Most URLs have none, and most of the
/// others one.
struct Found<'a> {
    first: Option<WarningRef<'a>>,
    more: Vec<WarningRef<'a>>,
}

impl<'a> Found<'a> {
    fn new() -> Self {
        Found { first: None, more: Vec::new() }
    }

    fn push(&mut self, w: WarningRef<'a>) {
        if self.more.is_empty() {
            match self.first.take() {
                None => return self.first = Some(w),
                Some(first) => self.more.push(first),
            }
        }
        self.more.push(w);
    }

    /// Each warning, in the order of their offsets (a stable sort, as
    /// the checks' order breaks ties).
    fn each(&mut self, mut f: impl FnMut(WarningRef<'a>)) {
        if let Some(w) = self.first.take() {
            f(w);
        } else if !self.more.is_empty() {
            self.more.sort_by_key(WarningRef::offset);
            self.more.drain(..).for_each(f);
        }
    }
}

/// Well-known services, to say which protocol a port may reach.
fn service(port: u16) -> Option<&'static str> {
    Some(match port {
        7 => "echo",
        13 => "daytime",
        19 => "chargen",
        20 | 21 => "ftp",
        22 => "ssh",
        23 => "telnet",
        25 => "smtp",
        53 => "dns",
        70 => "gopher",
        79 => "finger",
        80 => "http",
        110 => "pop3",
        111 => "sunrpc",
        119 => "nntp",
        135 => "msrpc",
        139 => "netbios",
        143 => "imap",
        210 => "wais",
        389 => "ldap",
        443 => "https",
        445 => "smb",
        465 | 587 => "smtp submission",
        513 => "rlogin",
        514 => "rsh",
        515 => "lpd",
        631 => "ipp",
        993 => "imaps",
        995 => "pop3s",
        1525 => "prospero",
        2375 => "docker",
        3306 => "mysql",
        5432 => "postgresql",
        6379 => "redis",
        9200 => "elasticsearch",
        11211 => "memcached",
        _ => return None,
    })
}

/// §6: "Caution should be used when using any URL which specifies a port
/// number other than the default for the protocol, especially when it is
/// a number within the reserved space."
fn port_check<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let (Some(port), Some(default)) = (url.port(), url.kind().default_port()) else {
        return;
    };
    if port == default {
        return;
    }
    let at = url.offset_of(url.port_str().unwrap_or(""));
    let scheme = url.kind().name();
    let a = url.kind().article();
    let known = service(port).map_or(String::new(), |s| format!(" ({s})"));
    if port < 1024 {
        let message = format!(
            "port {port}{known} is in the reserved space and is not {scheme}'s {default}: {a} {scheme} request \
             sent there is read by another protocol's server (§6)"
        );
        out.push(WarningRef::new(at, WarningKind::ForeignPort, message));
    } else {
        let message = format!(
            "port {port}{known} is not {scheme}'s {default}: the server there may speak another protocol (§6)"
        );
        out.push(WarningRef::new(at, WarningKind::NonDefaultPort, message));
    }
}

/// §6: "Care should be taken when URLs contain embedded encoded delimiters
/// for a given protocol (for example, CR and LF characters for telnet
/// protocols) that these are not unencoded before transmission."
fn line_injection<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    const LINE: &[u8] = b"\r\n\0";
    let mut check = |part: Option<&str>, octets: &[u8], line: &str| {
        if let Some(part) = part {
            escapes_of(url, part, octets, line, out);
        }
    };
    match url.kind() {
        SchemeKind::Ftp => {
            check(url.user(), LINE, "the FTP USER command");
            check(url.password(), LINE, "the FTP PASS command");
            check(url.ftp().map(|f| f.fpath()), LINE, "an FTP CWD or RETR command");
        }
        SchemeKind::Telnet => {
            check(url.user(), LINE, "the login typed into the telnet session");
            check(url.password(), LINE, "the password typed into the telnet session");
        }
        SchemeKind::Gopher => {
            let Some(g) = url.gopher() else { return };
            check(Some(g.selector()), LINE, "the gopher request line");
            check(g.search(), LINE, "the gopher request line");
            // §3.4.9: a gopher+ string may carry a form's data block, lines
            // and all, so only NUL is out of place in it.
            check(g.plus(), b"\0", "the gopher+ request");
            gopher_tab(url, out);
        }
        SchemeKind::News => check(url.news().and_then(|n| n.article()), LINE, "the NNTP ARTICLE command"),
        SchemeKind::Mailto => check(url.mailto().map(|m| m.address_raw()), LINE, "the SMTP RCPT TO command"),
        _ => {}
    }
}

/// A `%09` before a search in a gopher URL whose type takes none: the
/// request gets a second field the item does not expect (§3.4.2: only a
/// search, type 7, has one; gopher+ uses the third field).
fn gopher_tab<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(g) = url.gopher() else { return };
    let Some(search) = g.search() else { return };
    if g.gopher_type() == b'7' || search.is_empty() || g.plus().is_some() {
        return;
    }
    let at = url.offset_of(search) - 3;
    let message = format!(
        "an escaped TAB sends a search field to a type {} item, which takes none: an extra parameter \
         in the gopher request (§6)",
        g.gopher_type().escape_ascii()
    );
    out.push(WarningRef::new(at, WarningKind::LineInjection, message));
}

/// A warning for every escape in `part` that decodes to one of `octets`.
fn escapes_of<'a>(url: &UrlRef<'a>, part: &str, octets: &[u8], line: &str, out: &mut impl Sink<'a>) {
    let b = part.as_bytes();
    for i in memchr_all(b, b'%') {
        let Some(v) = pct::escape_at(b, i) else { continue };
        if octets.contains(&v) {
            let name = match v {
                b'\r' => "CR",
                b'\n' => "LF",
                b'\t' => "TAB",
                _ => "NUL",
            };
            let message = format!(
                "%{v:02X} decodes to {name} inside {line}: a client that sends it decoded ends the line \
                 and can inject another command (§6)"
            );
            out.push(WarningRef::new(url.offset_of(part) + i, WarningKind::LineInjection, message));
        }
    }
}

fn memchr_all(b: &[u8], needle: u8) -> impl Iterator<Item = usize> + '_ {
    b.iter().enumerate().filter(move |(_, &c)| c == needle).map(|(i, _)| i)
}

/// §6: "The use of URLs containing passwords that should be secret is
/// clearly unwise."
fn password<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    if let Some(pw) = url.password().filter(|p| !p.is_empty()) {
        out.push(WarningRef::new(
            url.offset_of(pw),
            WarningKind::Password,
            Message::fixed(&[
                "a password in a URL is seen by anyone who sees the URL: logs, history, referrers (§6); \
                 log the redacted form instead",
            ]),
        ));
    }
}

/// The groups of `host` when it is a `hostnumber`, with their offsets in it.
#[inline]
fn hostnumber_groups(host: &str) -> Option<Vec<(usize, &str)>> {
    let host = host.strip_suffix('.').unwrap_or(host);
    // The last group is digits: a host name (most hosts) ends otherwise.
    // Told here, inlined, before any call.
    if !host.as_bytes().last().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    groups(host)
}

/// [`hostnumber_groups`] of a host whose last byte is a digit.
#[inline(never)]
fn groups(host: &str) -> Option<Vec<(usize, &str)>> {
    let top = host.rsplit('.').next()?;
    if !top.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut at = 0;
    let groups = host
        .split('.')
        .map(|g| {
            let item = (at, g);
            at += g.len() + 1;
            item
        })
        .collect::<Vec<_>>();
    (groups.len() == 4 && groups.iter().all(|(_, g)| !g.is_empty() && g.bytes().all(|c| c.is_ascii_digit())))
        .then_some(groups)
}

/// The value of a group of digits, saturating above `u32::MAX`.
fn group_value(g: &str) -> u32 {
    g.bytes().fold(0u32, |n, d| n.saturating_mul(10).saturating_add(u32::from(d - b'0')))
}

/// §5 `hostnumber = digits "." digits "." digits "." digits`: any number of
/// digits, read as decimal. `inet_aton` reads a leading zero as octal and
/// some software wraps values above 255, so the same text can name two
/// machines.
fn hostnumber<'a>(url: &UrlRef<'a>, host: &'a str, out: &mut impl Sink<'a>) {
    let Some(groups) = hostnumber_groups(host) else { return };
    let base = url.offset_of(host);
    for (at, g) in groups {
        if group_value(g) > 255 {
            let message = Message::around(
                &[
                    "hostnumber group ",
                    " is above 255: no IPv4 address has it, and software that wraps or combines groups \
                     reaches another machine",
                ],
                g,
            );
            out.push(WarningRef::new(base + at, WarningKind::HostnumberOutOfRange, message));
        }
        if g.len() > 1 && g.starts_with('0') {
            let message = Message::around(
                &[
                    "hostnumber group ",
                    " has a leading zero: decimal by RFC 1738, octal to inet_aton and much software, so \
                     the URL can reach two different machines",
                ],
                g,
            );
            out.push(WarningRef::new(base + at, WarningKind::HostnumberLeadingZero, message));
        }
    }
}

/// A host that is the machine itself or a private network: a service that
/// fetches URLs given by others can be made to reach inside (request
/// forgery). File URLs are local by design and are left out.
fn internal_host<'a>(url: &UrlRef<'a>, host: &'a str, out: &mut impl Sink<'a>) {
    if url.kind() == SchemeKind::File || host.is_empty() {
        return;
    }
    let bare = host.strip_suffix('.').unwrap_or(host);
    let what = if bare.eq_ignore_ascii_case("localhost") {
        Some("the local machine")
    } else {
        hostnumber_groups(host).and_then(|groups| {
            let v: Vec<u32> = groups.iter().map(|(_, g)| group_value(g)).collect();
            match (v[0], v[1]) {
                (127, _) => Some("a loopback address"),
                (0, _) => Some("\"this network\" (0/8)"),
                (10, _) | (192, 168) => Some("a private network address"),
                (172, 16..=31) => Some("a private network address"),
                (169, 254) => Some("a link-local address (cloud metadata services live here)"),
                _ => None,
            }
        })
    };
    if let Some(what) = what {
        let message = Message::around(
            &["the host is ", ": a server that fetches this URL for someone else reaches its own network"],
            what,
        );
        out.push(WarningRef::new(url.offset_of(host), WarningKind::InternalHost, message));
    }
}

/// A user name that reads like a host name: `ftp://www.bank.example@evil.example/`
/// goes to `evil.example`.
fn misleading_user<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let (Some(user), Some(h)) = (url.user(), url.host()) else { return };
    let decoded = pct::decode(user);
    let Ok(text) = core::str::from_utf8(&decoded) else { return };
    if text.contains('.') && host::check(text).is_ok() {
        let message = format!(
            "the user name \"{text}\" looks like a host name, but the URL goes to \"{h}\": \
             a reader may be misled about where it leads"
        );
        out.push(WarningRef::new(url.offset_of(user), WarningKind::MisleadingUser, message));
    }
}

/// §3.2.2: each cwd segment is one `CWD`; a `..` segment climbs out of the
/// login directory, and `%2F` gives an absolute path (`%2Fetc` is
/// `CWD /etc`). A file path with `..` or an encoded `/` likewise reaches
/// outside the directory it seems to name.
fn directory_escape<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    // The ftp segments (`<cwd1>/.../<name>`, §3.2.2) are those of the
    // fpath; a file URL's, of its path (§3.10).
    let path = if let Some(ftp) = url.ftp() {
        ftp.fpath()
    } else if let Some(file) = url.file() {
        file.path()
    } else {
        return;
    };
    // Only `..` or a segment with an escape can warn: most paths have
    // neither, and are not split.
    if !simd::escape_or_dots(path.as_bytes()) {
        return;
    }
    for seg in path.split('/') {
        let decoded = pct::decode(seg);
        let what = if &*decoded == b".." {
            "\"..\" climbs to the parent directory"
        } else if decoded.starts_with(b"/") {
            "it decodes to an absolute path"
        } else if decoded.contains(&b'/') {
            "it decodes to a path with \"/\""
        } else {
            continue;
        };
        let message = Message::of(
            &["path segment \"", "\": ", ", outside the directory the URL seems to name (§3.2.2)"],
            [seg, what],
        );
        out.push(WarningRef::new(url.offset_of(seg), WarningKind::DirectoryEscape, message));
    }
}

/// §3.10: a file URL names a file on `host`, but "does not specify an
/// Internet protocol or access method"; some systems open a remote one as
/// a network share and send the user's credentials to that host.
fn remote_file<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(file) = url.file() else { return };
    if !file.is_local() {
        // Not written here: a column of file URLs warns on most rows.
        let message = Message::around(
            &[
                "a file URL on host \"",
                "\": some systems open it as a network share and send the user's credentials there \
                 (§3.10 defines no access method)",
            ],
            file.host(),
        );
        out.push(WarningRef::new(url.offset_of(file.host()), WarningKind::RemoteFile, message));
    }
}

/// §3.8: the telnet user is advisory, but clients that start a `telnet`
/// program pass it as `-l user`; one that starts with `-` becomes an option.
fn option_injection<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(user) = url.telnet().and_then(|t| t.advisory_user()) else { return };
    if pct::decode(user).starts_with(b"-") {
        out.push(WarningRef::new(
            url.offset_of(user),
            WarningKind::OptionInjection,
            Message::fixed(&[
                "the user name starts with \"-\": a client that runs a telnet program with it may read it \
                 as a command-line option",
            ]),
        ));
    }
}

/// §2.1 allows a scheme to start with a digit, `+`, `-` or `.`; RFC 3986
/// §3.1 and WHATWG need a letter first, and read `1x://h/` as a relative
/// path: the same text names two different things.
fn scheme_start<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let first = url.scheme().as_bytes()[0];
    if !first.is_ascii_alphabetic() {
        let message = Message::of(
            &[
                "the scheme starts with \"",
                "\": RFC 3986 and WHATWG readers need a letter first and read this text as a relative \
                 reference, not as a ",
                " URL",
            ],
            [&url.scheme()[..1], url.scheme()],
        );
        out.push(WarningRef::new(0, WarningKind::SchemeStart, message));
    }
}

/// §3.1: `port = 1*digit` allows leading zeros; readers disagree on them.
fn port_leading_zero<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(port) = url.port_str() else { return };
    if port.len() > 1 && port.starts_with('0') {
        let message = format!(
            "port \"{port}\" has leading zeros: other readers reject it or read it as octal; write {}",
            url.port().unwrap_or(0)
        );
        out.push(WarningRef::new(url.offset_of(port), WarningKind::PortLeadingZero, message));
    }
}

/// §5 `port = digits` has no range (docs/DIFFERENCES.md, "A port above
/// 65535"); a TCP port is 16 bits (RFC 793), so no client can connect there.
fn port_out_of_range<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(port) = url.port_str() else { return };
    if url.port().is_none() {
        let message = Message::around(
            &[
                "port ",
                " is above 65535: §5 gives a port no range, but no TCP port has this number, and software \
                 that wraps it reaches another port",
            ],
            port,
        );
        out.push(WarningRef::new(url.offset_of(port), WarningKind::PortOutOfRange, message));
    }
}

/// §3.5: the whole scheme part is the address. RFC 6068 ends the address
/// at `?` and reads `&`-separated headers after it (`cc`, `bcc`, `body`).
fn mailto_headers<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(address) = url.mailto().map(|m| m.address_raw()) else { return };
    if let Some(at) = address.find(['?', '&']) {
        let message = Message::around(
            &[
                "\"",
                "\" in a mailto address: RFC 6068 readers end the address at \"?\" and take what follows \
                 as mail headers (cc, bcc, body)",
            ],
            &address[at..=at],
        );
        out.push(WarningRef::new(url.offset_of(address) + at, WarningKind::MailtoHeaders, message));
    }
}

/// §2.2: the fragment is not part of the URL. One that reads like a login
/// (`#@evil.example`) or an authority (`#//evil.example`) shows another
/// host to a reader that does not strip it first.
fn fragment_authority<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(fragment) = url.fragment() else { return };
    let before_slash = fragment.split('/').next().unwrap_or("");
    if fragment.starts_with("//") || before_slash.contains('@') {
        let message = Message::around(
            &[
                "the fragment \"#",
                "\" looks like a login or a host: a reader that does not strip the fragment first sees \
                 another host",
            ],
            fragment,
        );
        out.push(WarningRef::new(url.offset_of(fragment) - 1, WarningKind::FragmentAuthority, message));
    }
}

/// §3.10: a file URL names a file on the machine; some names are devices
/// or process files, and `//server/share` is a share on another machine.
fn file_path<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(file) = url.file() else { return };
    let path = file.path();
    let at = url.offset_of(path);
    if path.starts_with('/') {
        let message = Message::fixed(&[
            "the path starts with \"//\": Windows opens file:////server/share as a share on another \
             machine and sends the user's credentials there",
        ]);
        out.push(WarningRef::new(at, WarningKind::UncPath, message));
        return;
    }
    // A first segment that decodes to `dev`, `proc` or `sys` is 12 octets
    // at most (`%70%72%6F%63`), and is followed by a `/`: no need to look
    // further for one.
    let head = &path.as_bytes()[..path.len().min(13)];
    let (mut slash, mut escaped) = (None, false);
    for (i, &c) in head.iter().enumerate() {
        if c == b'/' {
            slash = Some(i);
            break;
        }
        escaped |= c == b'%';
    }
    let Some(slash) = slash else { return };
    // Written without escapes, the segment is one of the names as it is.
    if !escaped && !(3..=4).contains(&slash) {
        return;
    }
    let top = pct::decode(&path[..slash]);
    if [&b"dev"[..], b"proc", b"sys"].contains(&&*top) {
        let message = format!(
            "the path is under /{}: a device or process file, which can block, never end or hold \
             secrets (/dev/zero, /proc/self/environ)",
            String::from_utf8_lossy(&top)
        );
        out.push(WarningRef::new(at, WarningKind::DeviceFile, message));
    }
}

/// §3.4: a gopher+ string may hold the CR LF of a filled-in ASK form, the
/// one multi-line form the RFC allows; `fetch` sends it as it is.
fn gopher_form<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(plus) = url.gopher().and_then(|g| g.plus()) else { return };
    let lower = plus.to_ascii_lowercase();
    if let Some(at) = lower.find("%0d").into_iter().chain(lower.find("%0a")).min() {
        let message = Message::fixed(&[
            "an encoded CR LF in the gopher+ string: the filled-in form of a gopher+ ASK item, the one \
             multi-line request the RFC allows (§3.4); it is sent as it is",
        ]);
        out.push(WarningRef::new(url.offset_of(plus) + at, WarningKind::GopherForm, message));
    }
}

/// §3.4.1: "Within the `<gopher-path>`, no characters are reserved", so a
/// gopher search may hold `"?"` and `"/"` as they are; an RFC 3986 or
/// WHATWG reader splits the URL there (a query, path segments).
fn gopher_search_delimiter<'a>(url: &UrlRef<'a>, out: &mut impl Sink<'a>) {
    let Some(search) = url.gopher().and_then(|g| g.search()) else { return };
    if let Some(at) = search.find(['?', '/']) {
        let message = Message::fixed(if search.as_bytes()[at] == b'?' {
            &["\"?\" in a gopher search: §3.4.1 reserves nothing there, but RFC 3986 and WHATWG readers \
               take what follows for a query (%3F means the same to a gopher server)"]
        } else {
            &["\"/\" in a gopher search: §3.4.1 reserves nothing there, but RFC 3986 and WHATWG readers \
               take it for a path separator, and a relative reference cuts the search there (%2F means \
               the same to a gopher server)"]
        });
        out.push(WarningRef::new(url.offset_of(search) + at, WarningKind::GopherSearchDelimiter, message));
    }
}

/// Text from an input or a server (a URL, a file name, a reply) made safe
/// for a terminal and for a line of a table: an attacker's text must not
/// move the cursor, retitle the window or reorder what follows. Printable
/// text stays as it is, UTF-8 included; CR, LF, TAB and `\` become `\r`,
/// `\n`, `\t`, `\\`; other control octets (ESC, BEL, DEL) and octets
/// that are not UTF-8 become `\xHH`; C1 controls and the characters that
/// reorder or break a terminal line (bidi marks and overrides, LINE and
/// PARAGRAPH SEPARATOR) become `\u{HHHH}`. The escape is reversible (a
/// `\` is always doubled). Printable ASCII, most text, is not copied.
///
/// # Examples
/// ```
/// use rfc1738::escape_text;
/// assert_eq!(escape_text(b"x\x1b]0;t\x07.txt"), "x\\x1B]0;t\\x07.txt");
/// assert_eq!(escape_text(b"530 no\r\n"), "530 no\\r\\n");
/// assert_eq!(escape_text("caf\u{e9} \u{202e}".as_bytes()), "caf\u{e9} \\u{202E}");
/// assert_eq!(escape_text(b"http://h.dom/"), "http://h.dom/");
/// ```
#[must_use]
pub fn escape_text(text: &[u8]) -> Cow<'_, str> {
    if text.iter().all(|&b| (b' '..0x7f).contains(&b) && b != b'\\') {
        return Cow::Borrowed(std::str::from_utf8(text).unwrap_or_default());
    }
    let mut s = String::with_capacity(text.len() + 8);
    for chunk in text.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\r' => s.push_str("\\r"),
                '\n' => s.push_str("\\n"),
                '\t' => s.push_str("\\t"),
                '\\' => s.push_str("\\\\"),
                ' '..='~' => s.push(c),
                '\0'..='\x7f' => s.push_str(&format!("\\x{:02X}", c as u32)),
                '\u{80}'..='\u{9f}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}' => s.push_str(&format!("\\u{{{:04X}}}", c as u32)),
                _ => s.push(c),
            }
        }
        for b in chunk.invalid() {
            s.push_str(&format!("\\x{b:02X}"));
        }
    }
    Cow::Owned(s)
}

#[cfg(test)]
mod tests {
    use super::Found;
    use crate::{UrlRef, Warning};
    use std::path::Path;

    /// The warnings of `text` by the plain path and by every check agree,
    /// and each one given unwritten is the warning written.
    fn agree(text: &str) {
        if let Ok(u) = UrlRef::parse(text) {
            let mut found = Found::new();
            u.all_checks(&mut found);
            let mut all: Vec<Warning> = Vec::new();
            found.each(|w| all.push(w.into()));
            let warnings = u.security_warnings();
            assert_eq!(warnings, all, "{text}");
            let mut each = Vec::new();
            u.for_each_security_warning(|w| each.push(w));
            assert_eq!(each.len(), warnings.len(), "{text}");
            for (w, written) in each.iter().zip(&warnings) {
                assert_eq!(&w.to_warning(), written, "{text}");
                assert_eq!(w.to_string(), written.to_string(), "{text}");
                let m = w.message();
                assert_eq!(m.to_string(), written.message(), "{text}");
                let mut joined = m.pieces()[0].to_owned();
                for (arg, piece) in m.args().zip(&m.pieces()[1..]) {
                    joined.push_str(arg);
                    joined.push_str(piece);
                }
                assert_eq!(joined, written.message(), "{text}");
            }
        }
    }

    #[test]
    fn the_plain_path_warns_as_every_check_does() {
        let schemes =
            ["http", "HTTP", "file", "ftp", "wais", "nntp", "prospero", "x-y", "gopher", "telnet", "news"];
        let logins = ["", "u@", "u:p@", "a.b.example@"];
        let hosts = [
            "h.example",
            "127.0.0.1",
            "localhost",
            "LocalHost.",
            "10.0.0.01",
            "300.1.1.1",
            "1.2.3.4.",
            "",
            "a1",
            "1a",
        ];
        let ports = ["", ":80", ":021", ":99999", ":6379"];
        let paths = [
            "",
            "/",
            "/a/b",
            "/../x",
            "/a/%2E%2E/b",
            "/%2Fetc",
            "/dev/x",
            "/%64ev/x",
            "//s/share",
            "/proc",
            "/a..b/c",
            "/7x%09y?z",
        ];
        for s in schemes {
            for l in logins {
                for h in hosts {
                    for p in ports {
                        for path in paths {
                            for f in ["", "#top", "#//evil.example"] {
                                agree(&format!("{s}://{l}{h}{p}{path}{f}"));
                            }
                        }
                    }
                }
            }
        }
        // More warnings than `Found` holds in place.
        let many = "ftp://www.a.example:pw@010.020.300.04:25/%0D%0A/../%2Fx/%00#@e";
        let mut count = 0;
        UrlRef::parse(many).expect("valid").for_each_security_warning(|_| count += 1);
        assert!(count > 4, "{count}");
        for text in ["mailto:a@b.example?cc=x", "news:a@10.0.0.1", "1x://h/", "telnet://-l@h/", many] {
            agree(text);
        }
        // The corpus, beside the workspace when it is there.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let dir = root
            .canonicalize()
            .ok()
            .and_then(|r| r.ancestors().map(|d| d.join("shared/corpus")).find(|d| d.is_dir()));
        for entry in dir.iter().flat_map(|d| std::fs::read_dir(d).into_iter().flatten()) {
            let text = std::fs::read(entry.expect("a corpus file").path()).unwrap_or_default();
            String::from_utf8_lossy(&text).lines().for_each(agree);
        }
    }
}
