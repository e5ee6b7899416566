//! Parse errors: where the input stopped matching, why, and in which rule.

use core::fmt;

/// The BNF production (RFC 1738 §5) being matched when an error occurred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[allow(missing_docs)] // each variant is the §5 rule of the same name
pub enum Rule {
    Scheme,
    Schemepart,
    IpSchemepart,
    Login,
    User,
    Password,
    Hostport,
    Host,
    Hostname,
    Hostnumber,
    Port,
    Urlpath,
    Fpath,
    Ftptype,
    Hpath,
    Search,
    Gtype,
    Selector,
    GopherPlusString,
    Encoded822addr,
    Grouppart,
    Group,
    Article,
    ArticleNumber,
    Database,
    Wtype,
    Wpath,
    Ppath,
    Fieldspec,
    Fragment,
}

impl Rule {
    /// The rule's name as §5 writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Scheme => "scheme",
            Rule::Schemepart => "schemepart",
            Rule::IpSchemepart => "ip-schemepart",
            Rule::Login => "login",
            Rule::User => "user",
            Rule::Password => "password",
            Rule::Hostport => "hostport",
            Rule::Host => "host",
            Rule::Hostname => "hostname",
            Rule::Hostnumber => "hostnumber",
            Rule::Port => "port",
            Rule::Urlpath => "urlpath",
            Rule::Fpath => "fpath",
            Rule::Ftptype => "ftptype",
            Rule::Hpath => "hpath",
            Rule::Search => "search",
            Rule::Gtype => "gtype",
            Rule::Selector => "selector",
            Rule::GopherPlusString => "gopher+_string",
            Rule::Encoded822addr => "encoded822addr",
            Rule::Grouppart => "grouppart",
            Rule::Group => "group",
            Rule::Article => "article",
            Rule::ArticleNumber => "article-number",
            Rule::Database => "database",
            Rule::Wtype => "wtype",
            Rule::Wpath => "wpath",
            Rule::Ppath => "ppath",
            Rule::Fieldspec => "fieldspec",
            Rule::Fragment => "fragment",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why the input does not match. Each variant says where its offset points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input does not start with a scheme character (offset 0).
    EmptyScheme,
    /// The scheme is not followed by `":"`; points at the first byte that
    /// is neither a scheme character nor `":"`, or at the end.
    MissingColon,
    /// A control character (00-1F, 7F) that must be encoded (§2.2); points at it.
    ControlChar,
    /// An octet 80-FF (a non-ASCII character) that must be encoded (§2.2);
    /// points at its first byte.
    NonAscii,
    /// An unsafe character (space, `< > " # { } | \ ^ ~ [ ] \``) that must be
    /// encoded (§2.2); points at it.
    Unsafe,
    /// A reserved character that this part does not allow unencoded (§2.2);
    /// points at it.
    Reserved,
    /// A graphic character this rule does not allow here; points at it.
    InvalidChar,
    /// A `%` not followed by two hex digits (§2.2 `escape`); points at the `%`.
    InvalidEscape,
    /// The input ended where the rule needs more; points at the end.
    UnexpectedEnd,
    /// The scheme needs `"//"` after `":"` (§3.1); points after the colon.
    ExpectedDoubleSlash,
    /// The scheme needs `"/"` before its url-path; points where it should be.
    ExpectedSlash,
    /// No host where §3.1 needs one; points where it should start.
    EmptyHost,
    /// An empty label (two dots, or a leading dot); points at the dot.
    EmptyLabel,
    /// The host ends with a dot, which `hostname` does not allow; points at it.
    TrailingDot,
    /// A label starts or ends with `"-"` (§3.1, RFC 1034 §3.5); points at it.
    LabelHyphen,
    /// A label is longer than 63 characters (RFC 1034 §3.5); points at its
    /// 64th character.
    LabelTooLong,
    /// The host name is longer than 253 characters (RFC 1034 §3.1: 255
    /// octets on the wire); points at its 254th character.
    HostTooLong,
    /// The rightmost label starts with a digit, so the host must be a
    /// `hostnumber` of four digit groups, and is not; points at the first
    /// byte that breaks it.
    InvalidHostnumber,
    /// A `":"` with no digits after it (`port = digits`); points after it.
    EmptyPort,
    /// A port above 65535, which no TCP or UDP port can be; points at it.
    /// The parse no longer gives it: §5 gives `port` no range, so such a
    /// port is valid and [`crate::WarningKind::PortOutOfRange`] reports it
    /// (docs/DIFFERENCES.md); the kind stays for code that names it.
    PortOutOfRange,
    /// A user name or password in a scheme that allows none (http §3.3,
    /// gopher, nntp, wais, prospero §3.11, file); points at the user.
    UserNotAllowed,
    /// A port in a file URL, whose BNF has none (§3.10); points at the `":"`.
    PortNotAllowed,
    /// `";type="` not followed by exactly one of `a i d A I D` (§3.2.2);
    /// points after `"="`, or at the `";"` when `"type="` does not follow.
    InvalidTypecode,
    /// A news group name that does not start with a letter, or nothing
    /// where a group is needed; points at the offending byte.
    InvalidGroup,
    /// An nntp article number that is not `digits` or does not fit 64
    /// bits; points at its start.
    InvalidArticleNumber,
    /// A news article id with no `unique` part before `"@"`; points at `"@"`.
    EmptyArticleId,
    /// The mailto address is not an RFC 822 `addr-spec` once decoded;
    /// points at the (encoded) octet where it stops matching.
    InvalidAddress,
    /// The input is longer than [`crate::MAX_LEN`]; points at the first
    /// byte past the limit.
    TooLong,
}

