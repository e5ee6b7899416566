//! Where each part of a URL lies in its text: the spans the explorer page
//! marks and labels.
//!
//! Every accessor of [`Url`] returns a slice of the URL's own text, so a
//! part's byte range is where its slice starts in that text. The text has
//! the input's length (only the scheme's case may differ), so the ranges
//! are offsets in the input too.

use rfc1738::{SchemeKind, Url};
use std::ops::Range;

/// One part of a URL: its name (a `parse --get` part name) and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The part's name: `scheme`, `host`, `ftp.cwd`, ...
    pub part: &'static str,
    /// Its byte range in the URL.
    pub range: Range<usize>,
}

/// The spans of a URL, in text order. They do not overlap; the bytes
/// between them are separators (`://`, `@`, `/`, `;type=`).
#[must_use]
pub fn spans(url: &Url) -> Vec<Span> {
    let mut out = Spans { url, list: Vec::new() };
    out.push("scheme", Some(url.scheme()));
    // An empty user name or password is not an absent one (§3.1): it
    // keeps its (empty) span.
    out.push_even_empty("user", url.user());
    out.push_even_empty("password", url.password());
    out.push("host", url.host());
    out.push("port", url.port_str());
    scheme_parts(&mut out);
    out.push("fragment", url.fragment());
    out.list.sort_by_key(|s| s.range.start);
    out.list
}

struct Spans<'a> {
    url: &'a Url,
    list: Vec<Span>,
}

impl Spans<'_> {
    /// Adds the span of `slice`, a slice of the URL's text, unless empty.
    fn push(&mut self, part: &'static str, slice: Option<&str>) {
        self.push_even_empty(part, slice.filter(|s| !s.is_empty()));
    }

    /// Adds the span of `slice`, a slice of the URL's text.
    fn push_even_empty(&mut self, part: &'static str, slice: Option<&str>) {
        let Some(s) = slice else { return };
        let start = s.as_ptr() as usize - self.url.as_str().as_ptr() as usize;
        self.list.push(Span { part, range: start..start + s.len() });
    }
}

/// The spans of the scheme's own parts (§3.2 to §3.11).
fn scheme_parts(out: &mut Spans<'_>) {
    let url = out.url;
    match url.kind() {
        SchemeKind::Ftp => ftp(out),
        SchemeKind::Http | SchemeKind::Https => {
            let h = url.http().expect("kind is http");
            out.push("http.path", h.path());
            out.push("http.search", h.search());
        }
        SchemeKind::Gopher => {
            let g = url.gopher().expect("kind is gopher");
            out.push("gopher.type", g.gtype_raw());
            out.push("gopher.selector", Some(g.selector()));
            out.push("gopher.search", g.search());
            out.push("gopher.plus", g.plus());
        }
        SchemeKind::Mailto => out.push("mailto.address", url.mailto().map(|m| m.address_raw())),
        SchemeKind::News => {
            let n = url.news().expect("kind is news");
            out.push("news.group", n.group());
            out.push("news.article", n.article());
            out.push("news.all", n.is_all().then(|| url.scheme_specific_part()));
        }
        SchemeKind::Nntp => {
            let n = url.nntp().expect("kind is nntp");
            out.push("nntp.group", Some(n.group()));
            out.push("nntp.article", n.article_raw());
        }
        SchemeKind::Wais => {
            let w = url.wais().expect("kind is wais");
            out.push("wais.database", Some(w.database()));
            out.push("wais.wtype", w.wtype());
            out.push("wais.wpath", w.wpath());
            out.push("wais.search", w.search());
        }
        SchemeKind::File => out.push("file.path", url.file().map(|f| f.path())),
        SchemeKind::Prospero => {
            let p = url.prospero().expect("kind is prospero");
            out.push("prospero.hsoname", Some(p.hsoname_raw()));
            for (name, value) in p.fields() {
                out.push("prospero.field", Some(name));
                out.push("prospero.value", Some(value));
            }
        }
        SchemeKind::Telnet => {}
        SchemeKind::Other if url.has_authority() => out.push("url_path", url.url_path()),
        SchemeKind::Other => out.push("other.scheme_specific_part", Some(url.scheme_specific_part())),
    }
}

/// ftp: each `CWD` segment, the name, and the typecode after `;type=`
/// (§3.2.2, §3.2.3).
fn ftp(out: &mut Spans<'_>) {
    let f = out.url.ftp().expect("kind is ftp");
    for segment in f.cwd() {
        out.push("ftp.cwd", Some(segment));
    }
    out.push("ftp.name", Some(f.name()));
    if f.typecode().is_some() {
        let path = out.url.url_path().unwrap_or("");
        out.push("ftp.typecode", path.get(path.len().saturating_sub(1)..));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(input: &str) -> Vec<(&'static str, &str)> {
        let url = Url::parse(input).unwrap();
        spans(&url).into_iter().map(|s| (s.part, &input[s.range])).collect()
    }

    #[test]
    fn ftp_parts_in_order() {
        assert_eq!(
            named("ftp://u:p@h.dom:21/a/b%2Fc/f.txt;type=i#x"),
            [
                ("scheme", "ftp"),
                ("user", "u"),
                ("password", "p"),
                ("host", "h.dom"),
                ("port", "21"),
                ("ftp.cwd", "a"),
                ("ftp.cwd", "b%2Fc"),
                ("ftp.name", "f.txt"),
                ("ftp.typecode", "i"),
                ("fragment", "x"),
            ]
        );
    }

    #[test]
    fn other_schemes() {
        assert_eq!(
            named("gopher://h.dom/7sel%09q"),
            [
                ("scheme", "gopher"),
                ("host", "h.dom"),
                ("gopher.type", "7"),
                ("gopher.selector", "sel"),
                ("gopher.search", "q")
            ]
        );
        assert_eq!(named("HTTP://h/p?q")[0], ("scheme", "HTTP"));
        assert_eq!(named("mailto:a@b.dom")[1], ("mailto.address", "a@b.dom"));
        assert_eq!(named("news:*")[1], ("news.all", "*"));
        assert_eq!(named("x-y:abc")[1], ("other.scheme_specific_part", "abc"));
        assert_eq!(named("file:///etc/motd")[1], ("file.path", "etc/motd"));
        assert_eq!(
            named("wais://h/db/t/p")[2..],
            [("wais.database", "db"), ("wais.wtype", "t"), ("wais.wpath", "p")]
        );
    }

    #[test]
    fn an_empty_user_keeps_its_span() {
        assert_eq!(named("ftp://@h/")[..2], [("scheme", "ftp"), ("user", "")]);
        assert_eq!(named("ftp://u:@h/")[1..3], [("user", "u"), ("password", "")]);
        assert_eq!(named("ftp://h/").len(), 2);
    }

    #[test]
    fn spans_never_overlap() {
        for input in ["ftp://@h/", "prospero://h/a;b=c", "nntp://h/g/1", "telnet://u@h:23/", "x-y://h:1/p"] {
            let url = Url::parse(input).unwrap();
            let s = spans(&url);
            assert!(s.windows(2).all(|w| w[0].range.end <= w[1].range.start), "{input}: {s:?}");
        }
    }
}
