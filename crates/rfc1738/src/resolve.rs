//! Relative URLs: RFC 1808 (June 1995), the companion RFC 1738 §2.3
//! leaves them to.
//!
//! [`Url::resolve`] reads a reference by the grammar of RFC 1808 §2.2,
//! splits it as §2.4 says, and applies the algorithm of §4 step by step.
//! [`Url::make_relative`] goes the other way: the shortest reference that
//! resolves back to a target.
//!
//! # Which bases take relative references
//!
//! RFC 1808 §2.1 applies relative URLs to schemes whose URLs follow the
//! generic syntax, and §4 step 6 assumes a path whose segments are
//! separated by `/`. In RFC 1738 that is every URL written in the Common
//! Internet Scheme Syntax (§3.1, `//` then a login) that has a url-path:
//! `ftp`, `http`, `gopher`, `nntp`, `wais`, `file`, `prospero`, and any
//! other scheme written with `//`. RFC 1808 §2.3 says so of gopher, wais
//! and nntp too: relative URLs apply to them whenever the base has the
//! generic form. Whether the result means something to the scheme's
//! server (`..` in a gopher selector) is the reference's business; the
//! result must still be an RFC 1738 URL ([`ResolveErrorKind::NotRfc1738`]).
//!
//! `mailto`, `news` and other schemes without `//` have no path to merge
//! with, and `telnet` has no url-path (§3.8). Against those, only what
//! needs no path applies (§4 steps 2a and 2b, and step 5 for a fragment):
//! the empty reference, a reference with a scheme (an absolute URL is its
//! own answer), and `#fragment`. Any other reference is an error
//! ([`ResolveErrorKind::NotHierarchical`]).
//!
//! # Above the root
//!
//! RFC 1808 keeps the `..` segments that climb above the root
//! (§5.2: `../../../g` is `http://a/../g`), where RFC 3986 and WHATWG drop
//! them. This module follows RFC 1808.

use core::fmt;

use crate::{ParseError, SchemeKind, Url};

/// Why a reference could not be resolved against a base.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError {
    offset: usize,
    kind: ResolveErrorKind,
}

/// What went wrong in [`Url::resolve`]. Each variant says where its offset points.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveErrorKind {
    /// The base has no hierarchical path (see the module docs) and the
    /// reference is neither empty, absolute nor a fragment; the offset is 0.
    NotHierarchical(SchemeKind),
    /// A character RFC 1808 §2.2 does not allow in a reference (a control
    /// character, a non-ASCII byte, an unsafe character, a second `#`);
    /// points at it in the reference.
    InvalidChar,
    /// A `%` not followed by two hex digits (§2.2 `escape`); points at the
    /// `%` in the reference.
    InvalidEscape,
    /// The reference resolved, by §4, to a text that is not an RFC 1738
    /// URL (such as §5.2's `http:g`); the offset is the parse error's, in
    /// that text ([`ResolveError::resolved`]).
    NotRfc1738 {
        /// The text §4 produced.
        resolved: String,
        /// Why RFC 1738 rejects it.
        error: ParseError,
    },
}

impl ResolveError {
    /// Where the error is: in the reference, or in the resolved text for
    /// [`ResolveErrorKind::NotRfc1738`].
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Why.
    #[must_use]
    pub fn kind(&self) -> &ResolveErrorKind {
        &self.kind
    }