impl ErrorKind {
    /// A one-line, lower-case description.
    #[must_use]
    pub const fn message(self) -> &'static str {
        match self {
            ErrorKind::EmptyScheme => "a URL starts with a scheme name",
            ErrorKind::MissingColon => "the scheme must be followed by \":\"",
            ErrorKind::ControlChar => "control character must be encoded",
            ErrorKind::NonAscii => "non-ASCII octet must be encoded",
            ErrorKind::Unsafe => "unsafe character must be encoded",
            ErrorKind::Reserved => "reserved character must be encoded here",
            ErrorKind::InvalidChar => "character not allowed here",
            ErrorKind::InvalidEscape => "\"%\" must be followed by two hex digits",
            ErrorKind::UnexpectedEnd => "the URL ends too early",
            ErrorKind::ExpectedDoubleSlash => "expected \"//\" after the scheme",
            ErrorKind::ExpectedSlash => "expected \"/\" before the path",
            ErrorKind::EmptyHost => "the host is empty",
            ErrorKind::EmptyLabel => "empty label in host name",
            ErrorKind::TrailingDot => "a host name does not end with \".\"",
            ErrorKind::LabelHyphen => "a host label neither starts nor ends with \"-\"",
            ErrorKind::LabelTooLong => "a host label has at most 63 characters",
            ErrorKind::HostTooLong => "a host name has at most 253 characters",
            ErrorKind::InvalidHostnumber => {
                "the last label starts with a digit, so the host must be four digit groups"
            }
            ErrorKind::EmptyPort => "\":\" must be followed by a port number",
            ErrorKind::PortOutOfRange => "the port is above 65535",
            ErrorKind::UserNotAllowed => "this scheme allows no user name or password",
            ErrorKind::PortNotAllowed => "this scheme allows no port",
            ErrorKind::InvalidTypecode => "expected \";type=\" and one of a, i, d",
            ErrorKind::InvalidGroup => "a news group name starts with a letter",
            ErrorKind::InvalidArticleNumber => "an article number is decimal digits",
            ErrorKind::EmptyArticleId => "a message id needs text before \"@\"",
            ErrorKind::InvalidAddress => "not an RFC 822 addr-spec",
            ErrorKind::TooLong => "the URL is longer than the limit",
        }
    }

    /// A stable kebab-case identifier, used by the command's JSON.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            ErrorKind::EmptyScheme => "empty-scheme",
            ErrorKind::MissingColon => "missing-colon",
            ErrorKind::ControlChar => "control-char",
            ErrorKind::NonAscii => "non-ascii",
            ErrorKind::Unsafe => "unsafe",
            ErrorKind::Reserved => "reserved",
            ErrorKind::InvalidChar => "invalid-char",
            ErrorKind::InvalidEscape => "invalid-escape",
            ErrorKind::UnexpectedEnd => "unexpected-end",
            ErrorKind::ExpectedDoubleSlash => "expected-double-slash",
            ErrorKind::ExpectedSlash => "expected-slash",
            ErrorKind::EmptyHost => "empty-host",
            ErrorKind::EmptyLabel => "empty-label",
            ErrorKind::TrailingDot => "trailing-dot",
            ErrorKind::LabelHyphen => "label-hyphen",
            ErrorKind::LabelTooLong => "label-too-long",
            ErrorKind::HostTooLong => "host-too-long",
            ErrorKind::InvalidHostnumber => "invalid-hostnumber",
            ErrorKind::EmptyPort => "empty-port",
            ErrorKind::PortOutOfRange => "port-out-of-range",
            ErrorKind::UserNotAllowed => "user-not-allowed",
            ErrorKind::PortNotAllowed => "port-not-allowed",
            ErrorKind::InvalidTypecode => "invalid-typecode",
            ErrorKind::InvalidGroup => "invalid-group",
            ErrorKind::InvalidArticleNumber => "invalid-article-number",
            ErrorKind::EmptyArticleId => "empty-article-id",
            ErrorKind::InvalidAddress => "invalid-address",
            ErrorKind::TooLong => "too-long",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// Why and where a URL failed to parse.
///
/// `offset` is a byte index into the input: the first byte that no rule
/// accepts, or the input's length when it ended too early. Each
/// [`ErrorKind`] documents where it points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// Stored in 32 bits (inputs are at most [`crate::MAX_LEN`] bytes), so
    /// that an error is one machine word and comes back in a register.
    offset: u32,
    kind: ErrorKind,
    rule: Rule,
}

impl ParseError {
    #[cold]
    pub(crate) const fn new(offset: usize, kind: ErrorKind, rule: Rule) -> ParseError {
        // The parser refuses longer inputs first; saturate all the same.
        let offset = if offset > u32::MAX as usize { u32::MAX } else { offset as u32 };
        ParseError { offset, kind, rule }
    }
    /// The byte offset into the input where it stopped matching.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset as usize
    }
    /// Why it stopped matching.
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }
    /// The §5 rule that was being matched.
    #[must_use]
    pub const fn rule(&self) -> Rule {
        self.rule
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {} (in {})", self.kind, self.offset, self.rule)
    }
}

impl std::error::Error for ParseError {}
