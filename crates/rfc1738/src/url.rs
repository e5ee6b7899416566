//! `Url`: the input stored once, its components as offsets into it.

use crate::error::ParseError;
use crate::parse;
use crate::pct;
use crate::scheme::SchemeKind;
use core::fmt;
use std::borrow::Cow;

/// A byte range `start..end` into the serialization.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Span {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Span {
    #[inline]
    pub(crate) fn new(start: usize, end: usize) -> Span {
        // The parser refuses inputs longer than `MAX_LEN`, so offsets fit.
        Span { start: start as u32, end: end as u32 }
    }
    #[inline]
    pub(crate) fn range(self) -> core::ops::Range<usize> {
        self.start as usize..self.end as usize
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
    pub(crate) port_value: u16,
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
            port_value: 0,
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

impl Url {
    /// Parses `input` as an RFC 1738 URL, optionally followed by `#` and a
    /// fragment identifier (§2.2).
    ///
    /// # Errors
    /// A [`ParseError`] with the offset of the first byte no rule accepts.
    pub fn parse(input: &str) -> Result<Url, ParseError> {
        let parts = parse::parse(input)?;
        Ok(Url::from_parts(input, parts, false))
    }

    pub(crate) fn from_parts(input: &str, parts: Parts, lenient: bool) -> Url {
        let mut serialization = input.to_owned();
        serialization[..parts.scheme_end as usize].make_ascii_lowercase();
        Url { serialization, parts, lenient }
    }

    /// Whether the URL deviates from the grammar of §5 and was accepted by
    /// [`Url::parse_with`] under [`crate::ParseOptions`].
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

    /// The whole URL as stored: the input with the scheme lower-cased,
    /// fragment included.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.serialization
    }

    /// The URL without its fragment identifier.
    #[must_use]
    pub fn without_fragment(&self) -> &str {
        &self.serialization[..self.parts.end as usize]
    }

    /// The scheme, lower-cased (§2.1).
    #[must_use]
    pub fn scheme(&self) -> &str {
        &self.serialization[..self.parts.scheme_end as usize]
    }

    /// Which of the schemes of §3 this is.
    #[must_use]
    pub fn kind(&self) -> SchemeKind {
        self.parts.kind
    }

    /// The scheme-specific part: everything between `:` and `#` or the end.
    #[must_use]
    pub fn scheme_specific_part(&self) -> &str {
        &self.serialization[self.parts.scheme_end as usize + 1..self.parts.end as usize]
    }

    /// The user name, raw. `None` when absent, `Some("")` when empty (§3.1).
    #[must_use]
    pub fn user(&self) -> Option<&str> {
        self.slice(self.parts.user)
    }

    /// The password, raw. `None` when absent, `Some("")` when empty (§3.1).
    #[must_use]
    pub fn password(&self) -> Option<&str> {
        self.slice(self.parts.password)
    }

    /// The host, raw, for URLs in the Common Internet Scheme Syntax (§3.1);
    /// `Some("")` for a file URL with an empty host.
    #[must_use]
    pub fn host(&self) -> Option<&str> {
        self.slice(self.parts.host)
    }

    /// The explicit port, if the URL has one.
    #[must_use]
    pub fn port(&self) -> Option<u16> {
        self.parts.port.map(|_| self.parts.port_value)
    }

    /// The explicit port as written (it may have leading zeros).
    #[must_use]
    pub fn port_str(&self) -> Option<&str> {
        self.slice(self.parts.port)
    }

    /// The explicit port, or the scheme's default (§3).
    #[must_use]
    pub fn effective_port(&self) -> Option<u16> {
        self.port().or(self.parts.kind.default_port())
    }

    /// The url-path, raw and without the `/` that separates it from the
    /// host or port (§3.1: that `/` "is NOT part of the url-path"). `None`
    /// when the URL has no such `/`.
    #[must_use]
    pub fn url_path(&self) -> Option<&str> {
        self.slice(self.parts.path)
    }

    /// The fragment identifier after `#`, raw. It is not part of the URL
    /// (§2.2, Appendix).
    #[must_use]
    pub fn fragment(&self) -> Option<&str> {
        self.parts.has_fragment.then(|| &self.serialization[self.parts.end as usize + 1..])
    }

    /// Whether the URL uses the Common Internet Scheme Syntax (`//` login).
    #[must_use]
    pub fn has_authority(&self) -> bool {
        self.parts.host.is_some()
    }

    /// The user name, decoded to octets.
    #[must_use]
    pub fn user_decoded(&self) -> Option<Cow<'_, [u8]>> {
        self.user().map(pct::decode)
    }

    /// The password, decoded to octets.
    #[must_use]
    pub fn password_decoded(&self) -> Option<Cow<'_, [u8]>> {
        self.password().map(pct::decode)
    }

    pub(crate) fn slice(&self, span: Option<Span>) -> Option<&str> {
        span.map(|s| &self.serialization[s.range()])
    }

    pub(crate) fn parts(&self) -> &Parts {
        &self.parts
    }

    pub(crate) fn mark(&self, n: usize) -> Option<usize> {
        let m = self.parts.marks[n];
        (m != NO_MARK).then_some(m as usize)
    }

    /// Checks that the stored offsets describe the stored text: every span
    /// in bounds, on character boundaries, in order, and the text parses to
    /// the same parts. Used by tests and fuzzing.
    ///
    /// # Panics
    /// When an invariant does not hold (a bug in this crate).
    pub fn check_invariants(&self) {
        let p = &self.parts;
        let s = &self.serialization;
        let end = p.end as usize;
        assert!(end <= s.len());
        assert_eq!(p.has_fragment, end < s.len());
        assert_eq!(s.as_bytes()[p.scheme_end as usize], b':');
        let mut last = p.scheme_end as usize + 1;
        for span in [p.user, p.password, p.host, p.port, p.path].into_iter().flatten() {
            assert!(span.start <= span.end && span.end as usize <= end);
            assert!(span.start as usize >= last, "spans overlap or are out of order");
            assert!(s.is_char_boundary(span.start as usize));
            last = span.end as usize;
        }
        assert!(!s[..p.scheme_end as usize].bytes().any(|b| b.is_ascii_uppercase()));
        let reparsed = if self.lenient {
            let lenient = crate::options::Lenient::new(crate::ParseOptions::lenient());
            parse::parse_lenient(s, &lenient)
        } else {
            parse::parse(s)
        };
        assert_eq!(reparsed.as_ref(), Ok(p), "stored text reparses differently");
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.serialization)
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Url")
            .field("url", &self.serialization)
            .field("kind", &self.parts.kind)
            .field("user", &self.user())
            .field("password", &self.password())
            .field("host", &self.host())
            .field("port", &self.port())
            .field("url_path", &self.url_path())
            .field("fragment", &self.fragment())
            .finish()
    }
}

impl core::str::FromStr for Url {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Url, ParseError> {
        Url::parse(s)
    }
}

impl AsRef<str> for Url {
    fn as_ref(&self) -> &str {
        &self.serialization
    }
}
