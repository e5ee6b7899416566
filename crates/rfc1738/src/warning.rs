//! Warnings: problems that do not stop a URL from being used.
//!
//! A [`ParseError`](crate::ParseError) is fatal: there is no URL. A
//! [`Warning`] comes with a URL: either a deviation from §5 that a lenient
//! parse accepted ([`crate::ParseOptions`]), or a risk that §6 (or a careful
//! reviewer) asks users to weigh ([`crate::Url::security_warnings`]). Both
//! carry a byte offset into the input, like errors do.

use core::fmt;
use std::borrow::Cow;

/// What a [`Warning`] is about. Each variant says where its offset points.
///
/// The first group are deviations from §5 that [`crate::Url::parse_with`]
/// accepted (see [`crate::ParseOptions`]); the second group are the risks
/// of [`crate::Url::security_warnings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// The scheme has upper-case letters. §2.1 asks interpreters to accept
    /// them ("allow "HTTP" as well as "http""), so this is reported even by
    /// a strict parse, as a note; points at the first upper-case letter.
    UppercaseScheme,
    /// A §2.2 unsafe character (space, `{ } | \ ^ ~ [ ]` or `` ` ``) that
    /// should have been encoded; points at it.
    UnsafeChar,
    /// An `"_"` in a host name, which `hostname` does not allow (§3.1, RFC
    /// 1034 §3.5); points at it.
    UnderscoreInHost,
    /// A host name that ends with `"."`; points at the dot.
    TrailingDot,
    /// A `":"` after the host with no port after it; points after the `":"`.
    EmptyPort,
    /// A user name or password in a scheme whose grammar has none (http
    /// §3.3, gopher, nntp, wais, prospero, file); points at the user.
    DisallowedUser,
    /// A `"/"` or `"?"` left unencoded in a search (http §3.3, wais §3.9),
    /// where `search` does not allow it; points at it. (A gopher search
    /// allows both, §3.4.1.)
    ReservedInSearch,
    /// A `%` not followed by two hex digits, read as the character `%`
    /// (§2.2 `escape`); points at it.
    BarePercent,

    /// An explicit port that is not the scheme's default, 1024 or above
    /// (§6); points at the port.
    NonDefaultPort,
    /// An explicit port that is not the scheme's default and is below 1024,
    /// the reserved space where other protocols' servers listen (§6: a
    /// gopher URL sent to an SMTP server); points at the port.
    ForeignPort,
    /// An escape that decodes to CR, LF or NUL in a part that a client sends
    /// as (part of) a protocol line, or an escaped TAB that adds a field to
    /// a gopher request (§6: "embedded encoded delimiters"); points at the
    /// `"%"`.
    LineInjection,
    /// A non-empty password in the URL (§6: "clearly unwise"); points at
    /// the password. [`crate::Url::redacted`] gives a form safe to log.
    Password,
    /// A `hostnumber` group above 255, which no IPv4 address has, and which
    /// other software may wrap or read as a larger number; points at the
    /// group.
    HostnumberOutOfRange,
    /// A `hostnumber` group with a leading zero: decimal by the BNF, but
    /// octal to `inet_aton` and the software built on it; points at the
    /// group.
    HostnumberLeadingZero,
    /// A user name that looks like a host name (`ftp://www.bank.example@evil.example/`),
    /// so a reader may take it for the host; points at the user.
    MisleadingUser,
    /// An ftp or file path that leaves the starting directory: a `..`
    /// segment, or an ftp segment that decodes to an absolute path (§3.2.2
    /// `%2F`); points at the segment.
    DirectoryEscape,
    /// A host that names the machine itself or a private network
    /// (`localhost`, 127/8, 10/8, 172.16/12, 192.168/16, 169.254/16, 0/8):
    /// a server that fetches URLs for others can be made to reach its own
    /// network; points at the host.
    InternalHost,
    /// A file URL with a host other than `localhost`: §3.10 defines no
    /// protocol for it, and some systems open it as a network share,
    /// sending the user's credentials; points at the host.
    RemoteFile,
    /// A telnet user name that decodes to text starting with `"-"`: a
    /// client that passes it to a command (`telnet -l`) may read it as an
    /// option; points at the user.
    OptionInjection,
    /// A scheme name that starts with a digit, `+`, `-` or `.`: §2.1 allows
    /// it, but RFC 3986 and WHATWG readers need a letter first and read the
    /// text as a relative reference (the CVE-2023-24329 class of parser
    /// differential); points at the scheme.
    SchemeStart,
    /// A port with leading zeros (`:0080`): other readers disagree on it
    /// (some reject it, some read it as octal); points at the port.
    PortLeadingZero,
    /// A port above 65535: §5 `port = digits` gives it no range, as it
    /// gives `hostnumber` none, so the URL is valid, but no TCP port has
    /// that number and software that wraps it reaches another port
    /// (99999 is 34463 modulo 65536); points at the port.
    PortOutOfRange,
    /// A mailto address with `?` or `&`: RFC 6068 readers take what follows
    /// `?` as mail headers (`cc`, `body`); points at the character.
    MailtoHeaders,
    /// A fragment that looks like a login or a host (`#@evil.example`,
    /// `#//evil.example`): a reader that does not strip the fragment first
    /// sees another host; points at the `"#"`.
    FragmentAuthority,
    /// A file URL that names a device or a process file (`/dev/...`,
    /// `/proc/...`, `/sys/...`): opening it can block, never end, or read
    /// secrets; points at the path.
    DeviceFile,
    /// A file URL whose path starts with `//` (`file:////server/share`):
    /// Windows opens it as a share on another machine and sends the user's
    /// credentials there; points at the path.
    UncPath,
    /// More warnings than a parse keeps ([`crate::MAX_WARNINGS`]): this
    /// one stands for the rest and says how many; points at the first not
    /// listed.
    More,
    /// A gopher+ string with an encoded CR LF: the one multi-line form the
    /// RFC allows (a filled-in ASK form, §3.4), sent as it is; points at
    /// the first `%0D` or `%0A`.
    GopherForm,
    /// A `"?"` or `"/"` in a gopher search: §3.4.1 reserves neither
    /// ("Within the `<gopher-path>`, no characters are reserved"), but an
    /// RFC 3986 or WHATWG reader takes `"?"` to start a query and `"/"`
    /// to separate path segments, so it splits the search (and a relative
    /// reference resolved against the URL cuts it); points at the first.
    /// The gopher+ string is not checked: §3.4.4 and §3.4.8 put `"?"` and
    /// `"/"` there themselves.
    GopherSearchDelimiter,
}