    /// The text RFC 1808 §4 produced, when it is not an RFC 1738 URL.
    #[must_use]
    pub fn resolved(&self) -> Option<&str> {
        match &self.kind {
            ResolveErrorKind::NotRfc1738 { resolved, .. } => Some(resolved),
            _ => None,
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ResolveErrorKind::NotHierarchical(SchemeKind::Other) => f.write_str(
                "the base has no \"//\" and so no hierarchical path: only an absolute URL or a \
                 #fragment applies to it (RFC 1808 §2.1)",
            ),
            ResolveErrorKind::NotHierarchical(kind) => write!(
                f,
                "{} URLs have no hierarchical path: only an absolute URL or a #fragment applies \
                 to them (RFC 1808 §2.1)",
                kind.name()
            ),
            ResolveErrorKind::InvalidChar => write!(
                f,
                "at offset {} of the reference: a character RFC 1808 §2.2 does not allow",
                self.offset
            ),
            ResolveErrorKind::InvalidEscape => write!(
                f,
                "at offset {} of the reference: `%` not followed by two hex digits (RFC 1808 §2.2)",
                self.offset
            ),
            ResolveErrorKind::NotRfc1738 { resolved, error } => {
                write!(f, "the reference resolves to {resolved:?}, not an RFC 1738 URL: {error}")
            }
        }
    }
}

impl std::error::Error for ResolveError {}

/// The parts of a URL or reference as RFC 1808 §2.4 splits them. `None`
/// when the delimiter is absent, `Some("")` when present and empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    net_loc: Option<&'a str>,
    /// The path, with its leading `/` when it has one.
    path: &'a str,
    params: Option<&'a str>,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// RFC 1808 §2.2 `scheme`: `1*( alpha | digit | "+" | "-" | "." )`.
