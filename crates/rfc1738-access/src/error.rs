//! The one error type of access, with a variant per reason.

use std::fmt;
use std::io;
use std::time::Duration;

/// Why an access was refused or failed.
///
/// The refusals of RFC 1738 §6 ([`AccessError::Injection`],
/// [`AccessError::PrivilegedPort`]) and the other checks on the URL itself
/// ([`AccessError::Url`], [`AccessError::ForeignFileHost`],
/// [`AccessError::NotAutomated`], [`AccessError::NoNewsServer`]) are
/// returned before any connection is opened. The message ([`fmt::Display`])
/// is one lower-case line without a trailing period.
#[derive(Debug)]
#[non_exhaustive]
pub enum AccessError {
    /// The text is not a URL this crate can read.
    Url(String),
    /// §6: a decoded component holds an octet that would end or split a
    /// protocol line (CR, LF, NUL; TAB in a gopher selector; SP in an NNTP
    /// argument).
    Injection {
        /// Which component, e.g. `"ftp cwd segment"`.
        component: &'static str,
        /// The offending octet.
        octet: u8,
    },
    /// §6: an explicit port below 1024 that is not the scheme's default.
    PrivilegedPort {
        /// The scheme of the URL.
        scheme: String,
        /// The port the URL names.
        port: u16,
    },
    /// A server named a port to connect to (an ftp `EPSV` or `PASV` reply)
    /// that is 0 or below 1024: §6's rule holds for every connection, not
    /// only for the ports URLs name.
    ServerPort {
        /// What named the port, e.g. `"the EPSV reply"`.
        named_by: &'static str,
        /// The port.
        port: u16,
    },
    /// A news server setting (`--news-server`, `NNTPSERVER`) that is not
    /// `host`, `host:port`, `[v6]` or `[v6]:port` with a port from 1 to 65535.
    NewsServer {
        /// The setting as given.
        given: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A `file` URL path segment that decodes to a `/`: one segment is
    /// one file name, and no Unix file name holds a `/`; decoding it would
    /// open another path (the class of curl's CVE-2022-27780).
    EncodedSlash {
        /// The segment as written, e.g. `"etc%2Fmotd"`.
        segment: String,
    },
    /// A `file` URL whose host is neither empty nor `localhost` (§3.10).
    ForeignFileHost {
        /// The host the URL names.
        host: String,
    },
    /// A scheme whose access this crate describes but does not perform.
    NotAutomated {
        /// The scheme.
        scheme: String,
        /// What a client would do, and why it is not done here.
        advice: String,
    },
    /// A scheme RFC 1738 does not define.
    Unsupported {
        /// The scheme.
        scheme: String,
    },
    /// A `news` URL with no news server configured (§3.6: news URLs carry none).
    NoNewsServer,
    /// The server asked for a password, none is in the URL, and no prompt
    /// supplied one.
    PasswordRequired {
        /// The user name.
        user: String,
    },
    /// The connection could not be opened.
    Connect {
        /// `host:port`.
        address: String,
        /// The underlying error.
        source: io::Error,
    },
    /// A read, a write or a connection waited longer than `io_timeout`.
    Timeout,
    /// The whole access went past its deadline (`total_timeout`).
    Deadline {
        /// The time allowed for the whole access.
        limit: Duration,
    },
    /// The server sent more than a limit of the [`Options`](crate::Options)
    /// allows: the access stopped there, having kept no more than the limit.
    Limit {
        /// What was too long: `"the http response head"`, ...
        what: &'static str,
        /// The limit.
        limit: u64,
        /// The option that sets it (`max_header_bytes`, ...).
        option: &'static str,
    },
    /// The server closed the connection before it sent the length it
    /// announced (an http `Content-Length`, a gopher+ `+N` header): the
    /// resource is incomplete.
    Truncated {
        /// Content octets received.
        got: u64,
        /// Content octets announced.
        announced: u64,
    },
    /// The transfer exceeded the size limit.
    TooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// The server refused a command.
    Refused {
        /// The command as sent (a password is masked).
        command: String,
        /// The server's reply.
        reply: String,
    },
    /// The server's answer does not follow the protocol.
    Protocol(String),
    /// An http redirect that is not followed silently.
    Redirect {
        /// The `Location` the server named.
        location: String,
        /// Why it is not followed.
        reason: String,
    },
    /// Another I/O error (writing the output, reading a file).
    Io(io::Error),
}

impl AccessError {
    /// The error's id, one lower-case word or hyphenated words, as a
    /// diagnostic shows it (`error[privileged-port]`) and JSON keys it.
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self {
            AccessError::Url(_) => "invalid-url",
            AccessError::Injection { .. } => "injection",
            AccessError::PrivilegedPort { .. } => "privileged-port",
            AccessError::ServerPort { .. } => "server-port",
            AccessError::NewsServer { .. } => "news-server",
            AccessError::EncodedSlash { .. } => "encoded-slash",
            AccessError::ForeignFileHost { .. } => "foreign-file-host",
            AccessError::NotAutomated { .. } => "not-automated",
            AccessError::Unsupported { .. } => "unsupported",
            AccessError::NoNewsServer => "no-news-server",
            AccessError::PasswordRequired { .. } => "password-required",
            AccessError::Connect { .. } => "connect",
            AccessError::Timeout => "timeout",
            AccessError::Deadline { .. } => "deadline",
            AccessError::Limit { .. } => "limit",
            AccessError::Truncated { .. } => "truncated",
            AccessError::TooLarge { .. } => "too-large",
            AccessError::Refused { .. } => "refused",
            AccessError::Protocol(_) => "protocol",
            AccessError::Redirect { .. } => "redirect",
            AccessError::Io(_) => "io",
        }
    }
}

