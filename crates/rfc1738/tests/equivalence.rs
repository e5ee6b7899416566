//! Properties of the normal form, equivalence and the builders, held over
//! every `ok` case of the conformance files:
//!
//! - normalizing is idempotent, and the normal form parses (strictly);
//! - a URL and its normal form are equivalent and mean the same: the same
//!   decoded parts in every view;
//! - URLs written differently in the ways RFC 1738 says do not matter
//!   (case of the scheme and host, the default port, escapes of
//!   unreserved characters, case of hex digits) are equivalent and have
//!   equal normal forms;
//! - building from a URL's decoded parts gives a URL with the same parts.

mod common;

use rfc1738::build::{
    BuildError, BuildErrorKind, FileBuilder, FtpBuilder, GenericBuilder, GopherBuilder, HttpBuilder,
    MailtoBuilder, NewsBuilder, NntpBuilder, ProsperoBuilder, TelnetBuilder, WaisBuilder,
};
use rfc1738::{pct, Rule, SchemeKind, Url, WaisForm};

fn dec(s: &str) -> String {
    common::show(&pct::decode(s))
}

fn dec_opt(s: Option<&str>) -> String {
    s.map_or("-".into(), dec)
}

/// What a URL means: its decoded parts in every view, with case and the
/// default port taken out where the RFC says they do not matter.
fn meaning(url: &Url) -> Vec<String> {
    let mut m = vec![
        url.scheme().to_owned(),
        format!("authority {}", url.has_authority()),
        dec_opt(url.user()),
        dec_opt(url.password()),
        format!("{:?}", url.effective_port()),
        dec_opt(url.fragment()),
    ];
    let host = url.host().map(str::to_ascii_lowercase);
    let local = url.file().is_some_and(|f| f.is_local());
    m.push(if local { "local".into() } else { format!("{host:?}") });
    m.extend(parts(url));
    m
}

/// The decoded parts of the scheme's view, the ones a builder takes.
fn parts(url: &Url) -> Vec<String> {
    let mut m = Vec::new();
    match url.kind() {
        SchemeKind::Ftp => {
            let f = url.ftp().unwrap();
            m.extend(f.cwd().map(|s| format!("cwd {}", dec(s))));
            m.push(format!("name {}", dec(f.name())));
            m.push(format!("type {:?}", f.typecode()));
            m.extend(f.commands().iter().map(|c| common::show(&c.line())));
        }
        SchemeKind::Http | SchemeKind::Https => {
            let h = url.http().unwrap();
            // §3.3: with no path and no search "the "/" may also be omitted".
            m.extend(h.path().unwrap_or("").split('/').map(|s| format!("segment {}", dec(s))));
            m.push(format!("search {}", dec_opt(h.search())));
        }
        SchemeKind::Gopher => {
            let g = url.gopher().unwrap();
            m.push(format!("type {}", g.gopher_type()));
            m.push(format!("selector {}", dec(g.selector())));
            m.push(format!("search {}", dec_opt(g.search())));
            m.push(format!("plus {}", dec_opt(g.plus())));
            m.push(common::show(&g.request()));
        }
        SchemeKind::Mailto => m.push(common::show(&url.mailto().unwrap().address())),
        SchemeKind::News => {
            let n = url.news().unwrap();
            m.push(format!("{} {} {}", n.is_all(), dec_opt(n.group()), dec_opt(n.article())));
        }
        SchemeKind::Nntp => {
            let n = url.nntp().unwrap();
            m.push(format!("{} {:?}", n.group(), n.article()));
        }
        SchemeKind::Telnet => {}
        SchemeKind::Wais => {
            let w = url.wais().unwrap();
            m.push(format!("{:?} {}", w.form(), dec(w.database())));
            m.push(format!("{} {} {}", dec_opt(w.search()), dec_opt(w.wtype()), dec_opt(w.wpath())));
        }
        SchemeKind::File => m.extend(url.file().unwrap().segments().map(|s| format!("segment {}", dec(s)))),
        SchemeKind::Prospero => {
            let p = url.prospero().unwrap();
            m.push(common::show(&p.hsoname()));
            m.extend(p.fields().map(|(n, v)| format!("{}={}", dec(n), dec(v))));
        }
        SchemeKind::Other => {
            if url.has_authority() {
                m.push(format!("path {}", dec_opt(url.url_path())));
            } else {
                m.push(format!("ssp {}", dec(url.scheme_specific_part())));
            }
        }
    }
    m
}

