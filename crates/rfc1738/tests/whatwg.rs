//! The `url` crate (the WHATWG URL Standard) against this crate, on every
//! input both accept: the conformance cases and the URL lists under
//! `shared/corpus/` (skipped when absent).
//!
//! Each difference in user, password, host, port, path (with query) or
//! fragment must be one that RFC 1738 explains; `docs/DIFFERENCES.md` lists
//! them with examples. A difference in no category fails the test.

mod common;

use common::corpus_dirs;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// A difference that RFC 1738 explains; each is a section of
/// `docs/DIFFERENCES.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Why {
    /// WHATWG lower-cases domain hosts; RFC 1738 keeps them as written.
    HostCase,
    /// WHATWG drops a port equal to the scheme's default.
    DefaultPort,
    /// WHATWG gives `http://h` the path `/`; RFC 1738 has no url-path.
    ImpliedRootPath,
    /// WHATWG removes `.` and `..` segments; RFC 1738 gives them no meaning.
    DotSegments,
    /// WHATWG encodes `'` in the query of special schemes.
    QueryQuote,
    /// WHATWG encodes `; = ?` in user and password.
    UserinfoEncoding,
    /// WHATWG cannot tell an empty user or password from an absent one.
    EmptyUserinfo,
    /// WHATWG reads any opaque host for other schemes; RFC 1738 reads a
    /// `//` that is not a login as `*xchar`.
    OpaqueHost,
    /// WHATWG empties the `localhost` of a file URL.
    FileLocalhost,
    /// WHATWG ends the authority at `?`; RFC 1738 allows `?` in a user
    /// and a password.
    QueryInUserinfo,
}

/// Everything compared, as text, with `None` for absent.
#[derive(Debug, PartialEq, Eq, Clone)]
struct Parts {
    user: String,
    password: Option<String>,
    host: Option<String>,
    port: Option<u16>,
    path_query: String,
    fragment: Option<String>,
}

fn whatwg_parts(w: &url::Url) -> Parts {
    // The url crate has no host for `file:///x`; this crate an empty one.
    let host = match w.host_str() {
        None if w.scheme() == "file" => Some(String::new()),
        h => h.map(str::to_string),
    };
    let mut path_query = w.path().to_string();
    if let Some(q) = w.query() {
        path_query.push('?');
        path_query.push_str(q);
    }
    Parts {
        user: w.username().to_string(),
        password: w.password().map(str::to_string),
        host,
        port: w.port(),
        path_query,
        fragment: w.fragment().map(str::to_string),
    }
}

fn rfc_parts(r: &rfc1738::Url) -> Parts {
    let path_query = if r.has_authority() {
        r.url_path().map_or(String::new(), |p| format!("/{p}"))
    } else {
        r.scheme_specific_part().to_string()
    };
    Parts {
        user: r.user().unwrap_or("").to_string(),
        password: r.password().map(str::to_string),
        host: r.host().map(str::to_string),
        port: r.port(),
        path_query,
        fragment: r.fragment().map(str::to_string),
    }
}

/// The special schemes of the URL Standard.
fn special(scheme: &str) -> bool {
    matches!(scheme, "http" | "https" | "ftp" | "file" | "ws" | "wss")
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        _ => None,
    }
}

/// The URL Standard's "remove dot segments" on a path starting with `/`
/// (`%2e` counts as `.`).
fn remove_dots(path: &str) -> String {
    let is = |s: &str, n: usize| {
        let s = s.to_ascii_lowercase().replace("%2e", ".");
        s.len() == n && s.bytes().all(|b| b == b'.')
    };
    let segs: Vec<&str> = path[1..].split('/').collect();
    let mut out: Vec<&str> = Vec::new();
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        if is(seg, 2) {
            out.pop();
            if last {
                out.push("");
            }
        } else if is(seg, 1) {
            if last {
                out.push("");
            }
        } else {
            out.push(seg);
        }
    }
    format!("/{}", out.join("/"))
}

fn encode_userinfo(s: &str) -> String {
    s.replace(';', "%3B").replace('=', "%3D").replace('?', "%3F")
}

