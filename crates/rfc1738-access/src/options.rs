//! What the caller decides: limits, the §6 port policy, identities.

use crate::AccessError;
use std::fmt;
use std::time::Duration;

/// Asks the end user for a password: called with the user name and the
/// host; `None` means the user declined.
pub type PasswordPrompt = Box<dyn Fn(&str, &str) -> Option<String>>;

/// How gopher menus (types 1 and 7) are written to the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MenuOutput {
    /// The menu as the server sent it.
    #[default]
    Raw,
    /// One item a line: type, TAB, display string, TAB, the item's URL.
    Items,
}

/// Limits and choices for one access.
///
/// # Examples
/// ```
/// let mut opts = rfc1738_access::Options::default();
/// opts.allow_privileged_ports = true;
/// opts.max_bytes = 1 << 20;
/// ```
pub struct Options {
    /// Limit for connecting and for each read or write.
    pub io_timeout: Duration,
    /// Limit for the whole access, connection to last byte.
    pub total_timeout: Duration,
    /// The most octets of content written to the output.
    pub max_bytes: u64,
    /// The most octets of a reply's head: an http status line and its
    /// headers, an ftp or nntp reply (all the lines of a multi-line one).
    pub max_header_bytes: usize,
    /// The most header lines of an http response.
    pub max_headers: usize,
    /// The longest line read from a server: a reply line, an nntp article
    /// line, a gopher menu line, an http chunk size.
    pub max_line: usize,
    /// §6: connect to an explicit, non-default port below 1024.
    pub allow_privileged_ports: bool,
    /// The anonymous ftp password: the end user's e-mail address (§3.2.1).
    pub email: String,
    /// The NNTP server for `news` URLs, `host` and port.
    pub news_server: Option<(String, u16)>,
    /// The most http redirects followed.
    pub max_redirects: u32,
    /// Asks for a password when a URL names a user without one.
    pub password_prompt: Option<PasswordPrompt>,
    /// How gopher menus are written.
    pub menus: MenuOutput,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            io_timeout: Duration::from_secs(30),
            total_timeout: Duration::from_secs(600),
            max_bytes: 1 << 30,
            max_header_bytes: 64 << 10,
            max_headers: 100,
            max_line: 16 << 10,
            allow_privileged_ports: false,
            email: "anonymous@localhost".to_string(),
            news_server: None,
            max_redirects: 5,
            password_prompt: None,
            menus: MenuOutput::Raw,
        }
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("io_timeout", &self.io_timeout)
            .field("total_timeout", &self.total_timeout)
            .field("max_bytes", &self.max_bytes)
            .field("max_header_bytes", &self.max_header_bytes)
            .field("max_headers", &self.max_headers)
            .field("max_line", &self.max_line)
            .field("allow_privileged_ports", &self.allow_privileged_ports)
            .field("email", &self.email)
            .field("news_server", &self.news_server)
            .field("max_redirects", &self.max_redirects)
            .field("password_prompt", &self.password_prompt.is_some())
            .field("menus", &self.menus)
            .finish()
    }
}

/// Reads a news server setting (`--news-server`, `NNTPSERVER`): `host`,
/// `host:port`, `[v6]` or `[v6]:port`; the port from 1 to 65535, 119 when
/// absent. The port is then held to the same §6 rule as a URL's.
///
/// # Examples
/// ```
/// use rfc1738_access::news_server;
/// assert_eq!(news_server("news.example").unwrap(), ("news.example".to_string(), 119));
/// assert_eq!(news_server("[::1]:1190").unwrap(), ("::1".to_string(), 1190));
/// assert!(news_server("news.example:0").is_err());
/// ```
///
/// # Errors
/// [`AccessError::NewsServer`] with the reason.
pub fn news_server(given: &str) -> Result<(String, u16), AccessError> {
    let bad = |reason| AccessError::NewsServer { given: given.to_string(), reason };
    let (host, port) = if let Some(rest) = given.strip_prefix('[') {
        let (v6, after) = rest.split_once(']').ok_or_else(|| bad("a \"[\" without its \"]\""))?;
        v6.parse::<std::net::Ipv6Addr>().map_err(|_| bad("not an IPv6 address inside [ ]"))?;
        match after {
            "" => (v6, None),
            _ => {
                (v6, Some(after.strip_prefix(':').ok_or_else(|| bad("text after \"]\" that is not :port"))?))
            }
        }
    } else {
        match given.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (given, None),
        }
    };
    let host_ok = !host.is_empty()
        && (host.contains(':') || host.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b)));
    if !host_ok {
        return Err(bad("the host is empty or holds a character no host name has"));
    }
    let port = match port {
        None => 119,
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => {
            p.parse::<u16>().ok().filter(|&n| n != 0).ok_or_else(|| bad("the port is not from 1 to 65535"))?
        }
        Some(_) => return Err(bad("the port is not from 1 to 65535")),
    };
    Ok((host.to_string(), port))
}
