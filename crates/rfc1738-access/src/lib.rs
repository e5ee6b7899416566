//! Access: do what an RFC 1738 URL locates.
//!
//! RFC 1738 §3 says, scheme by scheme, what a client does with a URL: for
//! `ftp` the login and one `CWD` per directory segment (§3.2), for `gopher`
//! the selector, search and Gopher+ string sent on one line (§3.4), for
//! `http` a request of the path and search (§3.3), for `file` a file of this
//! machine (§3.10), for `news` and `nntp` an article or a group from a news
//! server (§3.6, §3.7). This crate performs those exchanges with blocking
//! I/O, timeouts and a size limit, and for `telnet`, `mailto`, `wais` and
//! `prospero` says what a client would do instead ([`AccessError::NotAutomated`]).
//!
//! Safety (§6) comes first: every decoded component that reaches a protocol
//! line is checked for CR, LF and NUL (and TAB in a gopher selector, SP in an
//! NNTP argument), and an explicit port below 1024 other than the scheme's
//! default is refused unless [`Options::allow_privileged_ports`] is set. Both
//! checks, and the others on the URL, run before any connection: [`plan`]
//! makes them too, and shows the exchange without connecting.
//!
//! # Examples
//! ```
//! use rfc1738_access::{plan, AccessError, Options};
//! let opts = Options::default();
//! // §3.2.2: "//etc/motd" is a CWD with a null argument, then CWD etc.
//! let p = plan("ftp://myname@host.dom//etc/motd", &opts)?;
//! assert_eq!(p.sent()[1..3], [b"CWD ".as_slice(), b"CWD etc"]);
//! // §6: an encoded CR LF never reaches the server.
//! let refused = plan("ftp://host.dom/a%0D%0ADELE%20x/f", &opts);
//! assert!(matches!(refused, Err(AccessError::Injection { octet: b'\r', .. })));
//! // §6: a gopher URL aimed at an SMTP port is refused.
//! assert!(matches!(plan("gopher://host.dom:25/0x", &opts), Err(AccessError::PrivilegedPort { port: 25, .. })));
//! # Ok::<(), AccessError>(())
//! ```
#![forbid(unsafe_code)]

mod advice;
mod error;
mod fetched;
mod ftp;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
mod gopher;
mod http;
mod menu;
mod net;
mod news;
mod options;
mod plan;
mod target;
mod trace;
mod wire;

pub(crate) use rfc1738::{pct::decode, SchemeKind, Url};

pub use error::AccessError;
pub use fetched::{Content, Fetched};
pub use menu::{parse_menu, MenuItem};
pub use options::{news_server, MenuOutput, Options, PasswordPrompt};
pub use plan::{show, Plan, Step};
pub use trace::{Event, NoTrace, Trace};
pub use wire::{Chunk, Wire};

use std::io::Write;
use target::Target;

/// The exchange `fetch` would perform for `url`, computed without
/// connecting; every check `fetch` makes first is made here too.
///
/// # Errors
/// The refusals of §6 ([`AccessError::Injection`],
/// [`AccessError::PrivilegedPort`]), a URL that does not parse
/// ([`AccessError::Url`]), a `file` URL for another host, a `news` URL with
/// no server configured, a scheme with no access method.
pub fn plan(url: &str, opts: &Options) -> Result<Plan, AccessError> {
    Ok(plan_of(&Target::new(url, opts)?))
}

/// The exchange, as `--plan` prints it: each protocol writes its own steps.
fn plan_of(target: &Target) -> Plan {
    let mut plan = Plan::default();
    match target {
        Target::Ftp(t) => ftp::plan(t, &mut plan),
        Target::Gopher(t) => gopher::plan(t, &mut plan),
        Target::Http { ep, target } => http::plan(ep, target, &mut plan),
        Target::File(path) => plan.push(Step::Open(path.clone())),
        Target::Nntp(t) => news::plan(t, &mut plan),
        Target::Describe { advice, .. } => plan.note(advice.clone()),
    }
    plan
}

