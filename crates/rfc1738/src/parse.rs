//! The parse itself: `genericurl = scheme ":" schemepart` (§5). The fast
//! path first (`fast.rs`); what it does not answer goes to the rules: the
//! scheme read (`kind.rs`), then the scheme's own grammar (`scheme/`).
//! Also the entry points that parse: `Url::parse`, `UrlRef::parse`,
//! `Url::parse_with`, `validate`.

use crate::chars;
use crate::error::{ErrorKind, ParseError, Rule};
use crate::fast::{self, Fast};
use crate::kind::{self, SchemeKind};
use crate::options::{Lenient, ParseOptions};
use crate::reader::{no_scheme, Parser, MAX_LEN};
use crate::scheme::{file, ftp, gopher, http, mailto, news, nntp, other, prospero, telnet, wais};
use crate::url::{Parts, Url, UrlRef};
use crate::warning::{Warning, WarningKind};

/// `genericurl = scheme ":" schemepart`, then the scheme's own grammar.
pub(crate) fn parse(input: &str) -> Result<Parts, ParseError> {
    let mut parts = Parts::new(SchemeKind::Other, 0, 0, false);
    parse_into(input.as_bytes(), &mut parts).map(|()| parts)
}

/// [`parse`] into `parts`, which hold the answer when it is `Ok` (the
/// caller's own, so that the parts are written once, where they stay).
///
/// Every rule works on bytes: no class holds an octet above 7F (§2.2: "URLs
/// are written only with the graphic printable characters of the US-ASCII
/// coded character set"), so text that is not UTF-8 fails where its first
/// such octet stands, as any other non-ASCII text does.
#[inline]
pub(crate) fn parse_into(b: &[u8], parts: &mut Parts) -> Result<(), ParseError> {
    if b.len() > MAX_LEN {
        return Err(too_long());
    }
    // The common shape in one pass; the rules read everything else.
    let known = match fast::parse(b, parts) {
        Fast::Done(answer) => return answer,
        Fast::Scheme(colon, kind) => Some((colon, kind)),
    };
    // No rule accepts `#` (§2.2: it is unsafe), so a strict parse of
    // the whole input succeeds only when there is none, and the search
    // for it is needed only when that parse fails.
    *parts = match url_proper(b, b.len(), None, known) {
        Ok(parts) => parts,
        Err(e) if chars::find_byte(b, 0, b.len(), b'#') == b.len() => return Err(e),
        Err(_) => with_fragment(b, None, known)?,
    };
    Ok(())
}

/// [`parse`], accepting what the options of `lenient` accept and
/// recording a warning for each.
pub(crate) fn parse_lenient(input: &str, lenient: &Lenient) -> Result<Parts, ParseError> {
    if input.len() > MAX_LEN {
        return Err(too_long());
    }
    with_fragment(input.as_bytes(), Some(lenient), None)
}

/// The error for an input longer than [`MAX_LEN`].
#[cold]
fn too_long() -> ParseError {
    ParseError::new(MAX_LEN, ErrorKind::TooLong, Rule::Scheme)
}

/// The URL up to the first `"#"`, then the fragment after it. `known`:
/// the `":"` and kind of a scheme read before, which ends before any `"#"`
/// (no scheme character is one), so it holds for the shorter URL too.
/// Kept out of line: the common parse does not come here.
#[inline(never)]
fn with_fragment(
    b: &[u8],
    lenient: Option<&Lenient>,
    known: Option<(usize, SchemeKind)>,
) -> Result<Parts, ParseError> {
    let end = chars::find_byte(b, 0, b.len(), b'#');
    let parts = url_proper(b, end, lenient, known)?;
    if end < b.len() {
        fragment(b, end + 1, lenient)?;
    }
    Ok(parts)
}

