//! The normal form of a URL, and equivalence.
//!
//! Two URLs are equivalent when they name the same thing by the rules of
//! RFC 1738 and of their scheme. The normal form writes every URL of a
//! class of equivalent ones the same way, so equivalence is equality of
//! normal forms. It changes only what the RFC says does not matter.
//!
//! The changes are listed on [`Url::normalize`].

use crate::chars::{self, UNRESERVED};
use crate::kind::SchemeKind;
use crate::options::ParseOptions;
use crate::pct;
use crate::url::Url;

impl Url {
    /// The normal form of the URL: equal for equivalent URLs, and its own
    /// normal form. It changes only what RFC 1738 says does not matter:
    ///
    /// | change | why |
    /// |---|---|
    /// | scheme lower case | §2.1: "programs interpreting URLs should treat upper case letters as equivalent to lower case" (done by every parse) |
    /// | host lower case | §3.1: host names are domain names, compared without case (RFC 1034 §3.1) |
    /// | port without leading zeros, and none when it is the default | §3.1 `port`: a number; §3: each scheme's default |
    /// | `%hh` written `%HH` | §2.2: an escape is an octet; hex digits have no case |
    /// | an escape of an unreserved character decoded | §2.2: alphanumerics and `$-_.+!*'(),` "may be used unencoded" |
    /// | an unsafe character written raw (lenient parses only) encoded | §2.2: unsafe characters "must always be encoded" |
    /// | `;type=A` written `;type=a` | §3.2.2: the typecode is one of a, i, d in either case |
    /// | `file://localhost/` written `file:///` | §3.10: both mean "the machine from which the URL is being interpreted" |
    /// | an absent url-path written `/` (ftp, http, gopher, telnet) | §3.1, §3.3, §3.4, §3.8: the "/" "may be omitted" |
    /// | an empty port (`host:`, lenient parses only) dropped | `port = digits`: nothing was given |
    ///
    /// An escaped reserved or unsafe character stays escaped: §2.2 says that
    /// decoding one may change the meaning (`%2F` in an ftp path is not `/`).
    /// Nothing else changes: hostnumbers keep their leading zeros (other
    /// software reads them as octal), the fragment is kept (normalized the same
    /// way), and an explicit gopher type stays explicit.
    ///
    /// # Examples
    /// ```
    /// let url = rfc1738::Url::parse("HTTP://WWW.Example.COM:80/%7euser/%41%2f?q=%3d")?;
    /// assert_eq!(url.normalize().as_str(), "http://www.example.com/%7Euser/A%2F?q=%3D");
    /// let ftp = rfc1738::Url::parse("ftp://h.example:021/pub/%2Fetc;type=I")?;
    /// assert_eq!(ftp.normalize().as_str(), "ftp://h.example/pub/%2Fetc;type=i");
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    #[must_use]
    pub fn normalize(&self) -> Url {
        let text = normal_text(self, true);
        match reparse(self, &text) {
            // Decoding an escape in an opaque `//...` part of an unknown
            // scheme can turn it into a login (`foo://%68/` into
            // `foo://h/`); there only the hex digits change.
            Some(url) if url.has_authority() == self.has_authority() => url,
            _ => reparse(self, &normal_text(self, false)).unwrap_or_else(|| self.clone()),
        }
    }

    /// Whether the two URLs name the same thing by the rules of RFC 1738
    /// and the scheme: whether their normal forms are equal. The fragment
    /// counts (compare [`Url::without_fragment`] of the normal forms to
    /// ignore it).
    ///
    /// # Examples
    /// ```
    /// use rfc1738::Url;
    /// let same = |a, b| Url::parse(a).unwrap().equivalent(&Url::parse(b).unwrap());
    /// assert!(same("HTTP://h.Example:80/%7Ex", "http://h.example/%7ex"));
    /// assert!(same("file://localhost/etc/motd", "file:///etc/motd"));
    /// assert!(same("ftp://h.example", "ftp://h.example/"));
    /// assert!(!same("ftp://h.example/%2Fetc", "ftp://h.example//etc"));
    /// assert!(!same("http://h.example/a", "http://h.example/A"));
    /// ```
    #[must_use]
    pub fn equivalent(&self, other: &Url) -> bool {
        self.as_str() == other.as_str() || self.normalize().as_str() == other.normalize().as_str()
    }
}

