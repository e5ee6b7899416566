//! Relative URLs (RFC 1808): the examples of its section 5, verbatim
//! (tests/rfc1808/examples.txt), and the round trip of `make_relative`.

use proptest::prelude::*;
use rfc1738::{ResolveErrorKind, SchemeKind, Url};

/// The examples as (reference, result): `<>` is the empty reference.
fn examples() -> Vec<(String, String)> {
    let text = include_str!("rfc1808/examples.txt");
    let examples: Vec<(String, String)> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (reference, result) = l.split_once(" = ").expect("reference = <URL:result>");
            let reference = reference.trim();
            let reference = if reference == "<>" { "" } else { reference };
            let result = result.trim().strip_prefix("<URL:").and_then(|r| r.strip_suffix('>'));
            (reference.to_owned(), result.expect("<URL:...>").to_owned())
        })
        .collect();
    assert_eq!(examples.len(), 24 + 15, "every example of §5.1 and §5.2");
    examples
}

/// The results of §5 that are not RFC 1738 URLs.
const NOT_RFC1738: [&str; 3] = ["http://a/b/c/g?y/./x", "http:g", "http:"];

#[test]
fn rfc1808_section_5_examples() {
    let base = Url::parse("http://a/b/c/d;p?q#f").unwrap();
    for (reference, expected) in examples() {
        let text = base.resolve_to_string(&reference).unwrap();
        assert_eq!(text, expected, "RFC 1808 §5: {reference:?}");
        match base.resolve(&reference) {
            Ok(url) => assert_eq!(url.as_str(), expected, "{reference:?}"),
            // Texts §5 gives that RFC 1738 does not accept: `http:g` and
            // `http:` (§3.3 needs `//`), and a "/" in an http search (§3.3
            // `search` has no "/"). The error names the text §4 made.
            Err(e) => {
                assert!(NOT_RFC1738.contains(&expected.as_str()), "{reference:?}: {e}");
                assert_eq!(e.resolved(), Some(expected.as_str()));
            }
        }
    }
}

#[test]
fn ftp_params_stay_apart() {
    let base = Url::parse("ftp://h.dom/pub/dir/file;type=a").unwrap();
    assert_eq!(base.resolve("other").unwrap().as_str(), "ftp://h.dom/pub/dir/other");
    assert_eq!(base.resolve(";type=i").unwrap().as_str(), "ftp://h.dom/pub/dir/file;type=i");
    assert_eq!(base.resolve("../x").unwrap().as_str(), "ftp://h.dom/pub/x");
}

#[test]
fn a_base_without_a_path_has_the_root_for_directory() {
    let base = Url::parse("http://a.dom").unwrap();
    assert_eq!(base.resolve("g").unwrap().as_str(), "http://a.dom/g");
    assert_eq!(base.resolve("../g").unwrap().as_str(), "http://a.dom/../g");
    assert_eq!(base.resolve("?y").unwrap().as_str(), "http://a.dom/?y");
    assert_eq!(base.resolve("#f").unwrap().as_str(), "http://a.dom#f");
}

#[test]
fn non_hierarchical_bases_take_only_what_needs_no_path() {
    for (base, kind) in [
        ("mailto:a@b.dom", SchemeKind::Mailto),
        ("news:comp.lang", SchemeKind::News),
        ("telnet://h.dom/", SchemeKind::Telnet),
        ("x-mine:opaque", SchemeKind::Other),
    ] {
        let url = Url::parse(base).unwrap();
        let err = url.resolve("x").unwrap_err();
        assert_eq!(err.kind(), &ResolveErrorKind::NotHierarchical(kind), "{base}");
        let message = err.to_string();
        assert!(message.contains("no hierarchical path") && !message.contains(" a other"), "{message}");
        assert_eq!(url.make_relative(&url), None);
        // RFC 1808 §4 step 2b: an absolute reference is the answer, whatever
        // the base; step 5: a fragment keeps the base.
        assert_eq!(url.resolve("http://h.dom/x").unwrap().as_str(), "http://h.dom/x", "{base}");
        assert_eq!(url.resolve("#f").unwrap().as_str(), format!("{base}#f"), "{base}");
        assert_eq!(url.resolve("").unwrap().as_str(), base);
    }
}

#[test]
fn gopher_wais_nntp_and_prospero_bases_in_the_generic_form_resolve() {
    // RFC 1808 §2.3, RFC 1738 §3.4, §3.5: relative URLs apply whenever the
    // base has the generic form.
    for (base, reference, result) in [
        ("gopher://h.dom/1dir/sub", "other", "gopher://h.dom/1dir/other"),
        ("wais://h.dom/db/t/p", "q", "wais://h.dom/db/t/q"),
        ("nntp://h.dom/comp.lang.c/12", "13", "nntp://h.dom/comp.lang.c/13"),
        ("prospero://h.dom/a/b", "../c", "prospero://h.dom/c"),
        ("gopher://h.dom/0sel", "//k.dom/1x", "gopher://k.dom/1x"),
    ] {
        let url = Url::parse(base).unwrap();
        assert_eq!(url.resolve(reference).unwrap().as_str(), result, "{base} + {reference}");
        let target = Url::parse(result).unwrap();
        assert_eq!(url.resolve(&url.make_relative(&target).unwrap()).unwrap(), target);
    }
}

/// Every reference up to `max` characters of `alphabet`.
fn references(alphabet: &[u8], max: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..max {
        last = last.iter().flat_map(|r| alphabet.iter().map(move |&c| format!("{r}{}", c as char))).collect();
        all.extend(last.iter().cloned());
    }
    all
}

