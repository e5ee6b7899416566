//! Lenient parsing: each case of `tests/cases/lenient.txt` is an error in
//! a strict parse, and with the options it names (each of them needed) a
//! URL with a warning for every deviation.

mod common;

use rfc1738::{ParseError, ParseOptions, Url, Warning};
use std::fs;

const OPTIONS: [&str; 7] = [
    "unsafe_chars",
    "underscore_in_host",
    "trailing_dot",
    "empty_port",
    "user_in_any_scheme",
    "reserved_in_search",
    "bare_percent",
];

fn options(names: &[&str]) -> ParseOptions {
    let mut o = ParseOptions::strict();
    for name in names {
        *match *name {
            "unsafe_chars" => &mut o.unsafe_chars,
            "underscore_in_host" => &mut o.underscore_in_host,
            "trailing_dot" => &mut o.trailing_dot,
            "empty_port" => &mut o.empty_port,
            "user_in_any_scheme" => &mut o.user_in_any_scheme,
            "reserved_in_search" => &mut o.reserved_in_search,
            "bare_percent" => &mut o.bare_percent,
            other => panic!("unknown option {other}"),
        } = true;
    }
    o
}

fn error(e: &ParseError) -> String {
    format!("{} {} {}", e.offset(), e.kind().id(), e.rule().name())
}

fn warnings(w: &[Warning]) -> String {
    let one = |w: &Warning| match w.len() {
        1 => format!("{} {}", w.offset(), w.kind().id()),
        n => format!("{} {} x{n}", w.offset(), w.kind().id()),
    };
    w.iter().map(one).collect::<Vec<_>>().join(" | ")
}

fn opt(v: Option<&str>) -> String {
    v.map_or("-".into(), str::to_owned)
}

/// One `lenient` case: its input and `key = value` lines.
fn check_lenient(at: &str, input: &str, keys: &[(String, String)]) {
    let get = |k: &str| keys.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
    let strict = Url::parse(input);
    assert_eq!(
        strict.as_ref().err().map(error).unwrap_or("-".into()),
        get("strict").unwrap(),
        "{at}: strict error"
    );
    assert_eq!(rfc1738::validate(input).err(), strict.as_ref().err().copied(), "{at}: validate agrees");
    let strict_with = Url::parse_with(input, &ParseOptions::strict());
    assert_eq!(strict_with.as_ref().err(), strict.as_ref().err(), "{at}: parse_with(strict)");

    let names: Vec<&str> = get("options").unwrap().split_whitespace().collect();
    let want = get("warnings").unwrap();
    for opts in [ParseOptions::lenient(), options(&names)] {
        let (url, w) = Url::parse_with(input, &opts).unwrap_or_else(|e| panic!("{at}: {e} with {opts:?}"));
        assert_eq!(warnings(&w), want, "{at}: warnings with {opts:?}");
        url.check_invariants();
        assert_eq!(url.is_lenient(), strict.is_err(), "{at}");
        assert!(w.iter().all(|w| w.offset() <= input.len() && !w.message().is_empty()));
        for (k, v) in keys {
            let got = match k.as_str() {
                "host" => opt(url.host()),
                "port" => url.port().map_or("-".into(), |p| p.to_string()),
                "user" => opt(url.user()),
                "path" => opt(url.url_path()),
                _ => continue,
            };
            assert_eq!(&got, v, "{at}: {k}");
        }
    }
    // Each option named is needed.
    for name in &names {
        let fewer: Vec<&str> = names.iter().copied().filter(|n| n != name).collect();
        assert!(Url::parse_with(input, &options(&fewer)).is_err(), "{at}: accepted without {name}");
    }
    // And only those: every other option on changes nothing.
    let others: Vec<&str> = OPTIONS.iter().copied().filter(|o| !names.contains(o)).collect();
    if strict.is_err() && !others.is_empty() {
        assert!(Url::parse_with(input, &options(&others)).is_err(), "{at}: accepted by other options");
    }
}

/// Where a case is, its input, and its `key = value` lines.
type LenientCase = (String, String, Vec<(String, String)>);

#[test]
fn every_option_has_cases_and_lenient_sets_them_all() {
    let text = fs::read_to_string(common::cases_dir().join("lenient.txt")).unwrap();
    for name in OPTIONS {
        assert!(text.contains(&format!("options = {name}")), "no case for {name}");
    }
    assert_eq!(options(&OPTIONS), ParseOptions::lenient());
}

