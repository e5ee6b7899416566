//! A part of a URL by its name: the names `parse --get` takes, read from
//! a borrowed URL. The template of `parse --get` and the column kernels of
//! the Python package and the DuckDB extension read the parts here, so a
//! name means the same everywhere.
//!
//! A part read from a [`UrlRef`] borrows the text the URL was read from:
//! a column kernel can point at it instead of copying it.

use rfc1738::{SchemeKind, UrlRef, WaisForm};
use std::borrow::Cow;

/// The value of a part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// Text as written in the URL, escapes in it (§2.2); borrowed when it
    /// is one slice of the URL's text.
    Written(Cow<'a, str>),
    /// A list as written, and the separators whose escapes stay when it
    /// is decoded for a line (a path's `%2F`).
    List(Cow<'a, str>, &'static [u8]),
    /// Text that has no escapes: a name, a typecode, a list of ids.
    Plain(Cow<'a, str>),
    /// A port: its value and, when written, how (`80` and `0080`); a
    /// lenient parse takes a port above 65535.
    Port(u64, Option<&'a str>),
}

/// How a part is read from a valid URL.
pub type Getter = for<'a> fn(&UrlRef<'a>) -> Option<Value<'a>>;

/// Every part a name can ask for, in the order of the documentation.
/// `input`, `valid`, `scheme`, `kind` and `error.*` are said of an
/// invalid input too: their getters here answer `None`, and who reads
/// them reads them apart ([`crate::template`]; the column kernels).
pub const PARTS: &[(&str, Getter)] = &[
    ("input", |_| None),
    ("valid", |_| None),
    ("scheme", |_| None),
    ("kind", |_| None),
    ("error.offset", |_| None),
    ("error.kind", |_| None),
    ("error.rule", |_| None),
    ("error.message", |_| None),
    ("warnings", |u| {
        let ids: Vec<&str> = u.to_url().security_warnings().iter().map(|w| w.kind().id()).collect();
        Some(plain(ids.join(",")))
    }),
    ("user", |u| u.user().map(written)),
    ("password", |u| u.password().map(written)),
    ("host", |u| u.host().map(written)),
    ("port", |u| {
        let text = u.port_str()?;
        // A port past what a `u64` holds is still a port (§5: `port =
        // digits`): its text, as written.
        Some(match u.port().map(u64::from).or_else(|| text.parse().ok()) {
            Some(n) => Value::Port(n, Some(text)),
            None => written(text),
        })
    }),
    ("effective_port", |u| u.effective_port().map(|p| Value::Port(p.into(), None))),
    ("url_path", |u| u.url_path().map(|p| list_of(p, b"/;?"))),
    ("fragment", |u| u.fragment().map(written)),
    ("scheme_specific_part", |u| Some(written(u.scheme_specific_part()))),
    ("ftp.cwd", |u| u.ftp().map(|f| list_of(f.cwd().collect::<Vec<_>>().join("/"), b"/"))),
    ("ftp.name", |u| u.ftp().map(|f| written(f.name()))),
    ("ftp.typecode", |u| u.ftp()?.typecode().map(|t| plain((t as char).to_string()))),
    ("gopher.type", |u| u.gopher().map(|g| gopher_type(g.gtype_raw(), g.gopher_type()))),
    ("gopher.selector", |u| u.gopher().map(|g| written(g.selector()))),
    ("gopher.search", |u| u.gopher()?.search().map(written)),
    ("gopher.plus", |u| u.gopher()?.plus().map(written)),
    ("http.path", |u| u.http()?.path().map(|p| list_of(p, b"/"))),
    ("http.search", |u| u.http()?.search().map(written)),
    ("mailto.address", |u| u.mailto().map(|m| written(m.address_raw()))),
    ("news.group", |u| u.news()?.group().map(written)),
    ("news.article", |u| u.news()?.article().map(written)),
    ("nntp.group", |u| u.nntp().map(|n| written(n.group()))),
    ("nntp.article", |u| u.nntp()?.article_raw().map(written)),
    ("wais.form", |u| u.wais().map(|w| plain(wais_form(w.form())))),
    ("wais.database", |u| u.wais().map(|w| written(w.database()))),
    ("wais.search", |u| u.wais()?.search().map(written)),
    ("wais.wtype", |u| u.wais()?.wtype().map(written)),
    ("wais.wpath", |u| u.wais()?.wpath().map(written)),
    ("file.host", |u| u.file().map(|f| written(f.host()))),
    ("file.path", |u| u.file().map(|f| list_of(f.path(), b"/"))),
    ("prospero.hsoname", |u| u.prospero().map(|p| list_of(p.hsoname_raw(), b"/"))),
    ("prospero.fields", |u| {
        let fields: Vec<String> = u.prospero()?.fields().map(|(n, v)| format!("{n}={v}")).collect();
        Some(list_of(fields.join(";"), b";="))
    }),
    ("other.scheme_specific_part", |u| u.other().map(|o| written(o.scheme_specific_part()))),
];

/// The index in [`PARTS`] of the part named `name`.
#[must_use]
pub fn find(name: &str) -> Option<usize> {
    PARTS.iter().position(|(n, _)| *n == name)
}

/// The names of every part, in the order of the documentation.
pub fn names() -> impl Iterator<Item = &'static str> {
    PARTS.iter().map(|(name, _)| *name)
}