impl WarningKind {
    /// A stable kebab-case identifier, used by the command's output.
    ///
    /// # Examples
    /// ```
    /// assert_eq!(rfc1738::WarningKind::ForeignPort.id(), "foreign-port");
    /// ```
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            WarningKind::UppercaseScheme => "uppercase-scheme",
            WarningKind::UnsafeChar => "unsafe-char",
            WarningKind::UnderscoreInHost => "underscore-in-host",
            WarningKind::TrailingDot => "trailing-dot",
            WarningKind::EmptyPort => "empty-port",
            WarningKind::DisallowedUser => "disallowed-user",
            WarningKind::ReservedInSearch => "reserved-in-search",
            WarningKind::BarePercent => "bare-percent",
            WarningKind::NonDefaultPort => "non-default-port",
            WarningKind::ForeignPort => "foreign-port",
            WarningKind::LineInjection => "line-injection",
            WarningKind::Password => "password",
            WarningKind::HostnumberOutOfRange => "hostnumber-out-of-range",
            WarningKind::HostnumberLeadingZero => "hostnumber-leading-zero",
            WarningKind::MisleadingUser => "misleading-user",
            WarningKind::DirectoryEscape => "directory-escape",
            WarningKind::InternalHost => "internal-host",
            WarningKind::RemoteFile => "remote-file",
            WarningKind::OptionInjection => "option-injection",
            WarningKind::SchemeStart => "scheme-start",
            WarningKind::PortLeadingZero => "port-leading-zero",
            WarningKind::PortOutOfRange => "port-out-of-range",
            WarningKind::MailtoHeaders => "mailto-headers",
            WarningKind::FragmentAuthority => "fragment-authority",
            WarningKind::DeviceFile => "device-file",
            WarningKind::UncPath => "unc-path",
            WarningKind::GopherForm => "gopher-form",
            WarningKind::More => "more",
            WarningKind::GopherSearchDelimiter => "gopher-search-delimiter",
        }
    }

    /// Whether this is a security risk (from
    /// [`crate::Url::security_warnings`]) rather than an accepted deviation
    /// from the grammar.
    ///
    /// # Examples
    /// ```
    /// use rfc1738::WarningKind;
    /// assert!(WarningKind::Password.is_security());
    /// assert!(!WarningKind::UnsafeChar.is_security());
    /// ```
    #[must_use]
    pub const fn is_security(self) -> bool {
        !matches!(
            self,
            WarningKind::UppercaseScheme
                | WarningKind::UnsafeChar
                | WarningKind::UnderscoreInHost
                | WarningKind::TrailingDot
                | WarningKind::EmptyPort
                | WarningKind::DisallowedUser
                | WarningKind::ReservedInSearch
                | WarningKind::BarePercent
                | WarningKind::More
        )
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A non-fatal problem with a URL: where, what, and why it matters.
///
/// # Examples
/// ```
/// use rfc1738::{ParseOptions, Url, WarningKind};
/// let (url, warnings) = Url::parse_with("http://my_host.example/", &ParseOptions::lenient())?;
/// assert_eq!(url.host(), Some("my_host.example"));
/// assert_eq!((warnings[0].offset(), warnings[0].kind()), (9, WarningKind::UnderscoreInHost));
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Warning {
    offset: usize,
    /// Octets covered: more than 1 for a run of one deviation.
    len: usize,
    kind: WarningKind,
    message: Cow<'static, str>,
}

impl Warning {
    pub(crate) fn new(offset: usize, kind: WarningKind, message: impl Into<Cow<'static, str>>) -> Warning {
        Warning { offset, len: 1, kind, message: message.into() }
    }

    /// One more run of the same deviation right after this one.
    pub(crate) fn lengthen(&mut self, by: usize) {
        self.len += by;
    }

    /// How many octets in a row, from [`Warning::offset`], show the same
    /// deviation: 1 but for a run (a thousand spaces make one warning).
    ///
    /// # Examples
    /// ```
    /// use rfc1738::{ParseOptions, Url};
    /// let (_, w) = Url::parse_with("http://h.example/a   b", &ParseOptions::lenient())?;
    /// assert_eq!((w.len(), w[0].offset(), w[0].len()), (1, 18, 3));
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    #[must_use]
    // A warning covers one octet at least: an `is_empty` would always be false.
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// The byte offset into the URL (as given, or as [`crate::Url::as_str`]
    /// holds it: the offsets are the same) that the warning is about.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What the warning is about.
    #[must_use]
    pub const fn kind(&self) -> WarningKind {
        self.kind
    }

    /// A one-line, lower-case message that says what was found and, for
    /// security warnings, what the risk is.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.len > 1 {
            return write!(
                f,
                "{} ({} in a row) at offset {} ({})",
                self.message,
                self.len,
                self.offset,
                self.kind.id()
            );
        }
        write!(f, "{} at offset {} ({})", self.message, self.offset, self.kind.id())
    }
}