#[test]
fn lenient_cases() {
    let text = fs::read_to_string(common::cases_dir().join("lenient.txt")).unwrap();
    let mut cases: Vec<LenientCase> = Vec::new();
    let mut rejects = 0;
    for (n, l) in text.lines().enumerate() {
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let at = format!("lenient.txt:{}", n + 1);
        if let Some(kv) = l.strip_prefix("    ") {
            let (k, v) = kv.split_once(" =").unwrap();
            cases.last_mut().unwrap().2.push((k.to_owned(), v.trim_start().to_owned()));
            continue;
        }
        let f: Vec<&str> = l.split(' ').collect();
        assert!(f[0].starts_with("[§"), "{at}");
        let input = common::unescape(f[2]);
        match (f[1], f.len()) {
            ("lenient", 3) => cases.push((at, input, Vec::new())),
            ("reject", 6) => {
                let e = Url::parse_with(&input, &ParseOptions::lenient()).expect_err(&at);
                assert_eq!(error(&e), f[3..].join(" "), "{at}");
                let strict = Url::parse(&input).expect_err(&at);
                assert!(strict.offset() <= e.offset(), "{at}: a strict parse fails first");
                rejects += 1;
            }
            _ => panic!("{at}: malformed"),
        }
    }
    for (at, input, keys) in &cases {
        check_lenient(&format!("{at} {input}"), input, keys);
    }
    assert!(cases.len() > 25 && rejects > 10, "{} cases, {rejects} rejects", cases.len());
}

#[test]
fn strict_parses_are_unchanged_by_the_options() {
    for input in common::ok_inputs() {
        let strict = Url::parse(&input).unwrap();
        let (lenient, w) = Url::parse_with(&input, &ParseOptions::lenient()).unwrap();
        assert_eq!(lenient, strict, "{input}");
        assert!(w.iter().all(|w| w.kind() == rfc1738::WarningKind::UppercaseScheme), "{input}: {w:?}");
    }
}

#[test]
fn rejected_inputs_fail_the_same_way_or_later() {
    // A lenient parse fails where a strict one does, unless it accepted
    // the byte there; then it fails later, or not at all.
    for file in common::case_files() {
        for case in common::read_cases(&file) {
            let Err(strict) = Url::parse(&case.input) else { continue };
            if let Err(lenient) = Url::parse_with(&case.input, &ParseOptions::lenient()) {
                assert!(lenient.offset() >= strict.offset(), "{}: {strict} then {lenient}", case.input);
            }
        }
    }
}

#[test]
fn a_run_of_one_deviation_is_one_warning() {
    let input = format!("http://h.example/a{}b", " ".repeat(1 << 20));
    let (_, w) = Url::parse_with(&input, &ParseOptions::lenient()).unwrap();
    assert_eq!(w.len(), 1, "{:?}", &w[..w.len().min(3)]);
    assert_eq!((w[0].offset(), w[0].len()), (18, 1 << 20));
    assert!(w[0].to_string().contains("(1048576 in a row) at offset 18"), "{}", w[0]);
}

#[test]
fn warnings_are_bounded_per_url() {
    // Deviations that no run joins: a space after each letter.
    let input = format!("http://h.example/{}", "a ".repeat(100_000));
    let (_, w) = Url::parse_with(&input, &ParseOptions::lenient()).unwrap();
    assert_eq!(w.len(), rfc1738::MAX_WARNINGS + 1);
    let more = w.last().unwrap();
    assert_eq!(more.kind(), rfc1738::WarningKind::More);
    assert_eq!(more.offset(), 17 + 2 * rfc1738::MAX_WARNINGS + 1);
    assert!(more.message().contains(&format!("and {} more", 100_000 - rfc1738::MAX_WARNINGS)), "{more}");
}

/// `generic_https` reads https as RFC 1738 alone reads a scheme it does
/// not define (§5 `otherurl`), not by http's rules (RFC 2818 §2.4); not
/// a deviation, so no warning, and not part of `lenient()`.
#[test]
fn generic_https_reads_https_as_any_other_scheme() {
    use rfc1738::SchemeKind;
    let generic = ParseOptions { generic_https: true, ..ParseOptions::strict() };
    assert!(!ParseOptions::lenient().generic_https);
    let input = "https://user@h_x.dom:99999/a?b=c/d";
    assert_eq!(Url::parse(input).unwrap_err().kind().id(), "user-not-allowed");
    let (url, w) = Url::parse_with(input, &generic).unwrap();
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(url.kind(), SchemeKind::Other);
    assert!(url.http().is_none());
    assert_eq!((url.host(), url.effective_port()), (None, None), "opaque: `h_x` is no host");
    url.check_invariants();
    assert_eq!(url.normalize().kind(), SchemeKind::Other);
    // With a host, the login is read; no default port is known.
    let (url, _) = Url::parse_with("https://u:p@h.dom/a?b/c", &generic).unwrap();
    assert_eq!((url.user(), url.host(), url.effective_port()), (Some("u"), Some("h.dom"), None));
    url.check_invariants();
    // By default, http's rules and port 443.
    let url = Url::parse("HTTPS://h.dom/a?q").unwrap();
    assert_eq!((url.kind(), url.effective_port()), (SchemeKind::Https, Some(443)));
    assert_eq!(url.http().unwrap().search(), Some("q"));
    let (url, _) = Url::parse_with("https://h.dom/a?q", &ParseOptions::strict()).unwrap();
    assert_eq!(url.kind(), SchemeKind::Https);
    // Lenient options with it: the deviation is accepted, kind Other.
    let opts = ParseOptions { generic_https: true, ..ParseOptions::lenient() };
    let (url, _) = Url::parse_with("https://h.dom/~x", &opts).unwrap();
    assert_eq!(url.kind(), SchemeKind::Other);
    url.check_invariants();
}
