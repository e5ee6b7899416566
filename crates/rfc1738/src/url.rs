//! `Url`: the input stored once, its components as offsets into it.

use crate::kind::SchemeKind;
use crate::pct;
use core::fmt;
use core::num::NonZeroU32;
use std::borrow::Cow;

/// A byte range `start..end` into the serialization.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Span {
    start: u32,
    /// `!end`, never zero since no offset exceeds `MAX_LEN` (`u32::MAX -
    /// 1`): an `Option<Span>` takes eight bytes, the parts a third less.
    not_end: NonZeroU32,
}

impl Span {
    #[inline]
    pub(crate) fn new(start: usize, end: usize) -> Span {
        // The parser refuses inputs longer than `MAX_LEN`, so offsets fit
        // and `!end` is not zero (the fallback is never taken).
        Span { start: start as u32, not_end: NonZeroU32::new(!(end as u32)).unwrap_or(NonZeroU32::MIN) }
    }
    #[inline]
    pub(crate) fn start(self) -> usize {
        self.start as usize
    }
    #[inline]
    pub(crate) fn end(self) -> usize {
        !self.not_end.get() as usize
    }
    #[inline]
    pub(crate) fn range(self) -> core::ops::Range<usize> {
        self.start()..self.end()
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.range(), f)
    }
}

/// "No mark": a scheme-specific split point that is absent.
pub(crate) const NO_MARK: u32 = u32::MAX;

/// Where each component of a URL lies. Filled by the parser.
///
/// ```text
///  ftp://user:pw@host.dom:2121/pub/file;type=i#frag
///  |  | |  | |  | |      | |  | |              | |
///  0  | |  | |  | |      | |  | |              | fragment (end+1..len)
///     | user   password    host  port  url-path  end ('#' or len)
///     scheme_end (':')     marks[0] = ';' of ";type="
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Parts {
    pub(crate) kind: SchemeKind,
    pub(crate) scheme_end: u32,
    pub(crate) user: Option<Span>,
    pub(crate) password: Option<Span>,
    pub(crate) host: Option<Span>,
    pub(crate) port: Option<Span>,
    /// The port's value; `None` above 65535 (§5 gives `port` no range).
    pub(crate) port_value: Option<u16>,
    pub(crate) path: Option<Span>,
    pub(crate) end: u32,
    pub(crate) has_fragment: bool,
    /// Scheme-specific split points (see each scheme's module).
    pub(crate) marks: [u32; 2],
}

impl Parts {
    pub(crate) fn new(kind: SchemeKind, scheme_end: usize, end: usize, has_fragment: bool) -> Parts {
        Parts {
            kind,
            scheme_end: scheme_end as u32,
            user: None,
            password: None,
            host: None,
            port: None,
            port_value: None,
            path: None,
            end: end as u32,
            has_fragment,
            marks: [NO_MARK; 2],
        }
    }
}

/// A URL that matched RFC 1738.
///
/// The input is kept once (with the scheme lower-cased, §2.1); every
/// accessor returns a slice of it, still encoded. Decoding is a separate,
/// explicit step ([`crate::pct::decode`]) because a decoded component is a
/// sequence of octets that need not be UTF-8 (§2.2).
///
/// [`UrlRef`] is the same reading without the copy: it borrows the input.
///
/// # Examples
/// ```
/// let url = rfc1738::Url::parse("ftp://@host.com/pub/file;type=i")?;
/// assert_eq!(url.scheme(), "ftp");
/// assert_eq!(url.user(), Some(""));      // empty, not absent (§3.1)
/// assert_eq!(url.password(), None);
/// assert_eq!(url.host(), Some("host.com"));
/// assert_eq!(url.effective_port(), Some(21));
/// assert_eq!(url.url_path(), Some("pub/file;type=i"));
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Url {
    serialization: String,
    parts: Parts,
    /// Whether the text deviates from §5 and was accepted by a lenient
    /// parse ([`crate::ParseOptions`]). A text that matches the grammar
    /// never sets it, so equal texts still give equal URLs.
    lenient: bool,
}