/// A [`Warning`] as a check finds it, borrowing the URL's text: its
/// message is not written until it is asked for. What
/// [`crate::UrlRef::for_each_security_warning`] gives, for a caller that
/// reads many URLs and wants a warning's kind and offset, or its message
/// written once for all the rows that share it, without a `String` a row.
///
/// # Examples
/// ```
/// use rfc1738::{UrlRef, WarningKind};
/// let url = UrlRef::parse("file://nas.example/x")?;
/// url.for_each_security_warning(|w| {
///     assert_eq!((w.offset(), w.kind()), (7, WarningKind::RemoteFile));
///     assert_eq!(w.message().args().collect::<Vec<_>>(), ["nas.example"]);
///     assert_eq!(w.to_warning(), url.security_warnings()[0]);
/// });
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct WarningRef<'a> {
    offset: usize,
    kind: WarningKind,
    message: Message<'a>,
}

impl<'a> WarningRef<'a> {
    pub(crate) fn new(offset: usize, kind: WarningKind, message: impl Into<Message<'a>>) -> WarningRef<'a> {
        WarningRef { offset, kind, message: message.into() }
    }

    /// The byte offset into the URL, as [`Warning::offset`].
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// How many octets it covers, as [`Warning::len`]: 1 for each
    /// security warning.
    #[must_use]
    #[allow(clippy::len_without_is_empty, clippy::unused_self)]
    pub const fn len(&self) -> usize {
        1
    }

    /// What the warning is about.
    #[must_use]
    pub const fn kind(&self) -> WarningKind {
        self.kind
    }

    /// The message, not yet written: `to_string()` writes it.
    #[must_use]
    pub const fn message(&self) -> &Message<'a> {
        &self.message
    }

