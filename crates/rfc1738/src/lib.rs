//! Uniform Resource Locators exactly as [RFC 1738] defines them.
//!
//! RFC 1738 (December 1994) gives URLs a generic syntax,
//! `<scheme>:<scheme-specific-part>` (§2.1), a character encoding with
//! `%HH` escapes and classes of unsafe and reserved characters (§2.2), the
//! Common Internet Scheme Syntax `//<user>:<password>@<host>:<port>/<url-path>`
//! (§3.1), and ten schemes, each with its own grammar and meaning (§3.2
//! to §3.11), all collected in the BNF of §5. Later specifications (RFC
//! 3986, WHATWG) dropped several of its distinctions; this crate keeps
//! them:
//!
//! - an empty user name is not an absent one (`ftp://@host/` vs `ftp://host/`);
//! - `%2F` in an ftp path stays inside one `CWD` argument (`/%2Fetc/motd`
//!   is `CWD /etc`), and an empty segment is a `CWD` with a null argument;
//! - a gopher search follows an encoded TAB (`%09`), not `?`;
//! - http URLs carry no user name or password;
//! - wais and prospero URLs have their own forms.
//!
//! # Terminology
//!
//! | term | meaning | section |
//! |---|---|---|
//! | scheme | the name before `:`, case-insensitive | §2.1 |
//! | escape | `%` and two hex digits, one octet | §2.2 |
//! | unsafe | characters that must always be encoded | §2.2 |
//! | reserved | `; / ? : @ = &`, special in some schemes | §2.2 |
//! | login | `[user[:password]@]host[:port]` | §3.1 |
//! | url-path | what follows the `/` after the login, that `/` excluded | §3.1 |
//! | fragment | what follows `#`: not part of the URL | §2.2, Appendix |
//!
//! # Examples
//!
//! ```
//! use rfc1738::{Url, SchemeKind};
//!
//! let url = Url::parse("ftp://myname@host.dom/%2Fetc/motd")?;
//! assert_eq!(url.kind(), SchemeKind::Ftp);
//! assert_eq!(url.user(), Some("myname"));
//! let plan: Vec<String> = url.ftp().unwrap().commands().iter().map(ToString::to_string).collect();
//! assert_eq!(plan, ["CWD /etc", "RETR motd"]);
//!
//! let err = Url::parse("http://host.dom/a b").unwrap_err();
//! assert_eq!((err.offset(), err.kind()), (17, rfc1738::ErrorKind::Unsafe));
//! # Ok::<(), rfc1738::ParseError>(())
//! ```
//!
//! Every scheme has a view that borrows the [`Url`]: [`Url::ftp`],
//! [`Url::http`], [`Url::gopher`], [`Url::mailto`], [`Url::news`],
//! [`Url::nntp`], [`Url::telnet`], [`Url::wais`], [`Url::file`],
//! [`Url::prospero`], [`Url::other`]. Percent-encoding lives in [`pct`].
//!
//! Beyond parsing:
//!
//! - [`Url::normalize`] and [`Url::equivalent`]: the normal form, which
//!   changes only what RFC 1738 says does not matter (an escaped reserved
//!   character stays escaped, §2.2);
//! - [`build`]: one builder per scheme, from decoded parts to a URL with the
//!   right escapes, or a [`build::BuildError`] naming the part;
//! - [`Url::parse_with`] and [`ParseOptions`]: strict by default, lenient on
//!   request, every accepted deviation a [`Warning`] with its offset;
//! - [`Url::security_warnings`] and [`Url::redacted`]: the risks §6 names
//!   (ports, encoded line breaks, passwords) and a few more.
//!
//! - [`Url::resolve`] and [`Url::make_relative`]: relative URLs by RFC 1808
//!   ([`resolve`]);
//! - [`bulk`]: many URLs in one buffer (the lines of a log, an Arrow
//!   column), classified 64 bytes at a time, a verdict for each;
//! - [`convert`]: to and from `url::Url`, `http::Uri`, and serde, each an
//!   optional feature, each loss named.
//!
//! [RFC 1738]: https://www.rfc-editor.org/rfc/rfc1738

// `unsafe` is denied everywhere but in `simd.rs`, the vector code of
// the bulk validator (see there); the feature `portable` leaves it out.
#![deny(unsafe_code)]

pub mod build;
pub mod bulk;
pub mod chars;
pub mod convert;
mod error;
pub mod extract;
mod fast;
mod host;
mod kind;
mod normalize;
mod options;
mod parse;
pub mod pct;
mod reader;
pub mod resolve;
pub mod scheme;
mod schemepart;
mod security;
mod simd;
#[cfg(test)]
mod testing;
mod url;
mod warning;

pub use error::{ErrorKind, ParseError, Rule};
pub use host::{MAX_LABEL, MAX_NAME};
pub use options::{ParseOptions, MAX_WARNINGS};
pub use parse::{validate, validate_bytes};
pub use reader::MAX_LEN;
pub use resolve::{ResolveError, ResolveErrorKind};
pub use scheme::ftp::{Cwd, Ftp, FtpCommand, FtpLogin};
pub use scheme::gopher::Gopher;
pub use scheme::http::Http;
pub use scheme::mailto::Mailto;
pub use scheme::news::News;
pub use scheme::nntp::Nntp;
pub use scheme::other::Other;
pub use scheme::prospero::Prospero;
pub use scheme::telnet::Telnet;
pub use scheme::wais::{Wais, WaisForm};
pub use scheme::SchemeKind;
pub use security::{escape_text, redact_text, REDACTED};
pub use url::{Url, UrlRef};
pub use warning::{Message, Warning, WarningKind, WarningRef};

/// The Rust examples of the README, run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeExamples;

/// The Rust examples of docs/LIBRARY.md, run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/LIBRARY.md")]
pub struct LibraryGuideExamples;