/// The URL without its fragment: `b[..end]`; `known`, the `":"` and the
/// kind of its scheme when they have been read already.
#[inline]
fn url_proper(
    b: &[u8],
    end: usize,
    lenient: Option<&Lenient>,
    known: Option<(usize, SchemeKind)>,
) -> Result<Parts, ParseError> {
    let p = Parser { b, end, lenient };
    let (colon, kind) = match known {
        Some(known) => known,
        // `scheme` stops at a `"#"` at the latest, so `end` needs no check.
        None => match kind::scheme(b) {
            kind::Scheme::Colon(colon) => (colon, SchemeKind::from_prefix(b, colon)),
            kind::Scheme::Error(i) => return Err(no_scheme(&p, i)),
        },
    };
    // RFC 2818 §2.4 gives https the rules of §3.3; the option reads it as
    // RFC 1738 alone reads a scheme it does not define (§5 `otherurl`).
    let kind = match lenient {
        Some(l) if kind == SchemeKind::Https && l.opts.generic_https => SchemeKind::Other,
        _ => kind,
    };
    let mut parts = Parts::new(kind, colon, end, end < b.len());
    schemepart(&p, &mut parts, colon + 1)?;
    Ok(parts)
}

/// The scheme-specific part from `i` (just after the `":"`), by the
/// grammar of the scheme's own module (§3, §5).
fn schemepart(p: &Parser<'_>, parts: &mut Parts, i: usize) -> Result<(), ParseError> {
    match parts.kind {
        SchemeKind::Ftp => ftp::parse(p, parts, i),
        // RFC 2818 §2.4: https has http's syntax.
        SchemeKind::Http | SchemeKind::Https => http::parse(p, parts, i),
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

/// The fragment identifier. RFC 1738 does not define its syntax; it is
/// held to `*xchar`, the characters a URL itself may use (§2.2: "URLs are
/// written only with the graphic printable characters").
fn fragment(b: &[u8], start: usize, lenient: Option<&Lenient>) -> Result<(), ParseError> {
    let p = Parser { b, end: b.len(), lenient };
    p.scan_to_end(start, chars::XCHAR, Rule::Fragment)
}

/// The whole of a successful [`crate::Url::parse`], without keeping
/// anything: validation alone, allocation-free.
///
/// # Errors
/// The same [`ParseError`] as [`crate::Url::parse`].
///
/// # Examples
/// ```
/// assert!(rfc1738::validate("gopher://h.edu/7search%09query").is_ok());
/// let e = rfc1738::validate("http://h.edu/a b").unwrap_err();
/// assert_eq!(e.offset(), 14);
/// ```
pub fn validate(input: &str) -> Result<(), ParseError> {
    validate_bytes(input.as_bytes())
}

/// [`validate`] for bytes that may not be UTF-8, such as lines read from a
/// log: no UTF-8 check is needed first, since every octet above 7F is an
/// error at its offset (kind [`crate::ErrorKind::NonAscii`]), as it is in
/// a `&str`.
///
/// # Errors
/// The same [`ParseError`] as [`validate`] gives for the same bytes.
///
/// # Examples
/// ```
/// assert!(rfc1738::validate_bytes(b"ftp://h.dom/file").is_ok());
/// let e = rfc1738::validate_bytes(b"http://h.dom/a\xffb").unwrap_err();
/// assert_eq!((e.offset(), e.kind()), (14, rfc1738::ErrorKind::NonAscii));
/// ```
pub fn validate_bytes(input: &[u8]) -> Result<(), ParseError> {
    parse_into(input, &mut Parts::new(SchemeKind::Other, 0, 0, false))
}

/// The entry points that parse: each one ends here.
impl Url {
    /// Parses `input` as an RFC 1738 URL, optionally followed by `#` and a
    /// fragment identifier (§2.2).
    ///
    /// # Errors
    /// A [`ParseError`] with the offset of the first byte no rule accepts.
    pub fn parse(input: &str) -> Result<Url, ParseError> {
        let parts = parse(input)?;
        Ok(Url::from_parts(input, parts, false))
    }

    /// Checks that the stored offsets describe the stored text: every span
    /// in bounds, on character boundaries, in order, and the text parses to
    /// the same parts. Used by tests and fuzzing.
    ///
    /// # Panics
    /// When an invariant does not hold (a bug in this crate).
    pub fn check_invariants(&self) {
        let p = self.parts();
        let s = self.as_str();
        let end = p.end as usize;
        assert!(end <= s.len());
        assert_eq!(p.has_fragment, end < s.len());
        assert_eq!(s.as_bytes()[p.scheme_end as usize], b':');
        let mut last = p.scheme_end as usize + 1;
        for span in [p.user, p.password, p.host, p.port, p.path].into_iter().flatten() {
            assert!(span.start() <= span.end() && span.end() <= end);
            assert!(span.start() >= last, "spans overlap or are out of order");
            assert!(s.is_char_boundary(span.start()));
            last = span.end();
        }
        assert!(!s[..p.scheme_end as usize].bytes().any(|b| b.is_ascii_uppercase()));
        // An https URL of kind `Other` was read by `generic_https`.
        let generic_https = p.kind == SchemeKind::Other && self.scheme() == "https";
        let reparsed = if self.is_lenient() || generic_https {
            let opts = if self.is_lenient() { ParseOptions::lenient() } else { ParseOptions::strict() };
            let lenient = Lenient::new(ParseOptions { generic_https, ..opts });
            parse_lenient(s, &lenient)
        } else {
            parse(s)
        };
        assert_eq!(reparsed.as_ref(), Ok(p), "stored text reparses differently");
    }
}

impl<'a> UrlRef<'a> {
    /// Parses `input` as [`Url::parse`] does, keeping a reference to it
    /// instead of a copy.
    ///
    /// # Errors
    /// The same [`ParseError`] as [`Url::parse`].
    #[inline]
    pub fn parse(input: &'a str) -> Result<UrlRef<'a>, ParseError> {
        let mut parts = Parts::new(SchemeKind::Other, 0, 0, false);
        parse_into(input.as_bytes(), &mut parts)?;
        Ok(UrlRef::from_parts(input, parts))
    }
}

impl<'a> TryFrom<&'a str> for UrlRef<'a> {
    type Error = ParseError;
    fn try_from(s: &'a str) -> Result<UrlRef<'a>, ParseError> {
        UrlRef::parse(s)
    }
}

impl core::str::FromStr for Url {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Url, ParseError> {
        Url::parse(s)
    }
}

impl Url {
    /// Parses `input` accepting the deviations `options` allows, and
    /// returns the URL with a [`Warning`] for each deviation found.
    ///
    /// With [`ParseOptions::strict`] this accepts exactly what
    /// [`Url::parse`] accepts; the warnings then hold only the note on an
    /// upper-case scheme (§2.1).
    ///
    /// # Errors
    /// A [`ParseError`], as [`Url::parse`] gives, for anything the options
    /// do not accept.
    ///
    /// # Examples
    /// ```
    /// use rfc1738::{ParseOptions, Url, WarningKind, ErrorKind};
    /// let strict = Url::parse("http://h.example/a|b").unwrap_err();
    /// assert_eq!((strict.offset(), strict.kind()), (18, ErrorKind::Unsafe));
    /// let (url, w) = Url::parse_with("http://h.example/a|b", &ParseOptions::lenient())?;
    /// assert_eq!(url.http().unwrap().path(), Some("a|b"));
    /// assert_eq!((w[0].offset(), w[0].kind()), (18, WarningKind::UnsafeChar));
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    pub fn parse_with(input: &str, options: &ParseOptions) -> Result<(Url, Vec<Warning>), ParseError> {
        let lenient = Lenient::new(*options);
        let parts = parse_lenient(input, &lenient)?;
        let mut warnings = lenient.into_warnings();
        let deviated = !warnings.is_empty();
        if let Some(at) =
            input.as_bytes()[..parts.scheme_end as usize].iter().position(u8::is_ascii_uppercase)
        {
            warnings.insert(
                0,
                Warning::new(
                    at,
                    WarningKind::UppercaseScheme,
                    "upper-case scheme name, read as lower case (§2.1)",
                ),
            );
        }
        warnings.sort_by_key(Warning::offset);
        Ok((Url::from_parts(input, parts, deviated), warnings))
    }
}