#[test]
fn normalize_is_idempotent_and_keeps_the_meaning() {
    let inputs = common::ok_inputs();
    assert!(inputs.len() > 80, "{}", inputs.len());
    for input in &inputs {
        let url = Url::parse(input).unwrap();
        let n = url.normalize();
        n.check_invariants();
        assert!(!n.is_lenient());
        assert_eq!(Url::parse(n.as_str()).as_ref(), Ok(&n), "{input}: the normal form parses strictly");
        assert_eq!(n.normalize().as_str(), n.as_str(), "{input}: idempotent");
        assert!(url.equivalent(&n) && n.equivalent(&url), "{input}");
        assert_eq!(meaning(&n), meaning(&url), "{input} -> {n}");
    }
}

/// Ways of writing `url` that RFC 1738 says name the same thing.
fn variants(url: &Url) -> Vec<String> {
    let s = url.as_str();
    let mut out = vec![s.replacen(url.scheme(), &url.scheme().to_ascii_uppercase(), 1)];
    let host = url.host().filter(|h| !h.is_empty());
    let host_range = host.map(|h| {
        let start = s.find(h).unwrap();
        start..start + h.len()
    });
    if let Some(r) = host_range.clone() {
        out.push(format!("{}{}{}", &s[..r.start], s[r.clone()].to_ascii_uppercase(), &s[r.end..]));
        if let (None, Some(port), false) =
            (url.port(), url.kind().default_port(), url.kind() == SchemeKind::File)
        {
            out.push(format!("{}:{port}{}", &s[..r.end], &s[r.end..]));
            out.push(format!("{}:000{port}{}", &s[..r.end], &s[r.end..]));
        }
    }
    // Each unreserved character outside the scheme, host and port, encoded.
    let bare = url.without_fragment().len();
    let login_end = url.url_path().map_or(bare, |p| bare - p.len() - 1);
    for (i, c) in s.char_indices().skip(url.scheme().len() + 1) {
        let in_login = host_range.as_ref().is_some_and(|r| i >= r.start && i < login_end);
        if c.is_ascii_alphanumeric() && !in_login {
            out.push(format!("{}%{:02x}{}", &s[..i], c as u32, &s[i + 1..]));
        }
    }
    // Hex digits in lower case.
    let lower: Vec<String> =
        s.split('%').enumerate().map(|(n, p)| if n == 0 { p.to_owned() } else { lower_hex(p) }).collect();
    out.push(lower.join("%"));
    out
}

/// `p` with its first two characters (the hex digits after a `%`) in lower case.
fn lower_hex(p: &str) -> String {
    let n = p.len().min(2);
    format!("{}{}", p[..n].to_ascii_lowercase(), &p[n..])
}

#[test]
fn equivalent_urls_have_equal_normal_forms() {
    let mut checked = 0;
    for input in common::ok_inputs() {
        let url = Url::parse(&input).unwrap();
        for v in variants(&url) {
            let Ok(other) = Url::parse(&v) else { continue };
            if other.has_authority() != url.has_authority() || meaning(&other) != meaning(&url) {
                continue; // a different parse, not another spelling
            }
            checked += 1;
            assert!(url.equivalent(&other), "{input} and {v}");
            assert_eq!(url.normalize().as_str(), other.normalize().as_str(), "{input} and {v}");
        }
    }
    assert!(checked > 500, "only {checked} variants");
}

#[test]
fn different_urls_are_not_equivalent() {
    let inputs = common::ok_inputs();
    for (i, a) in inputs.iter().enumerate() {
        let ua = Url::parse(a).unwrap();
        for b in &inputs[i + 1..] {
            let ub = Url::parse(b).unwrap();
            if ua.equivalent(&ub) {
                assert_eq!(
                    meaning(&ua),
                    meaning(&ub),
                    "{a} and {b} are equivalent but mean different things"
                );
            }
        }
    }
}