/// A URL that matched RFC 1738, borrowing the text it was read from: what
/// [`Url`] holds, without the owned copy, so a parse allocates nothing.
///
/// It has the accessors and scheme views of [`Url`], each returning a slice
/// of the borrowed text, with one difference: [`UrlRef::scheme`] is the
/// scheme as written, since the text is not changed (§2.1: scheme names are
/// case-insensitive; [`UrlRef::kind`] does not depend on case).
/// [`UrlRef::to_url`] makes the owned [`Url`], scheme lower-cased.
/// So two `UrlRef`s are equal (`==`, and in hash maps) when their texts
/// are, scheme case included, and their `to_url()`s when the texts differ
/// at most in the scheme's case.
///
/// # Examples
/// ```
/// use rfc1738::{SchemeKind, UrlRef};
/// let line = String::from("GOPHER://gopher.dom/7search%09rfc");
/// let url = UrlRef::parse(&line)?;
/// assert_eq!((url.scheme(), url.kind()), ("GOPHER", SchemeKind::Gopher));
/// assert_eq!(url.gopher().unwrap().search(), Some("rfc"));
/// assert_eq!(url.to_url().as_str(), "gopher://gopher.dom/7search%09rfc");
/// let lower = UrlRef::parse("gopher://gopher.dom/7search%09rfc")?;
/// assert!(url != lower && url.to_url() == lower.to_url());
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct UrlRef<'a> {
    text: &'a str,
    parts: Parts,
}

impl Url {
    pub(crate) fn from_parts(input: &str, parts: Parts, lenient: bool) -> Url {
        let mut serialization = input.to_owned();
        serialization[..parts.scheme_end as usize].make_ascii_lowercase();
        Url { serialization, parts, lenient }
    }

    /// The borrowed view of this URL: the same components, the same text.
    #[must_use]
    #[inline]
    pub fn as_url_ref(&self) -> UrlRef<'_> {
        UrlRef { text: &self.serialization, parts: self.parts }
    }

    /// Whether the URL deviates from the grammar of §5 and was accepted by
    /// [`Url::parse_with`](crate::Url::parse_with) under [`crate::ParseOptions`].
    ///
    /// # Examples
    /// ```
    /// use rfc1738::{ParseOptions, Url};
    /// assert!(!Url::parse("http://h.example/")?.is_lenient());
    /// assert!(Url::parse_with("http://h.example/~x", &ParseOptions::lenient())?.0.is_lenient());
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    #[must_use]
    pub fn is_lenient(&self) -> bool {
        self.lenient
    }

    /// The scheme, lower-cased (§2.1).
    #[must_use]
    pub fn scheme(&self) -> &str {
        self.as_url_ref().scheme()
    }

    pub(crate) fn parts(&self) -> &Parts {
        &self.parts
    }
}

impl<'a> UrlRef<'a> {
    /// The view of `text` whose parts a parse found.
    pub(crate) fn from_parts(text: &'a str, parts: Parts) -> UrlRef<'a> {
        UrlRef { text, parts }
    }

    /// The owned [`Url`]: the text copied, the scheme lower-cased (§2.1).
    #[must_use]
    pub fn to_url(&self) -> Url {
        Url::from_parts(self.text, self.parts, false)
    }

    /// The scheme as written in the text (§2.1: case-insensitive).
    #[must_use]
    pub fn scheme(&self) -> &'a str {
        &self.text[..self.parts.scheme_end as usize]
    }

    pub(crate) fn slice(&self, span: Option<Span>) -> Option<&'a str> {
        span.map(|s| &self.text[s.range()])
    }

    pub(crate) fn parts(&self) -> &Parts {
        &self.parts
    }

    pub(crate) fn mark(&self, n: usize) -> Option<usize> {
        let m = self.parts.marks[n];
        (m != NO_MARK).then_some(m as usize)
    }
}