/// Brings RFC 1738's reading of `r` to what the URL Standard makes of it,
/// one explained rule at a time, noting each rule that changed something.
fn explain(scheme: &str, r: &Parts, w: &Parts, why: &mut Vec<Why>) -> Parts {
    if r.user.contains('?') || r.password.as_deref().is_some_and(|p| p.contains('?')) {
        // WHATWG read a query where RFC 1738 reads a login: nothing else
        // lines up.
        why.push(Why::QueryInUserinfo);
        return w.clone();
    }
    let mut x = r.clone();
    let mut apply = |x: &mut Parts, reason: Why, f: &dyn Fn(&mut Parts)| {
        let before = x.clone();
        f(x);
        if *x != before {
            why.push(reason);
        }
    };
    apply(&mut x, Why::HostCase, &|x| x.host = x.host.as_ref().map(|h| h.to_ascii_lowercase()));
    if special(scheme) {
        apply(&mut x, Why::DefaultPort, &|x| {
            if x.port.is_some() && x.port == default_port(scheme) {
                x.port = None;
            }
        });
        apply(&mut x, Why::ImpliedRootPath, &|x| {
            if x.path_query.is_empty() || x.path_query.starts_with('?') {
                x.path_query.insert(0, '/');
            }
        });
        apply(&mut x, Why::QueryQuote, &|x| {
            if let Some(q) = x.path_query.find('?') {
                let query = x.path_query[q..].replace('\'', "%27");
                x.path_query.replace_range(q.., &query);
            }
        });
    }
    if scheme == "file" {
        apply(&mut x, Why::FileLocalhost, &|x| {
            if x.host.as_deref().is_some_and(|h| h.eq_ignore_ascii_case("localhost")) {
                x.host = Some(String::new());
            }
        });
    }
    if x.path_query.starts_with('/') {
        apply(&mut x, Why::DotSegments, &|x| {
            let q = x.path_query.find('?').unwrap_or(x.path_query.len());
            let path = remove_dots(&x.path_query[..q]);
            x.path_query.replace_range(..q, &path);
        });
    }
    apply(&mut x, Why::UserinfoEncoding, &|x| {
        x.user = encode_userinfo(&x.user);
        x.password = x.password.as_deref().map(encode_userinfo);
    });
    apply(&mut x, Why::EmptyUserinfo, &|x| {
        if x.password.as_deref() == Some("") {
            x.password = None;
        }
    });
    if x.host.is_none() && w.host.is_some() {
        // The `//` part that RFC 1738 read as `*xchar`: compare the rest.
        why.push(Why::OpaqueHost);
        return w.clone();
    }
    x
}

/// One example of each difference, as `docs/DIFFERENCES.md` shows it.
const EXAMPLES: &[(&str, Why)] = &[
    ("http://Example.COM/", Why::HostCase),
    ("http://example.com:80/", Why::DefaultPort),
    ("http://example.com", Why::ImpliedRootPath),
    ("ftp://example.com/pub/../etc/motd", Why::DotSegments),
    ("http://example.com/a?b='c'", Why::QueryQuote),
    ("ftp://a;b=c@example.com/", Why::UserinfoEncoding),
    ("ftp://anonymous:@example.com/", Why::EmptyUserinfo),
    ("x-foo://a_b/c", Why::OpaqueHost),
    ("file://localhost/etc/motd", Why::FileLocalhost),
    ("ftp://a?b@example.com/", Why::QueryInUserinfo),
];

/// Inputs: the examples, the conformance cases and every line of the
/// corpus files.
fn inputs() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        EXAMPLES.iter().map(|e| ("examples".to_string(), e.0.to_string())).collect();
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    for e in fs::read_dir(&cases).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "txt") {
            for line in fs::read_to_string(&p).unwrap().lines() {
                let f: Vec<&str> = line.split(' ').collect();
                if line.starts_with('[') && f.len() >= 3 && f[1] == "ok" && !f[2].contains('\\') {
                    out.push((p.file_name().unwrap().to_string_lossy().into_owned(), f[2].to_string()));
                }
            }
        }
    }
    for dir in corpus_dirs() {
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        for p in files {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let Ok(text) = fs::read(&p) else { continue };
            let text = String::from_utf8_lossy(&text);
            let csv = name.ends_with(".csv");
            for line in text.trim_start_matches('\u{feff}').lines().skip(usize::from(csv)) {
                // A CSV row is "base,relative": the base is a whole URL.
                let url = if csv { line.split(',').next().unwrap_or("") } else { line };
                out.push((name.clone(), url.to_string()));
            }
        }
    }
    out
}