impl fmt::Display for AccessError {
    /// The message, escaped for a terminal: a reply, a status line or a
    /// location is the server's text, and may hold ESC or BEL.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = Message(self).to_string();
        f.write_str(&crate::plan::show(text.as_bytes()))
    }
}

/// The message as composed, before the escape.
struct Message<'e>(&'e AccessError);

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            AccessError::Url(msg) => write!(f, "invalid url: {msg}"),
            AccessError::Injection { component, octet } => write!(
                f,
                "refused: the {component} decodes to {} which would {} (RFC 1738 §6); nothing was sent",
                octet_name(*octet),
                match octet {
                    b'\t' | b' ' => "split the protocol line",
                    b'\r' | b'\n' | 0 => "end the protocol line",
                    _ => "break the syntax of the protocol line",
                }
            ),
            AccessError::PrivilegedPort { scheme, port } => write!(
                f,
                "refused: port {port} is below 1024 and is not the {scheme} default (RFC 1738 §6); allow it explicitly to connect"
            ),
            AccessError::ServerPort { named_by, port } => write!(
                f,
                "refused: {named_by} names port {port}, which is {} (RFC 1738 §6); allow it explicitly to connect",
                if *port == 0 { "not a port to connect to" } else { "below 1024" }
            ),
            AccessError::NewsServer { given, reason } => {
                write!(f, "invalid news server {given:?}: {reason}")
            }
            AccessError::EncodedSlash { segment } => write!(
                f,
                "refused: the file path segment {segment:?} decodes to a \"/\": a segment is one file name, which \
                 never holds \"/\", and decoding it would open another path (RFC 1738 §3.10); nothing was opened"
            ),
            AccessError::ForeignFileHost { host } => write!(
                f,
                "refused: file url names host {host:?}; only an empty host or \"localhost\" is this machine (RFC 1738 §3.10)"
            ),
            AccessError::NotAutomated { advice, .. } => f.write_str(advice),
            AccessError::Unsupported { scheme } => write!(f, "no access method for scheme {scheme:?}"),
            AccessError::NoNewsServer => f.write_str(
                "a news url names no server (RFC 1738 §3.6); give one with --news-server or NNTPSERVER",
            ),
            AccessError::PasswordRequired { user } => write!(f, "the server asks a password for user {user:?} and none was given"),
            AccessError::Connect { address, source } => write!(f, "cannot connect to {address}: {source}"),
            AccessError::Timeout => f.write_str("timed out: the server did not answer within the timeout of a read or write"),
            AccessError::Deadline { limit } => {
                write!(f, "timed out: the whole access took longer than its limit of {} s", limit.as_secs_f64())
            }
            AccessError::Limit { what, limit, option } => {
                write!(f, "stopped: {what} is longer than the limit of {limit} bytes ({option})")
            }
            AccessError::Truncated { got, announced } => write!(
                f,
                "incomplete: the server closed the connection after {got} of the {announced} bytes it announced"
            ),
            AccessError::TooLarge { limit } => write!(f, "stopped: the transfer exceeds the limit of {limit} bytes"),
            AccessError::Refused { command, reply } => write!(f, "the server refused {command:?}: {reply}"),
            AccessError::Protocol(msg) => write!(f, "protocol error: {msg}"),
            AccessError::Redirect { location, reason } => write!(f, "redirect to {location} not followed: {reason}"),
            AccessError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AccessError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AccessError::Connect { source, .. } | AccessError::Io(source) => Some(source),
            _ => None,
        }
    }
}

/// The payload of the I/O error a connection returns when the access's
/// deadline has passed.
#[derive(Debug)]
pub(crate) struct Deadline(pub Duration);

impl fmt::Display for Deadline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the access took longer than {} s", self.0.as_secs_f64())
    }
}

impl std::error::Error for Deadline {}

impl From<io::Error> for AccessError {
    fn from(e: io::Error) -> AccessError {
        if let Some(d) = e.get_ref().and_then(|inner| inner.downcast_ref::<Deadline>()) {
            return AccessError::Deadline { limit: d.0 };
        }
        match e.kind() {
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => AccessError::Timeout,
            _ => AccessError::Io(e),
        }
    }
}

/// The octet a refusal names, with its escape.
fn octet_name(b: u8) -> String {
    match b {
        b'\r' => "CR (%0D)".into(),
        b'\n' => "LF (%0A)".into(),
        0 => "NUL (%00)".into(),
        b'\t' => "TAB (%09)".into(),
        b' ' => "SP (%20)".into(),
        b'!'..=b'~' => format!("\"{}\" (%{b:02X})", b as char),
        _ => format!("the octet %{b:02X}"),
    }
}