/// Parses a normal form with the options its URL was parsed with.
fn reparse(url: &Url, text: &str) -> Option<Url> {
    // An https URL of kind `Other` was read by the generic syntax.
    let generic_https = url.kind() == SchemeKind::Other && url.scheme() == "https";
    if url.is_lenient() || generic_https {
        let opts = if url.is_lenient() { ParseOptions::lenient() } else { ParseOptions::strict() };
        Url::parse_with(text, &ParseOptions { generic_https, ..opts }).ok().map(|(u, _)| u)
    } else {
        let parsed = Url::parse(text);
        debug_assert!(parsed.is_ok(), "the normal form of {url} is {text:?}, which does not parse");
        parsed.ok()
    }
}

/// The text of the normal form; `decode` says whether escapes of
/// unreserved characters are decoded.
fn normal_text(url: &Url, decode: bool) -> String {
    let s = url.as_str();
    let p = url.parts();
    let mut out = String::with_capacity(s.len());
    out.push_str(url.scheme());
    out.push(':');
    let rest_start = if let Some(host) = url.host() {
        out.push_str("//");
        if let Some(user) = url.user() {
            escapes(&mut out, user, decode);
            if let Some(pw) = url.password() {
                out.push(':');
                escapes(&mut out, pw, decode);
            }
            out.push('@');
        }
        let local = url.kind() == SchemeKind::File && host.eq_ignore_ascii_case("localhost");
        if !local {
            out.extend(host.chars().map(|c| c.to_ascii_lowercase()));
        }
        if let Some(port) = url.port().filter(|&n| Some(n) != url.kind().default_port()) {
            out.push(':');
            out.push_str(&port.to_string());
        } else if let (None, Some(digits)) = (url.port(), url.port_str()) {
            // §5: a port above 65535 is no default; its leading zeros go.
            let digits = digits.trim_start_matches('0');
            out.push(':');
            out.push_str(digits);
        }
        match p.path {
            Some(path) => path.start() - 1,
            None => {
                if matches!(
                    url.kind(),
                    SchemeKind::Ftp
                        | SchemeKind::Http
                        | SchemeKind::Https
                        | SchemeKind::Gopher
                        | SchemeKind::Telnet
                ) {
                    out.push('/');
                }
                p.end as usize
            }
        }
    } else {
        p.scheme_end as usize + 1
    };
    escapes(&mut out, &s[rest_start..p.end as usize], decode);
    if url.ftp().is_some_and(|f| f.typecode().is_some()) {
        // `;type=X` ends the url-path and holds no escape (§3.2.2).
        let t = out.pop().map(|c| c.to_ascii_lowercase());
        out.extend(t);
    }
    if let Some(fragment) = url.fragment() {
        out.push('#');
        escapes(&mut out, fragment, decode);
    }
    out
}

/// Appends `text` with its escapes in normal form: upper-case hex, an
/// unreserved character decoded (when `decode`), an unsafe character
/// that a lenient parse let through encoded.
fn escapes(out: &mut String, text: &str, decode: bool) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match pct::escape_at(b, i) {
            Some(v) if decode && UNRESERVED.contains(v) => {
                out.push(v as char);
                i += 3;
            }
            Some(v) => {
                pct::push_escape(out, v);
                i += 3;
            }
            None if chars::is_unsafe(b[i]) || chars::is_control(b[i]) || b[i] >= 0x80 => {
                pct::push_escape(out, b[i]);
                i += 1;
            }
            None => {
                out.push(b[i] as char);
                i += 1;
            }
        }
    }
}