#[test]
fn differences_from_the_url_crate_are_the_explained_ones() {
    let mut both = 0;
    let mut seen = std::collections::HashSet::new();
    let mut counts: BTreeMap<Why, (usize, String)> = BTreeMap::new();
    let mut unexplained = Vec::new();
    let (mut only_rfc, mut only_whatwg) = (Vec::new(), BTreeMap::<&str, (usize, String)>::new());
    let all = inputs();
    for (source, input) in &all {
        if !seen.insert(input.clone()) {
            continue;
        }
        let (r, w) = (rfc1738::Url::parse(input), url::Url::parse(input));
        let (r, w) = match (r, w) {
            (Ok(r), Ok(w)) => (r, w),
            (Ok(_), Err(e)) => {
                only_rfc.push(format!("{input} ({e})"));
                continue;
            }
            (Err(e), Ok(_)) => {
                let entry = only_whatwg.entry(e.kind().id()).or_insert((0, input.clone()));
                entry.0 += 1;
                continue;
            }
            _ => continue,
        };
        both += 1;
        assert_eq!(r.scheme(), w.scheme(), "{input}");
        let (rp, wp) = (rfc_parts(&r), whatwg_parts(&w));
        let mut why = Vec::new();
        let explained = explain(r.scheme(), &rp, &wp, &mut why);
        if explained != wp {
            let mut d = format!("{source}: {input}\n  after {why:?}:");
            let fields = [
                ("user", format!("{:?}", explained.user), format!("{:?}", wp.user)),
                ("password", format!("{:?}", explained.password), format!("{:?}", wp.password)),
                ("host", format!("{:?}", explained.host), format!("{:?}", wp.host)),
                ("port", format!("{:?}", explained.port), format!("{:?}", wp.port)),
                ("path", format!("{:?}", explained.path_query), format!("{:?}", wp.path_query)),
                ("fragment", format!("{:?}", explained.fragment), format!("{:?}", wp.fragment)),
            ];
            for (name, a, b) in fields {
                if a != b {
                    d.push_str(&format!("\n    {name}: rfc1738 {a} whatwg {b}"));
                }
            }
            unexplained.push(d);
            continue;
        }
        for reason in why {
            let e = counts.entry(reason).or_insert((0, input.clone()));
            e.0 += 1;
        }
    }
    println!("{} inputs, {} distinct; both accept {both}", all.len(), seen.len());
    println!("only RFC 1738 accepts {}: {only_rfc:?}", only_rfc.len());
    println!(
        "only WHATWG accepts {}, by this crate's error:",
        only_whatwg.values().map(|v| v.0).sum::<usize>()
    );
    for (kind, (n, example)) in &only_whatwg {
        println!("  {kind}: {n} (e.g. {example})");
    }
    println!("differences, by reason:");
    for (why, (n, example)) in &counts {
        println!("  {why:?}: {n} (e.g. {example})");
    }
    assert!(both > 100, "only {both} inputs accepted by both");
    assert!(
        unexplained.is_empty(),
        "{} unexplained differences:\n{}",
        unexplained.len(),
        unexplained[..unexplained.len().min(30)].join("\n")
    );
}

#[test]
fn each_documented_example_shows_its_difference() {
    for &(input, reason) in EXAMPLES {
        let r = rfc1738::Url::parse(input).unwrap();
        let w = url::Url::parse(input).unwrap();
        let (rp, wp) = (rfc_parts(&r), whatwg_parts(&w));
        assert_ne!(rp, wp, "{input}: no difference");
        let mut why = Vec::new();
        assert_eq!(explain(r.scheme(), &rp, &wp, &mut why), wp, "{input}");
        assert!(why.contains(&reason), "{input}: {why:?}, expected {reason:?}");
        println!("{input}\n  rfc1738: {rp:?}\n  whatwg:  {wp:?}");
    }
}
