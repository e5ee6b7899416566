//! One module per scheme of §3: its grammar, its typed view, its meaning.

use crate::error::ParseError;
use crate::parse::Parser;
use crate::url::Parts;
use file::File;
use ftp::Ftp;
use gopher::Gopher;
use http::Http;
use mailto::Mailto;
use news::News;
use nntp::Nntp;
use other::Other;
use prospero::Prospero;
use telnet::Telnet;
use wais::Wais;

pub mod file;
pub mod ftp;
pub mod gopher;
pub mod http;
pub mod mailto;
pub mod news;
pub mod nntp;
pub mod other;
pub mod prospero;
pub mod telnet;
pub mod wais;

/// The schemes RFC 1738 §3 defines, and `Other` for every other name
/// (§5 `otherurl = genericurl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemeKind {
    /// §3.2 File Transfer Protocol.
    Ftp,
    /// §3.3 Hypertext Transfer Protocol.
    Http,
    /// §3.4 The Gopher protocol.
    Gopher,
    /// §3.5 Electronic mail address.
    Mailto,
    /// §3.6 USENET news.
    News,
    /// §3.7 USENET news using NNTP access.
    Nntp,
    /// §3.8 Reference to interactive sessions.
    Telnet,
    /// §3.9 Wide Area Information Servers.
    Wais,
    /// §3.10 Host-specific file names.
    File,
    /// §3.11 Prospero Directory Service.
    Prospero,
    /// Any other scheme, read with the generic syntax.
    Other,
}

impl SchemeKind {
    /// The kind of a scheme name, compared without regard to case (§2.1).
    #[must_use]
    pub fn from_bytes(name: &[u8]) -> SchemeKind {
        let candidate = match (name.len(), name.first().map(u8::to_ascii_lowercase)) {
            (3, Some(b'f')) => (SchemeKind::Ftp, "ftp"),
            (4, Some(b'h')) => (SchemeKind::Http, "http"),
            (4, Some(b'f')) => (SchemeKind::File, "file"),
            (4, Some(b'w')) => (SchemeKind::Wais, "wais"),
            (4, Some(b'n')) if name[1].eq_ignore_ascii_case(&b'e') => (SchemeKind::News, "news"),
            (4, Some(b'n')) => (SchemeKind::Nntp, "nntp"),
            (6, Some(b'g')) => (SchemeKind::Gopher, "gopher"),
            (6, Some(b'm')) => (SchemeKind::Mailto, "mailto"),
            (6, Some(b't')) => (SchemeKind::Telnet, "telnet"),
            (8, Some(b'p')) => (SchemeKind::Prospero, "prospero"),
            _ => return SchemeKind::Other,
        };
        if name.eq_ignore_ascii_case(candidate.1.as_bytes()) {
            candidate.0
        } else {
            SchemeKind::Other
        }
    }

    /// The default port of §3 (none for mailto, news, file and others).
    #[must_use]
    pub const fn default_port(self) -> Option<u16> {
        match self {
            SchemeKind::Ftp => Some(21),
            SchemeKind::Http => Some(80),
            SchemeKind::Gopher => Some(70),
            SchemeKind::Nntp => Some(119),
            SchemeKind::Telnet => Some(23),
            SchemeKind::Wais => Some(210),
            SchemeKind::Prospero => Some(1525),
            SchemeKind::Mailto | SchemeKind::News | SchemeKind::File | SchemeKind::Other => None,
        }
    }

    /// The lower-case name (`"other"` for [`SchemeKind::Other`]).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SchemeKind::Ftp => "ftp",
            SchemeKind::Http => "http",
            SchemeKind::Gopher => "gopher",
            SchemeKind::Mailto => "mailto",
            SchemeKind::News => "news",
            SchemeKind::Nntp => "nntp",
            SchemeKind::Telnet => "telnet",
            SchemeKind::Wais => "wais",
            SchemeKind::File => "file",
            SchemeKind::Prospero => "prospero",
            SchemeKind::Other => "other",
        }
    }

    /// The section of RFC 1738 that defines the scheme.
    #[must_use]
    pub const fn section(self) -> &'static str {
        match self {
            SchemeKind::Ftp => "3.2",
            SchemeKind::Http => "3.3",
            SchemeKind::Gopher => "3.4",
            SchemeKind::Mailto => "3.5",
            SchemeKind::News => "3.6",
            SchemeKind::Nntp => "3.7",
            SchemeKind::Telnet => "3.8",
            SchemeKind::Wais => "3.9",
            SchemeKind::File => "3.10",
            SchemeKind::Prospero => "3.11",
            SchemeKind::Other => "5",
        }
    }
}

/// Parses the scheme-specific part from `i` (just after the `":"`).
pub(crate) fn parse(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    match parts.kind {
        SchemeKind::Ftp => ftp::parse(p, parts, i),
        SchemeKind::Http => http::parse(p, parts, i),
        SchemeKind::Gopher => gopher::parse(p, parts, i),
        SchemeKind::Mailto => mailto::parse(p, parts, i),
        SchemeKind::News => news::parse(p, parts, i),
        SchemeKind::Nntp => nntp::parse(p, parts, i),
        SchemeKind::Telnet => telnet::parse(p, parts, i),
        SchemeKind::Wais => wais::parse(p, parts, i),
        SchemeKind::File => file::parse(p, parts, i),
        SchemeKind::Prospero => prospero::parse(p, parts, i),
        SchemeKind::Other => other::parse(p, parts, i),
    }
}

macro_rules! views {
    ($($(#[$doc:meta])* $method:ident => $kind:ident, $view:ident;)*) => {
        impl<'a> crate::UrlRef<'a> {
            $(
                $(#[$doc])*
                #[must_use]
                pub fn $method(&self) -> Option<$view<'a>> {
                    (self.kind() == SchemeKind::$kind).then(|| $view::new(*self))
                }
            )*
        }
        impl crate::Url {
            $(
                $(#[$doc])*
                #[must_use]
                pub fn $method(&self) -> Option<$view<'_>> {
                    self.as_url_ref().$method()
                }
            )*
        }
    };
}

views! {
    /// The ftp view (§3.2), for ftp URLs.
    ftp => Ftp, Ftp;
    /// The http view (§3.3), for http URLs.
    http => Http, Http;
    /// The gopher view (§3.4), for gopher URLs.
    gopher => Gopher, Gopher;
    /// The mailto view (§3.5), for mailto URLs.
    mailto => Mailto, Mailto;
    /// The news view (§3.6), for news URLs.
    news => News, News;
    /// The nntp view (§3.7), for nntp URLs.
    nntp => Nntp, Nntp;
    /// The telnet view (§3.8), for telnet URLs.
    telnet => Telnet, Telnet;
    /// The wais view (§3.9), for wais URLs.
    wais => Wais, Wais;
    /// The file view (§3.10), for file URLs.
    file => File, File;
    /// The prospero view (§3.11), for prospero URLs.
    prospero => Prospero, Prospero;
    /// The view of any other scheme.
    other => Other, Other;
}