/// The accessors shared by [`Url`] and [`UrlRef`]: written once, for
/// `UrlRef<'a>`, returning slices that live as long as the text; on `Url`
/// they borrow the `Url`.
macro_rules! accessors {
    ($($(#[$doc:meta])* fn $name:ident(&$self:ident) -> $ret:ty $body:block)*) => {
        impl<'a> UrlRef<'a> {
            $($(#[$doc])* #[must_use] pub fn $name(&$self) -> $ret $body)*
        }
        impl Url {
            $(
                $(#[$doc])*
                #[must_use]
                #[allow(clippy::needless_lifetimes)]
                pub fn $name<'a>(&'a self) -> $ret {
                    self.as_url_ref().$name()
                }
            )*
        }
    };
}

accessors! {
    /// The whole URL as stored: for a [`Url`], the input with the scheme
    /// lower-cased; fragment included.
    fn as_str(&self) -> &'a str { self.text }

    /// The URL without its fragment identifier.
    fn without_fragment(&self) -> &'a str { &self.text[..self.parts.end as usize] }

    /// Which of the schemes of §3 this is.
    fn kind(&self) -> SchemeKind { self.parts.kind }

    /// The scheme-specific part: everything between `:` and `#` or the end.
    fn scheme_specific_part(&self) -> &'a str {
        &self.text[self.parts.scheme_end as usize + 1..self.parts.end as usize]
    }

    /// The user name, raw. `None` when absent, `Some("")` when empty (§3.1).
    fn user(&self) -> Option<&'a str> { self.slice(self.parts.user) }

    /// The password, raw. `None` when absent, `Some("")` when empty (§3.1).
    fn password(&self) -> Option<&'a str> { self.slice(self.parts.password) }

    /// The host, raw, for URLs in the Common Internet Scheme Syntax (§3.1);
    /// `Some("")` for a file URL with an empty host.
    fn host(&self) -> Option<&'a str> { self.slice(self.parts.host) }

    /// The explicit port, if the URL has one that a TCP port can be:
    /// `None` for a port above 65535 too, which §5 allows (it gives `port`
    /// no range) and [`Url::port_str`] still gives.
    fn port(&self) -> Option<u16> { self.parts.port.and(self.parts.port_value) }

    /// The explicit port as written (it may have leading zeros).
    fn port_str(&self) -> Option<&'a str> { self.slice(self.parts.port) }

    /// The explicit port, or the scheme's default (§3); `None` when the
    /// port written is above 65535: no port is then one to connect to.
    fn effective_port(&self) -> Option<u16> {
        match self.parts.port {
            Some(_) => self.parts.port_value,
            None => self.parts.kind.default_port(),
        }
    }

    /// The url-path, raw and without the `/` that separates it from the
    /// host or port (§3.1: that `/` "is NOT part of the url-path"). `None`
    /// when the URL has no such `/`.
    fn url_path(&self) -> Option<&'a str> { self.slice(self.parts.path) }

    /// The fragment identifier after `#`, raw. It is not part of the URL
    /// (§2.2, Appendix).
    fn fragment(&self) -> Option<&'a str> {
        self.parts.has_fragment.then(|| &self.text[self.parts.end as usize + 1..])
    }

    /// Whether the URL uses the Common Internet Scheme Syntax (`//` login).
    fn has_authority(&self) -> bool { self.parts.host.is_some() }

    /// The user name, decoded to octets.
    fn user_decoded(&self) -> Option<Cow<'a, [u8]>> { self.user().map(pct::decode) }

    /// The password, decoded to octets.
    fn password_decoded(&self) -> Option<Cow<'a, [u8]>> { self.password().map(pct::decode) }
}

impl fmt::Display for UrlRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl fmt::Debug for UrlRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_fields(f.debug_struct("UrlRef"), self)
    }
}

impl From<UrlRef<'_>> for Url {
    fn from(url: UrlRef<'_>) -> Url {
        url.to_url()
    }
}

/// The fields both `Debug` implementations show.
fn debug_fields(mut d: fmt::DebugStruct<'_, '_>, url: &UrlRef<'_>) -> fmt::Result {
    d.field("url", &url.as_str())
        .field("kind", &url.kind())
        .field("user", &url.user())
        .field("password", &url.password())
        .field("host", &url.host())
        .field("port", &url.port())
        .field("url_path", &url.url_path())
        .field("fragment", &url.fragment())
        .finish()
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.serialization)
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_fields(f.debug_struct("Url"), &self.as_url_ref())
    }
}

impl AsRef<str> for Url {
    fn as_ref(&self) -> &str {
        &self.serialization
    }
}