/// Retrieves what `url` locates and writes it to `out`, reporting the
/// exchange to `trace` as it happens.
///
/// # Examples
/// ```
/// use rfc1738_access::{fetch, NoTrace, Options};
/// let dir = std::env::temp_dir().join("rfc1738-access-doc.txt");
/// std::fs::write(&dir, "local")?;
/// let mut out = Vec::new();
/// fetch(&format!("file://localhost{}", dir.display()), &Options::default(), &mut NoTrace, &mut out)?;
/// assert_eq!(out, b"local");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Everything [`plan`] refuses, before connecting; then
/// [`AccessError::Connect`], [`AccessError::Timeout`],
/// [`AccessError::TooLarge`], [`AccessError::Refused`] when the server
/// declines a command, [`AccessError::Redirect`] for an http redirect that
/// is not followed, [`AccessError::NotAutomated`] for telnet, mailto, wais
/// and prospero URLs.
pub fn fetch(
    url: &str,
    opts: &Options,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    run(url, net::Budget::new(opts), trace, out)
}

/// [`fetch`], with the bytes of every connection recorded into `wire` as
/// they cross the wire: what an archive keeps of an http exchange, before
/// any decoding.
///
/// # Examples
/// ```
/// use rfc1738_access::{fetch_recorded, NoTrace, Options, Wire};
/// let wire = Wire::default();
/// // Refused before connecting: nothing crossed the wire.
/// assert!(fetch_recorded("gopher://h.example:25/0x", &Options::default(), &mut NoTrace, &mut Vec::new(), &wire).is_err());
/// assert_eq!(wire.connections(), 0);
/// ```
///
/// # Errors
/// Those of [`fetch`].
pub fn fetch_recorded(
    url: &str,
    opts: &Options,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
    wire: &Wire,
) -> Result<Fetched, AccessError> {
    run(url, net::Budget::recorded(opts, wire.clone()), trace, out)
}

/// Connections kept open from one access to the next: one ftp control
/// connection per server and login, logged in once (RFC 959 carries any
/// number of transfers on one control connection). Dropping it ends each
/// with `QUIT`.
#[derive(Default)]
pub struct Sessions {
    ftp: ftp::Sessions,
}

impl Sessions {
    /// The control connections open.
    #[must_use]
    pub fn open(&self) -> usize {
        self.ftp.len()
    }
}

impl Drop for Sessions {
    fn drop(&mut self) {
        for (_, session) in self.ftp.drain() {
            session.quit();
        }
    }
}

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sessions").field("ftp", &self.ftp.len()).finish()
    }
}

/// [`fetch`], over the connections `sessions` keeps: an ftp URL whose
/// server and login had a URL before goes on on its control connection
/// (§3.2.2: from the directory it stands in, up one `CDUP` per segment,
/// checked by `PWD`, and down one `CWD` per segment), else logs in and
/// keeps the connection. The other schemes connect each time.
///
/// # Examples
/// ```
/// use rfc1738_access::{fetch_in, NoTrace, Options, Sessions};
/// let mut sessions = Sessions::default();
/// // Refused before connecting: no connection is kept.
/// assert!(fetch_in("ftp://h.example:25/f", &Options::default(), &mut sessions, &mut NoTrace, &mut Vec::new()).is_err());
/// assert_eq!(sessions.open(), 0);
/// ```
///
/// # Errors
/// Those of [`fetch`].
pub fn fetch_in(
    url: &str,
    opts: &Options,
    sessions: &mut Sessions,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    let mut budget = net::Budget::new(opts);
    match Target::new(url, opts)? {
        Target::Ftp(t) => ftp::fetch_in(&t, &mut budget, trace, out, &mut sessions.ftp),
        _ => run(url, budget, trace, out),
    }
}

fn run(
    url: &str,
    mut budget: net::Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    let target = Target::new(url, budget.opts)?;
    match &target {
        Target::Ftp(t) => ftp::fetch(t, &mut budget, trace, out),
        Target::Gopher(t) => gopher::fetch(t, &mut budget, trace, out),
        Target::Http { ep, target } => http::fetch(ep, target, &mut budget, trace, out),
        Target::File(path) => file(path, &mut budget, trace, out),
        Target::Nntp(t) => news::fetch(t, &mut budget, trace, out),
        Target::Describe { scheme, advice } => {
            Err(AccessError::NotAutomated { scheme: scheme.clone(), advice: advice.clone() })
        }
    }
}

/// §3.10: a file of this machine, read within the access's deadline.
fn file(
    path: &std::path::Path,
    budget: &mut net::Budget<'_>,
    trace: &mut dyn Trace,
    out: &mut dyn Write,
) -> Result<Fetched, AccessError> {
    let bytes = net::copy_file(path.to_path_buf(), budget, trace, out)?;
    Ok(Fetched { bytes, content: Content::Data })
}