#[test]
fn make_relative_is_the_shortest_reference_an_exhaustive_search_finds() {
    // Every reference of up to 6 characters over a letter of the bases
    // and the delimiters, resolved against each base: for each URL reached,
    // the shortest of them. `make_relative` must reach it too, in no more.
    let refs = references(b"b/.;?#", 6);
    for base in [
        "http://a",
        "http://a/",
        "http://a/b",
        "http://a/b/",
        "http://a/b/c",
        "http://a/b/c/",
        "http://a/b/c;b",
        "http://a/b?c",
        "http://a/b#c",
        "http://a/b/c;b?c#b",
        "ftp://a/b/c/b",
        "gopher://a/1b/c",
    ] {
        let base = Url::parse(base).unwrap();
        let mut shortest: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
        for r in &refs {
            if let Ok(url) = base.resolve(r) {
                shortest.entry(url.as_str().to_owned()).or_insert(r);
            }
        }
        assert!(shortest.len() > 100, "{base}: {} targets", shortest.len());
        for (target, best) in shortest {
            let target = Url::parse(&target).unwrap();
            let rel = base.make_relative(&target).unwrap();
            assert_eq!(base.resolve(&rel).unwrap(), target, "{base} -> {target}: {rel:?}");
            assert!(rel.len() <= best.len(), "{base} -> {target}: {rel:?}, but {best:?} is shorter");
        }
    }
}

#[test]
fn reference_errors_have_offsets() {
    let base = Url::parse("http://a/b").unwrap();
    let err = base.resolve("x/a b").unwrap_err();
    assert_eq!((err.offset(), err.kind()), (3, &ResolveErrorKind::InvalidChar));
    let err = base.resolve("x%4").unwrap_err();
    assert_eq!((err.offset(), err.kind()), (1, &ResolveErrorKind::InvalidEscape));
    let err = base.resolve("a#b#c").unwrap_err();
    assert_eq!((err.offset(), err.kind()), (3, &ResolveErrorKind::InvalidChar));
    let err = base.resolve("//a..b/").unwrap_err();
    assert!(matches!(err.kind(), ResolveErrorKind::NotRfc1738 { .. }));
}

#[test]
fn make_relative_is_short() {
    let base = Url::parse("http://a/b/c/d;p?q").unwrap();
    for (target, rel) in [
        ("http://a/b/c/g", "g"),
        ("http://a/b/g", "../g"),
        ("http://a/x/y", "/x/y"),
        ("http://g/x", "//g/x"),
        ("http://a/b/c/d;p?y", "?y"),
        ("http://a/b/c/d;p?q", ""),
        ("http://a/b/c/d;p?q#s", "#s"),
        ("ftp://a/b", "ftp://a/b"),
        ("http://a/b/c/", "."),
        ("http://a/b/", ".."),
    ] {
        let t = Url::parse(target).unwrap();
        assert_eq!(base.make_relative(&t).as_deref(), Some(rel), "{target}");
    }
}

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z0-9]{1,4}",
        1 => Just(".".to_owned()),
        1 => Just("..".to_owned()),
        1 => Just(String::new()),
        1 => "[a-z]{1,3};[a-z]=[a-z]",
        1 => "%2[Ff][a-z]",
    ]
}

fn http_url() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["a.dom", "b.dom"]),
        prop::collection::vec(segment(), 0..5),
        prop::option::of("[a-z=&]{0,4}"),
        prop::option::of("[a-z]{0,3}"),
    )
        .prop_map(|(host, segs, query, frag)| {
            let mut u = format!("http://{host}/{}", segs.join("/"));
            if let Some(q) = query {
                u = format!("{u}?{q}");
            }
            if let Some(f) = frag {
                u = format!("{u}#{f}");
            }
            u
        })
}

fn ftp_url() -> impl Strategy<Value = String> {
    (prop::collection::vec(segment(), 0..5), prop::option::of(prop::sample::select(vec!["a", "i", "d"])))
        .prop_map(|(segs, ty)| {
            let segs: Vec<String> = segs.into_iter().map(|s| s.replace([';', '='], "")).collect();
            let mut u = format!("ftp://h.dom/{}", segs.join("/"));
            if let Some(t) = ty {
                u = format!("{u};type={t}");
            }
            u
        })
}

proptest! {
    #[test]
    fn make_relative_resolves_back(base in http_url(), target in http_url()) {
        let (Ok(base), Ok(target)) = (Url::parse(&base), Url::parse(&target)) else {
            return Ok(());
        };
        let rel = base.make_relative(&target).unwrap();
        prop_assert!(rel.len() <= target.as_str().len());
        prop_assert_eq!(base.resolve(&rel).unwrap(), target);
    }

    #[test]
    fn make_relative_resolves_back_ftp(base in ftp_url(), target in ftp_url()) {
        let (Ok(base), Ok(target)) = (Url::parse(&base), Url::parse(&target)) else {
            return Ok(());
        };
        let rel = base.make_relative(&target).unwrap();
        prop_assert_eq!(base.resolve(&rel).unwrap(), target);
    }

    #[test]
    fn resolving_twice_changes_nothing(base in http_url(), reference in "[a-z./;?=#]{0,12}") {
        let base = Url::parse(&base).unwrap();
        if let Ok(once) = base.resolve(&reference) {
            prop_assert_eq!(base.resolve(once.as_str()).unwrap(), once);
        }
    }
}