/// Builds a URL from the decoded parts of `url`'s view.
fn build_from(url: &Url) -> Result<Url, BuildError> {
    let host = url.host().unwrap_or("");
    let d = |s: &str| pct::decode(s).into_owned();
    macro_rules! login {
        ($b:expr, user) => {{
            let mut b = $b;
            if let Some(u) = url.user() {
                b = b.user(d(u));
            }
            if let Some(p) = url.password() {
                b = b.password(d(p));
            }
            login!(b, port)
        }};
        ($b:expr, port) => {{
            let mut b = $b;
            if let Some(p) = url.port() {
                b = b.port(p);
            }
            b
        }};
    }
    match url.kind() {
        SchemeKind::Ftp => {
            let f = url.ftp().unwrap();
            let mut b = login!(FtpBuilder::new(host), user);
            for seg in f.cwd() {
                b = b.cwd(d(seg));
            }
            b = b.name(d(f.name()));
            if let Some(t) = f.typecode() {
                b = b.typecode(t);
            }
            b.build()
        }
        kind @ (SchemeKind::Http | SchemeKind::Https) => {
            let h = url.http().unwrap();
            let new = if kind == SchemeKind::Https { HttpBuilder::https } else { HttpBuilder::new };
            let mut b = login!(new(host), port);
            for seg in h.segments() {
                b = b.segment(d(seg));
            }
            if let Some(s) = h.search() {
                b = b.search(d(s));
            }
            b.build()
        }
        SchemeKind::Gopher => {
            let g = url.gopher().unwrap();
            let mut b =
                login!(GopherBuilder::new(host), port).gopher_type(g.gopher_type()).selector(d(g.selector()));
            if let Some(s) = g.search() {
                b = b.search(d(s));
            }
            if let Some(p) = g.plus() {
                b = b.plus(d(p));
            }
            b.build()
        }
        SchemeKind::Mailto => MailtoBuilder::new(url.mailto().unwrap().address()).build(),
        SchemeKind::News => {
            let n = url.news().unwrap();
            match (n.is_all(), n.group(), n.article()) {
                (true, _, _) => NewsBuilder::all(),
                (_, Some(g), _) => NewsBuilder::group(g),
                (_, _, Some(a)) => NewsBuilder::article(d(a)),
                _ => unreachable!(),
            }
            .build()
        }
        SchemeKind::Nntp => {
            let n = url.nntp().unwrap();
            let mut b = login!(NntpBuilder::new(host, n.group()), port);
            if let Some(a) = n.article() {
                b = b.article(a);
            }
            b.build()
        }
        SchemeKind::Telnet => login!(TelnetBuilder::new(host), user).build(),
        SchemeKind::Wais => {
            let w = url.wais().unwrap();
            let b = login!(WaisBuilder::new(host, d(w.database())), port);
            match w.form() {
                WaisForm::Database => b,
                WaisForm::Index => b.search(d(w.search().unwrap())),
                WaisForm::Doc => b.document(d(w.wtype().unwrap()), d(w.wpath().unwrap())),
            }
            .build()
        }
        SchemeKind::File => {
            let mut b = FileBuilder::new(host);
            for seg in url.file().unwrap().segments() {
                b = b.segment(d(seg));
            }
            b.build()
        }
        SchemeKind::Prospero => {
            let p = url.prospero().unwrap();
            let mut b = login!(ProsperoBuilder::new(host, p.hsoname()), port);
            for (n, v) in p.fields() {
                b = b.field(d(n), d(v));
            }
            b.build()
        }
        SchemeKind::Other => {
            let mut b = GenericBuilder::new(url.scheme());
            if url.has_authority() {
                b = b.host(host);
                if let Some(u) = url.user() {
                    b = b.user(d(u));
                }
                if let Some(p) = url.password() {
                    b = b.password(d(p));
                }
                if let Some(p) = url.port() {
                    b = b.port(p);
                }
                if let Some(p) = url.url_path() {
                    b = b.path(d(p));
                }
            } else {
                b = b.path(d(url.scheme_specific_part()));
            }
            b.build()
        }
    }
}

