//! Oracle: for every URL that parses (strictly, or leniently with options
//! from the first byte), the normal form parses, passes its invariants, is
//! its own normal form (idempotence), is equivalent to the URL, and means
//! the same: every component decoded to octets is unchanged, except for
//! what `Url::normalize` documents as not mattering (the case of the
//! host, a written default port, `localhost` for a file URL, an absent
//! url-path where `/` is implied).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use rfc1738::{pct, FtpLogin, ParseOptions, SchemeKind, Url};

fn d(s: Option<&str>) -> Option<Vec<u8>> {
    s.map(|s| pct::decode(s).into_owned())
}

/// What a URL means: each component decoded to octets, and what a client
/// would do with it.
fn meaning(u: &Url) -> Vec<String> {
    let mut m = vec![
        format!("scheme {}", u.scheme()),
        format!("user {:?}", d(u.user())),
        format!("password {:?}", d(u.password())),
        format!("host {:?}", u.host().map(str::to_ascii_lowercase)),
        format!("port {:?}", u.effective_port()),
        format!("fragment {:?}", d(u.fragment())),
    ];
    if let Some(f) = u.ftp() {
        let login = match f.login() {
            FtpLogin::Anonymous => "anonymous".to_string(),
            FtpLogin::User { user, password } => format!("{user:?} {password:?}"),
        };
        m.push(format!("ftp {login} {:?}", f.commands().iter().map(|c| c.line()).collect::<Vec<_>>()));
    } else if let Some(h) = u.http() {
        m.push(format!("http {:?} {:?}", d(h.path()).unwrap_or_default(), d(h.search())));
    } else if let Some(g) = u.gopher() {
        m.push(format!("gopher {} {:?}", g.gopher_type(), g.request()));
    } else if let Some(x) = u.mailto() {
        m.push(format!("mailto {:?}", x.address()));
    } else if let Some(n) = u.news() {
        m.push(format!("news {:?} {:?} {}", d(n.group()), d(n.article()), n.is_all()));
    } else if let Some(n) = u.nntp() {
        m.push(format!("nntp {} {:?}", n.group(), n.article()));
    } else if let Some(w) = u.wais() {
        m.push(format!(
            "wais {:?} {:?} {:?} {:?} {:?}",
            w.form(),
            d(Some(w.database())),
            d(w.search()),
            d(w.wtype()),
            d(w.wpath())
        ));
    } else if let Some(f) = u.file() {
        m.push(format!("file {} {:?}", f.is_local(), f.segments().map(|s| d(Some(s))).collect::<Vec<_>>()));
        m[3] = format!("host {:?}", if f.is_local() { None } else { Some(f.host().to_ascii_lowercase()) });
    } else if let Some(p) = u.prospero() {
        let fields: Vec<_> = p.fields().map(|(n, v)| (d(Some(n)), d(Some(v)))).collect();
        m.push(format!("prospero {:?} {fields:?}", p.hsoname()));
    } else if u.kind() == SchemeKind::Other {
        match u.host() {
            Some(_) => m.push(format!("path {:?}", d(u.url_path()))),
            None => m.push(format!("ssp {:?}", d(Some(u.scheme_specific_part())))),
        }
    }
    m
}

/// `generic_https`: the URL was read with https as any other scheme, and
/// its normal form reads back only so.
fn check(url: &Url, generic_https: bool) {
    let n = url.normalize();
    n.check_invariants();
    let again = n.normalize();
    assert_eq!(again.as_str(), n.as_str(), "not idempotent: {url} -> {n} -> {again}");
    assert!(url.equivalent(&n) && n.equivalent(url), "{url} not equivalent to its normal form {n}");
    assert_eq!(meaning(url), meaning(&n), "{url} -> {n} changes the meaning");
    if !url.is_lenient() {
        let strict = ParseOptions { generic_https, ..ParseOptions::strict() };
        let again = Url::parse_with(n.as_str(), &strict).map(|(u, _)| u);
        assert_eq!(again.as_ref(), Ok(&n), "{n} does not reparse to itself");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&bits, rest)) = data.split_first() else { return };
    let Ok(input) = std::str::from_utf8(rest) else { return };
    if let Ok(url) = Url::parse(input) {
        check(&url, false);
    }
    let options = common::options(bits);
    if let Ok((url, _)) = Url::parse_with(input, &options) {
        check(&url, options.generic_https);
    }
});