fn is_scheme(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// The characters of RFC 1808 §2.2 (`uchar | reserved`, and one `#`
/// before the fragment); `%` must start an escape.
fn check_reference(reference: &str) -> Result<(), ResolveError> {
    let bytes = reference.as_bytes();
    let mut seen_hash = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let bad = |kind| Err(ResolveError { offset: i, kind });
        match b {
            b'%' => {
                if !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
                {
                    return bad(ResolveErrorKind::InvalidEscape);
                }
                i += 2;
            }
            b'#' if !seen_hash => seen_hash = true,
            // §2.2 `unsafe` and `national`, controls, DEL and non-ASCII.
            b'#' | b' ' | b'"' | b'<' | b'>' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'[' | b']' | b'`'
            | b'~' => return bad(ResolveErrorKind::InvalidChar),
            _ if !b.is_ascii_graphic() => return bad(ResolveErrorKind::InvalidChar),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// RFC 1808 §2.4: parse a URL or reference into its parts, in the order
/// the section gives.
fn split(text: &str) -> Parts<'_> {
    let mut parts = Parts::default();
    let mut rest = text;
    // §2.4.1: the fragment identifier, after the first "#".
    if let Some(i) = rest.find('#') {
        parts.fragment = Some(&rest[i + 1..]);
        rest = &rest[..i];
    }
    // §2.4.2: the scheme, when the text before the first ":" is one.
    if let Some(i) = rest.find(':') {
        if is_scheme(&rest[..i]) {
            parts.scheme = Some(&rest[..i]);
            rest = &rest[i + 1..];
        }
    }
    // §2.4.3: the network location, after "//" up to the next "/".
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        parts.net_loc = Some(&after[..end]);
        rest = &after[end..];
    }
    // §2.4.4: the query, after the first "?".
    if let Some(i) = rest.find('?') {
        parts.query = Some(&rest[i + 1..]);
        rest = &rest[..i];
    }
    // §2.4.5: the parameters, after the first ";".
    if let Some(i) = rest.find(';') {
        parts.params = Some(&rest[i + 1..]);
        rest = &rest[..i];
    }
    // §2.4.6: what remains is the path.
    parts.path = rest;
    parts
}

/// RFC 1808 §4 step 7: the parts recombined.
fn recombine(parts: &Parts<'_>, path: &str) -> String {
    let mut out = String::new();
    if let Some(scheme) = parts.scheme {
        out.push_str(scheme);
        out.push(':');
    }
    if let Some(net_loc) = parts.net_loc {
        out.push_str("//");
        out.push_str(net_loc);
    }
    out.push_str(path);
    for (mark, part) in [(';', parts.params), ('?', parts.query), ('#', parts.fragment)] {
        if let Some(part) = part {
            out.push(mark);
            out.push_str(part);
        }
    }
    out
}

/// RFC 1808 §4 step 6: the base path without its last segment, the
/// reference's path appended, then "." and ".." complete segments removed.
fn merge_paths(base: &str, reference: &str) -> String {
    let dir = base.rfind('/').map_or("", |i| &base[..=i]);
    let joined = format!("{dir}{reference}");
    // Segments; a leading "/" gives an empty first segment.
    let mut segments: Vec<&str> = joined.split('/').collect();
    // 6a and 6b: each "." complete segment removed; a final one leaves
    // the path ending in "/".
    let last = segments.len() - 1;
    let mut kept: Vec<&str> = Vec::with_capacity(segments.len());
    for (i, seg) in segments.drain(..).enumerate() {
        if seg == "." {
            if i == last {
                kept.push("");
            }
        } else {
            kept.push(seg);
        }
    }
    // 6c and 6d: "<segment>/../" removed, leftmost first, where <segment>
    // is a complete segment other than ".."; a final "<segment>/.." too,
    // leaving the path ending in "/". The empty segment before the root
    // "/" is not one: the ".." that would climb above it stays (§5.2).
    let n = kept.len();
    let mut out: Vec<&str> = Vec::with_capacity(n);
    for (i, seg) in kept.into_iter().enumerate() {
        let root = out.len() == 1 && out[0].is_empty();
        if seg == ".." && out.last().is_some_and(|prev| *prev != "..") && !root {
            out.pop();
            if i == n - 1 {
                out.push("");
            }
        } else {
            out.push(seg);
        }
    }
    out.join("/")
}

/// RFC 1808 §4: the text of `reference` resolved against the parts of `base`.
fn resolve_text(base: &Parts<'_>, base_text: &str, reference: &str) -> String {
    let r = split(reference);
    // Step 2a: an empty reference is the base, whole.
    if reference.is_empty() {
        return base_text.to_owned();
    }
    // Step 2b: a reference with a scheme is absolute.
    if r.scheme.is_some() {
        return reference.to_owned();
    }
    // Step 2c: otherwise it inherits the scheme.
    let mut out = Parts { scheme: base.scheme, ..r };
    // Step 3: a non-empty net_loc ends the inheritance; otherwise inherit it.
    if r.net_loc.is_some_and(|n| !n.is_empty()) {
        return recombine(&out, r.path);
    }
    out.net_loc = base.net_loc;
    // Step 4: a path starting with "/" is not relative.
    if r.path.starts_with('/') {
        return recombine(&out, r.path);
    }
    // Step 5: an empty path inherits the base's path, then its params
    // unless the reference has some, then its query unless the same.
    if r.path.is_empty() {
        if r.params.unwrap_or("").is_empty() {
            out.params = base.params;
            if r.query.unwrap_or("").is_empty() {
                out.query = base.query;
            }
        }
        // A query or params after a net_loc need the "/" of an abs_path
        // (§2.2): `?y` against `http://a` is `http://a/?y`.
        let needs_root = base.path.is_empty() && (out.params.is_some() || out.query.is_some());
        return recombine(&out, if needs_root { "/" } else { base.path });
    }
    // Step 6: merge the paths. A base with a net_loc and no path
    // (`http://a`) has the root as its directory: `g` is `http://a/g`,
    // not `http://ag` (RFC 1808 §2.2: the path after a net_loc is an
    // abs_path).
    let base_path = if base.path.is_empty() && base.net_loc.is_some() { "/" } else { base.path };
    let path = merge_paths(base_path, r.path);
    recombine(&out, &path)
}

/// Whether relative paths apply to this base (module docs): the generic
/// form, `//` and a login, with a url-path.
fn is_hierarchical(url: &Url) -> bool {
    url.has_authority() && url.kind() != SchemeKind::Telnet
}

/// Whether a reference applies to any base, hierarchical or not: empty
/// (§4 step 2a), absolute (step 2b), or a fragment alone (step 5).
fn needs_no_path(reference: &str) -> bool {
    reference.is_empty() || reference.starts_with('#') || split(reference).scheme.is_some()
}

impl Url {
    /// The URL that `reference` names relative to this one, by RFC 1808 §4.
    ///
    /// The reference is read by RFC 1808 §2.2 (errors point into it); the
    /// result must be an RFC 1738 URL. The base must be one of the schemes
    /// whose paths are hierarchical (see [`crate::resolve`]).
    ///
    /// # Errors
    /// A [`ResolveError`]: the base is not hierarchical, the reference has
    /// a character RFC 1808 does not allow, or the result is not an RFC
    /// 1738 URL.
    ///
    /// # Examples
    /// ```
    /// let base = rfc1738::Url::parse("ftp://ftp.dom/pub/dir/index;type=a")?;
    /// assert_eq!(base.resolve("../file.txt")?.as_str(), "ftp://ftp.dom/pub/file.txt");
    /// assert_eq!(base.resolve(";type=i")?.as_str(), "ftp://ftp.dom/pub/dir/index;type=i");
    /// let err = base.resolve("a b").unwrap_err();
    /// assert_eq!(err.offset(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve(&self, reference: &str) -> Result<Url, ResolveError> {
        let text = self.resolve_to_string(reference)?;
        Url::parse(&text).map_err(|error| ResolveError {
            offset: error.offset(),
            kind: ResolveErrorKind::NotRfc1738 { resolved: text, error },
        })
    }

    /// The text RFC 1808 §4 gives for `reference`, whether or not it is an
    /// RFC 1738 URL (§5.2's `http:g` stays `http:g`).
    ///
    /// # Errors
    /// As [`Url::resolve`], without [`ResolveErrorKind::NotRfc1738`].
    pub fn resolve_to_string(&self, reference: &str) -> Result<String, ResolveError> {
        check_reference(reference)?;
        self.merge(reference)
    }

    /// §4 on a reference whose characters were checked (or need not be).
    fn merge(&self, reference: &str) -> Result<String, ResolveError> {
        if !is_hierarchical(self) && !needs_no_path(reference) {
            return Err(ResolveError { offset: 0, kind: ResolveErrorKind::NotHierarchical(self.kind()) });
        }
        let base_text = self.as_str();
        Ok(resolve_text(&split(base_text), base_text, reference))
    }

    /// [`Url::resolve`] accepting what `options` accept, in the reference
    /// and in the result: the characters of the reference are not checked
    /// against RFC 1808 §2.2 unless the options are strict, and the result
    /// is read with `options`. Each deviation accepted is a warning, its
    /// offset in the resolved URL.
    ///
    /// # Errors
    /// As [`Url::resolve`].
    ///
    /// # Examples
    /// ```
    /// use rfc1738::{ParseOptions, Url, WarningKind};
    /// let base = Url::parse("http://h.dom/a/b")?;
    /// let (url, warnings) = base.resolve_with("~me", &ParseOptions::lenient())?;
    /// assert_eq!(url.as_str(), "http://h.dom/a/~me");
    /// assert_eq!((warnings[0].offset(), warnings[0].kind()), (15, WarningKind::UnsafeChar));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve_with(
        &self,
        reference: &str,
        options: &crate::ParseOptions,
    ) -> Result<(Url, Vec<crate::Warning>), ResolveError> {
        if options.is_strict() {
            return self.resolve(reference).map(|u| (u, Vec::new()));
        }
        let text = self.merge(reference)?;
        Url::parse_with(&text, options).map_err(|error| ResolveError {
            offset: error.offset(),
            kind: ResolveErrorKind::NotRfc1738 { resolved: text, error },
        })
    }

    /// The shortest reference that [`Url::resolve`] turns back into
    /// `target` against this base; `None` when the base has no
    /// hierarchical path (see [`crate::resolve`]: only the target itself or
    /// a fragment would apply). Held against an exhaustive search over
    /// short references in `tests/relative.rs`.
    ///
    /// # Examples
    /// ```
    /// let base = rfc1738::Url::parse("http://a/b/c/d;p?q")?;
    /// let target = rfc1738::Url::parse("http://a/b/g")?;
    /// assert_eq!(base.make_relative(&target).as_deref(), Some("../g"));
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    #[must_use]
    pub fn make_relative(&self, target: &Url) -> Option<String> {
        if !is_hierarchical(self) {
            return None;
        }
        let mut best = target.as_str().to_owned();
        for candidate in self.candidates(target) {
            if candidate.len() <= best.len()
                && self.resolve(&candidate).is_ok_and(|u| u.as_str() == target.as_str())
            {
                best = candidate;
            }
        }
        Some(best)
    }

    /// References that may resolve to `target`, each checked by the
    /// caller: one of each form of RFC 1808 §2.2 that can reach it.
    fn candidates(&self, target: &Url) -> Vec<String> {
        let (b, t) = (split(self.as_str()), split(target.as_str()));
        let mut out = Vec::new();
        if b.scheme != t.scheme {
            return out;
        }
        let tail = |p: &Parts<'_>, path: &str| recombine(&Parts { scheme: None, net_loc: None, ..*p }, path);
        // `//net_loc/path` (§4 step 3).
        if t.net_loc.is_some() {
            out.push(recombine(&Parts { scheme: None, ..t }, t.path));
        }
        if b.net_loc != t.net_loc {
            return out;
        }
        // The empty reference: the base whole (step 2a); `#f`: the base
        // with another fragment (step 5).
        if self.as_str() == target.as_str() {
            out.push(String::new());
        }
        if self.without_fragment() == target.without_fragment() {
            match t.fragment {
                Some(f) => out.push(format!("#{f}")),
                // An empty `;` or `?` counts as absent: the base's params
                // and query, without its fragment (step 5).
                None => out.extend([";".to_owned(), "?".to_owned()]),
            }
        }
        // `/path` (step 4); `//` first when the path starts with `//` (an
        // empty net_loc is the base's, step 3).
        out.push(tail(&t, t.path));
        out.push(format!("//{}", tail(&t, t.path)));
        // `?query`, `;params?query` (step 5): the base's path kept (or
        // the root after a net_loc alone).
        out.push(tail(&Parts { params: None, ..t }, ""));
        out.push(tail(&t, ""));
        // A relative path (step 6), from the base's directory: the root
        // when the base has a net_loc and no path.
        let base_path = if b.path.is_empty() && b.net_loc.is_some() { "/" } else { b.path };
        if let Some(rel) = relative_path(base_path, t.path) {
            // A final `./` or `../` may drop its `/` (steps 6b and 6d).
            let short = rel.strip_suffix('/').filter(|r| *r == "." || r.ends_with("/.") || r.ends_with(".."));
            for r in [Some(rel.as_str()), short].into_iter().flatten() {
                out.push(tail(&t, r));
                // A first segment with a `:` or an empty one needs `./`.
                out.push(tail(&t, &format!("./{r}")));
            }
        }
        out
    }
}

/// The relative path from the directory of `base` to `target`.
fn relative_path(base: &str, target: &str) -> Option<String> {
    if !base.starts_with('/') || !target.starts_with('/') {
        return None;
    }
    let dir: Vec<&str> = base[1..base.rfind('/')? + 1].split('/').collect();
    let dir = &dir[..dir.len() - 1];
    let tgt: Vec<&str> = target[1..].split('/').collect();
    let (tdir, file) = tgt.split_at(tgt.len() - 1);
    let common = dir.iter().zip(tdir).take_while(|(a, b)| a == b).count();
    if dir[common..].iter().any(|s| *s == ".." || *s == ".") {
        return None;
    }
    let mut rel = "../".repeat(dir.len() - common);
    for seg in &tdir[common..] {
        rel.push_str(seg);
        rel.push('/');
    }
    rel.push_str(file[0]);
    if rel.is_empty() {
        rel.push_str("./");
    }
    Some(rel)
}