#[test]
fn building_from_the_parts_gives_the_parts_back() {
    for input in common::ok_inputs() {
        let url = Url::parse(&input).unwrap();
        let plain = Url::parse(url.without_fragment()).unwrap();
        let selector = url.gopher().map(|g| g.selector_decoded().into_owned()).unwrap_or_default();
        match build_from(&plain) {
            Ok(built) => {
                built.check_invariants();
                assert_eq!(parts(&built), parts(&plain), "{input} built as {built}");
                assert_eq!(built.user_decoded(), plain.user_decoded(), "{input}");
                assert_eq!(built.password_decoded(), plain.password_decoded(), "{input}");
                assert_eq!(built.host(), plain.host(), "{input}");
                assert_eq!(built.port(), plain.port(), "{input}");
                assert_eq!(built.normalize().as_str(), build_from(&built).unwrap().normalize().as_str());
            }
            // §3.4: a selector with CR or LF cannot be sent; the builder says so.
            Err(e) if selector.iter().any(|b| b"\t\r\n".contains(b)) => {
                assert_eq!(e.part(), Rule::Selector, "{input}");
                assert!(matches!(e.kind(), BuildErrorKind::Octet(_)));
            }
            Err(e) => panic!("{input}: {e}"),
        }
    }
}

/// Mutations of the conformance cases: whatever still parses, strictly or
/// leniently, keeps the properties, and a lenient parse reads a text the
/// grammar accepts exactly as a strict parse does.
mod mutations {
    use super::{build_from, meaning, parts};
    use proptest::prelude::*;
    use proptest::test_runner::Config;
    use rfc1738::{ParseOptions, Url, WarningKind};

    /// Texts that matter to the grammar, the lenient options and the checks.
    const TOKENS: &[&str] = &[
        "%",
        "%0D",
        "%0a",
        "%00",
        "%2F",
        "%2e%2E",
        "%09",
        "%7e",
        "%41",
        "%3A",
        "~",
        "|",
        " ",
        "{",
        "^",
        "`",
        "_",
        ".",
        "-",
        ":",
        ":0",
        ":21",
        ":080",
        "@",
        "u:p@",
        "/",
        "//",
        "?",
        ";",
        ";type=A",
        "=",
        "&",
        "#",
        "+",
        "..",
        "A",
        "0",
        "010.",
        "256",
        "\"",
        "<",
        "\t",
        "\u{e9}",
        "localhost",
        "HTTP",
        "x-",
    ];

    fn mutated() -> impl Strategy<Value = String> {
        let inputs = crate::common::ok_inputs();
        let edit = (any::<prop::sample::Index>(), 0..3u8, prop::sample::select(TOKENS));
        (prop::sample::select(inputs), prop::collection::vec(edit, 1..4)).prop_map(|(input, edits)| {
            let mut s = input;
            for (at, op, token) in edits {
                let mut i = at.index(s.len() + 1);
                while !s.is_char_boundary(i) {
                    i -= 1;
                }
                let next = s[i..].chars().next().map_or(i, |c| i + c.len_utf8());
                match op {
                    0 => s.insert_str(i, token),
                    1 => s.replace_range(i..next, token),
                    _ => s.replace_range(i..next, ""),
                }
            }
            s
        })
    }

    fn check(input: &str) {
        let strict = Url::parse(input);
        let lenient = Url::parse_with(input, &ParseOptions::lenient());
        if let Ok(url) = &strict {
            let (l, w) = lenient.clone().expect("lenient accepts what strict accepts");
            assert_eq!(&l, url, "{input}");
            assert!(w.iter().all(|w| w.kind() == WarningKind::UppercaseScheme), "{input}: {w:?}");
            if let Ok(built) = build_from(url) {
                if url.fragment().is_none() {
                    assert_eq!(parts(&built), parts(url), "{input} built as {built}");
                }
            }
        }
        let Ok((url, warnings)) = lenient else { return };
        url.check_invariants();
        assert!(warnings.iter().all(|w| w.offset() <= input.len()));
        let n = url.normalize();
        n.check_invariants();
        assert_eq!(n.normalize().as_str(), n.as_str(), "{input}: idempotent");
        assert!(url.equivalent(&n), "{input}");
        assert_eq!(meaning(&n), meaning(&url), "{input} -> {n}");
        if strict.is_ok() {
            assert!(!n.is_lenient() && Url::parse(n.as_str()).is_ok(), "{input} -> {n}");
        }
        for w in url.security_warnings() {
            assert!(w.offset() < input.len().max(1), "{input}: {w}");
        }
        let red = url.redacted();
        assert!(Url::parse_with(&red, &ParseOptions::lenient()).is_ok(), "{input}: {red}");
    }

    proptest! {
        #![proptest_config(Config { cases: 50_000, failure_persistence: None, ..Config::default() })]
        #[test]
        fn mutated_cases_keep_the_properties(input in mutated()) {
            check(&input);
        }
    }
}