    /// The [`Warning`] it is, its message written.
    #[must_use]
    pub fn to_warning(&self) -> Warning {
        Warning { offset: self.offset, len: 1, kind: self.kind, message: self.message.to_cow() }
    }
}

impl From<WarningRef<'_>> for Warning {
    fn from(w: WarningRef<'_>) -> Warning {
        let message = match w.message.args {
            [Cow::Owned(text), _] if w.message.pieces == WHOLE => Cow::Owned(text),
            _ => w.message.to_cow(),
        };
        Warning { offset: w.offset, len: 1, kind: w.kind, message }
    }
}

impl fmt::Display for WarningRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {} ({})", self.message, self.offset, self.kind.id())
    }
}

/// A warning's message, not yet written: fixed texts
/// ([`Message::pieces`]) with the texts of this URL between them
/// ([`Message::args`]: a host, a path segment, a number). Two messages
/// with the same pieces (the same `&'static` slice) and the same args are
/// the same text, so a caller can tell them apart, or hold one copy of
/// each, by those alone.
///
/// # Examples
/// ```
/// let url = rfc1738::UrlRef::parse("file://nas.example/x")?;
/// url.for_each_security_warning(|w| {
///     let m = w.message();
///     assert_eq!(m.pieces()[0], "a file URL on host \"");
///     assert_eq!(m.args().next(), Some("nas.example"));
///     assert_eq!(m.to_string(), url.security_warnings()[0].message());
/// });
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Message<'a> {
    /// One more than the args: the message is `pieces[0] args[0]
    /// pieces[1] ...`.
    pieces: &'static [&'static str],
    args: [Cow<'a, str>; 2],
}

/// The pieces of a message written whole, its one arg.
const WHOLE: &[&str] = &["", ""];

impl<'a> Message<'a> {
    /// A message of fixed texts with `args` between them: one piece more
    /// than args, two args at most.
    pub(crate) fn of(pieces: &'static [&'static str], args: [&'a str; 2]) -> Message<'a> {
        debug_assert!((1..=3).contains(&pieces.len()), "two args at most");
        Message { pieces, args: args.map(Cow::Borrowed) }
    }

    /// A message with no arg.
    pub(crate) fn fixed(text: &'static [&'static str; 1]) -> Message<'a> {
        Message::of(text, ["", ""])
    }

    /// A message of one arg between fixed texts.
    pub(crate) fn around(pieces: &'static [&'static str; 2], arg: &'a str) -> Message<'a> {
        Message::of(pieces, [arg, ""])
    }

    /// The fixed texts, one more than [`Message::args`]: the message is
    /// the first piece, the first arg, the second piece, and so on. A
    /// message written whole has two empty pieces and itself as its arg.
    #[must_use]
    pub const fn pieces(&self) -> &'static [&'static str] {
        self.pieces
    }

    /// The texts between the pieces.
    #[must_use]
    pub fn args(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.args[..self.pieces.len() - 1].iter().map(|a| &**a)
    }

    /// The message written.
    fn to_cow(&self) -> Cow<'static, str> {
        if let [text] = self.pieces {
            return Cow::Borrowed(text);
        }
        let len =
            self.pieces.iter().map(|p| p.len()).sum::<usize>() + self.args().map(str::len).sum::<usize>();
        let mut s = String::with_capacity(len);
        for (i, p) in self.pieces.iter().enumerate() {
            if i > 0 {
                s.push_str(&self.args[i - 1]);
            }
            s.push_str(p);
        }
        Cow::Owned(s)
    }
}

impl From<String> for Message<'_> {
    fn from(text: String) -> Self {
        Message { pieces: WHOLE, args: [Cow::Owned(text), Cow::Borrowed("")] }
    }
}

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.pieces.iter().enumerate() {
            if i > 0 {
                f.write_str(&self.args[i - 1])?;
            }
            f.write_str(p)?;
        }
        Ok(())
    }
}