/// The search of a URL whose scheme has one: http's `?search` (§3.3),
/// gopher's search after `%09` (§3.4), wais's `?search` (§3.9).
#[must_use]
pub fn search<'a>(url: &UrlRef<'a>) -> Option<&'a str> {
    match url.kind() {
        SchemeKind::Http | SchemeKind::Https => url.http()?.search(),
        SchemeKind::Gopher => url.gopher()?.search(),
        SchemeKind::Wais => url.wais()?.search(),
        _ => None,
    }
}

fn written<'a>(s: impl Into<Cow<'a, str>>) -> Value<'a> {
    Value::Written(s.into())
}

fn list_of<'a>(s: impl Into<Cow<'a, str>>, keep: &'static [u8]) -> Value<'a> {
    Value::List(s.into(), keep)
}

fn plain<'a>(s: impl Into<Cow<'a, str>>) -> Value<'a> {
    Value::Plain(s.into())
}

/// The gopher type: as written when it is written, else the default `1`
/// (§3.4: an empty path is a type 1 menu).
fn gopher_type(raw: Option<&str>, gtype: u8) -> Value<'_> {
    match raw {
        Some(r) => written(r),
        None => plain((gtype as char).to_string()),
    }
}

fn wais_form(form: WaisForm) -> &'static str {
    match form {
        WaisForm::Database => "database",
        WaisForm::Index => "index",
        WaisForm::Doc => "doc",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_part_borrows_the_text() {
        let text = String::from("ftp://h.dom:0021/a/b;type=I");
        let url = UrlRef::parse(&text).unwrap();
        let Some(Value::Written(Cow::Borrowed(host))) = PARTS[find("host").unwrap()].1(&url) else {
            panic!("a borrowed host")
        };
        assert_eq!(host.as_ptr() as usize - text.as_ptr() as usize, 6);
        assert_eq!(PARTS[find("port").unwrap()].1(&url), Some(Value::Port(21, Some("0021"))));
        assert_eq!(PARTS[find("url_path").unwrap()].1(&url), Some(list_of("a/b;type=I", b"/;?")));
        assert_eq!(PARTS[find("ftp.typecode").unwrap()].1(&url), Some(plain("i")));
        assert_eq!(search(&UrlRef::parse("wais://h/db?x").unwrap()), Some("x"));
        assert_eq!(search(&UrlRef::parse("ftp://h/db").unwrap()), None);
    }

    #[test]
    fn a_port_too_large_for_a_number_is_its_text() {
        // §5: `port = digits`, any number of them; past 2^64 no number
        // holds it, but the URL still has a port.
        let big = UrlRef::parse("http://h:99999999999999999999/").unwrap();
        assert_eq!(PARTS[find("port").unwrap()].1(&big), Some(written("99999999999999999999")));
        let large = UrlRef::parse("http://h:99999/").unwrap();
        assert_eq!(PARTS[find("port").unwrap()].1(&large), Some(Value::Port(99999, Some("99999"))));
    }
}
