//! One module per scheme of §3: its grammar, its typed view, its meaning.

pub use crate::kind::SchemeKind;
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

macro_rules! views {
    ($($(#[$doc:meta])* $method:ident => $kind:ident $(| $also:ident)*;)*) => {
        // Each view type is named as its `SchemeKind`; `| Also` adds the
        // kinds read by the same rules.
        impl<'a> crate::UrlRef<'a> {
            $(
                $(#[$doc])*
                #[must_use]
                pub fn $method(&self) -> Option<$kind<'a>> {
                    matches!(self.kind(), SchemeKind::$kind $(| SchemeKind::$also)*).then(|| $kind::new(*self))
                }
            )*
        }
        impl crate::Url {
            $(
                $(#[$doc])*
                #[must_use]
                pub fn $method(&self) -> Option<$kind<'_>> {
                    self.as_url_ref().$method()
                }
            )*
        }
    };
}

views! {
    /// The ftp view (§3.2), for ftp URLs.
    ftp => Ftp;
    /// The http view (§3.3), for http and https URLs (RFC 2818 §2.4
    /// gives https the syntax of §3.3).
    http => Http | Https;
    /// The gopher view (§3.4), for gopher URLs.
    gopher => Gopher;
    /// The mailto view (§3.5), for mailto URLs.
    mailto => Mailto;
    /// The news view (§3.6), for news URLs.
    news => News;
    /// The nntp view (§3.7), for nntp URLs.
    nntp => Nntp;
    /// The telnet view (§3.8), for telnet URLs.
    telnet => Telnet;
    /// The wais view (§3.9), for wais URLs.
    wais => Wais;
    /// The file view (§3.10), for file URLs.
    file => File;
    /// The prospero view (§3.11), for prospero URLs.
    prospero => Prospero;
    /// The view of any other scheme.
    other => Other;
}
