//! Conversions to and from the URL types of the ecosystem, each behind a
//! feature that is off by default: `url` (`url::Url`, WHATWG), `http`
//! (`http::Uri`), `serde` (`Url` and `UrlRef` as their text).
//!
//! A conversion returns, beside the value, the list of what the target type
//! cannot hold or reads differently: each a [`Loss`], named and documented.
//! Nothing is lost silently: the `TryFrom` implementations fail when the
//! list is not empty; [`Converted`] gives both.

#[cfg(feature = "http")]
mod http;
#[cfg(feature = "serde")]
mod serde;
#[cfg(feature = "url")]
mod url;

use core::fmt;

use crate::{SchemeKind, Url};

/// A converted value and what the conversion lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Converted<T> {
    /// The value of the target type.
    pub value: T,
    /// What the target cannot hold or reads differently; empty when nothing.
    pub losses: Vec<Loss>,
}

/// What a conversion loses: an RFC 1738 distinction the target type does
/// not keep, or a rewriting of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Loss {
    /// An empty user name (`ftp://@host/`, §3.1) that the target reads as
    /// absent: for ftp that is a login as `anonymous` instead of an empty one.
    EmptyUser,
    /// An empty password (`ftp://user:@host/`, §3.1) that the target reads
    /// as absent.
    EmptyPassword,
    /// A user name or password the target type has no field for (it keeps
    /// them only as text of the authority).
    UserInfo,
    /// A `%2F` in an ftp path: by §3.2.2 it stays inside one `CWD`
    /// argument; the target knows no such rule.
    EncodedSlashInFtpPath,
    /// An ftp `;type=` (§3.2.2): the target keeps it as text of the path,
    /// not as the transfer type.
    FtpTypecode,
    /// A gopher search after `%09` (§3.4): the target keeps it as text of
    /// the path, not as a search.
    GopherSearch,
    /// A scheme of RFC 1738 whose rules the target does not know (it reads
    /// the URL by a generic syntax).
    UnknownScheme(SchemeKind),
    /// The fragment identifier, which the target type cannot hold.
    Fragment,
    /// The target writes the URL with another text (host case, a default
    /// port dropped, leading zeros of a port, `.` and `..` segments
    /// removed, `/` for an empty path, escapes): the text it writes.
    Rewritten(String),
}

impl Loss {
    /// A short identifier: `empty-user`, `rewritten`, ...
    #[must_use]
    pub fn id(&self) -> &'static str {
        match self {
            Loss::EmptyUser => "empty-user",
            Loss::EmptyPassword => "empty-password",
            Loss::UserInfo => "user-info",
            Loss::EncodedSlashInFtpPath => "ftp-encoded-slash",
            Loss::FtpTypecode => "ftp-typecode",
            Loss::GopherSearch => "gopher-search",
            Loss::UnknownScheme(_) => "unknown-scheme",
            Loss::Fragment => "fragment",
            Loss::Rewritten(_) => "rewritten",
        }
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loss::EmptyUser => f.write_str("an empty user name becomes an absent one (§3.1)"),
            Loss::EmptyPassword => f.write_str("an empty password becomes an absent one (§3.1)"),
            Loss::UserInfo => f.write_str("the user name and password are kept only as text"),
            Loss::EncodedSlashInFtpPath => f.write_str("%2F in an ftp path loses its §3.2.2 meaning"),
            Loss::FtpTypecode => f.write_str("the ftp ;type= is kept as path text (§3.2.2)"),
            Loss::GopherSearch => f.write_str("the gopher %09 search is kept as path text (§3.4)"),
            Loss::UnknownScheme(k) => write!(f, "the target does not know the rules of {} URLs", k.name()),
            Loss::Fragment => f.write_str("the fragment identifier is dropped"),
            Loss::Rewritten(text) => write!(f, "the target writes it as {text:?}"),
        }
    }
}

/// Why a conversion failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConvertError {
    /// The target type rejects the text; its message.
    Rejected(String),
    /// A `TryFrom` conversion that would lose something (the list).
    Lossy(Vec<Loss>),
    /// The text the other type holds is not an RFC 1738 URL.
    NotRfc1738(crate::ParseError),
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Rejected(m) => write!(f, "the target type rejects the URL: {m}"),
            ConvertError::Lossy(losses) => {
                f.write_str("the conversion would lose: ")?;
                for (i, l) in losses.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{l}")?;
                }
                Ok(())
            }
            ConvertError::NotRfc1738(e) => write!(f, "not an RFC 1738 URL: {e}"),
        }
    }
}

impl std::error::Error for ConvertError {}

/// The losses of meaning every target shares: what §3 gives a meaning to
/// beyond the text.
#[cfg_attr(not(any(feature = "url", feature = "http")), allow(dead_code))]
fn meaning_losses(url: &Url, losses: &mut Vec<Loss>) {
    let path = url.url_path().unwrap_or("");
    match url.kind() {
        SchemeKind::Ftp => {
            if path.contains("%2F") || path.contains("%2f") {
                losses.push(Loss::EncodedSlashInFtpPath);
            }
            if path.contains(";type=") {
                losses.push(Loss::FtpTypecode);
            }
        }
        SchemeKind::Gopher if url.gopher().is_some_and(|g| g.search().is_some()) => {
            losses.push(Loss::GopherSearch);
        }
        _ => {}
    }
}

/// `losses` empty: the value; otherwise [`ConvertError::Lossy`].
#[cfg_attr(not(any(feature = "url", feature = "http")), allow(dead_code))]
fn lossless<T>(c: Converted<T>) -> Result<T, ConvertError> {
    if c.losses.is_empty() {
        Ok(c.value)
    } else {
        Err(ConvertError::Lossy(c.losses))
    }
}
