//! The corpus `relative_urls_cc_10k.csv` (pairs `base,relative` found on
//! the web) resolved by RFC 1808 and by the `url` crate (WHATWG), and
//! every difference put in a named category (docs/RELATIVE.md has the
//! counts). A difference no category explains fails the test.
//! Skipped when the corpus is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rfc1738::{ResolveErrorKind, Url};

/// Why the two resolutions differ, or why only one gives a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Why {
    /// The same URL, but WHATWG writes an empty path as `/`
    /// (`//host` gives `http://host` by RFC 1808, `http://host/` by WHATWG).
    EmptyPathWrittenSlash,
    /// The base is not an RFC 1738 URL (not compared).
    BaseNotRfc1738,
    /// The base's scheme takes no relative references (RFC 1808 §2.1).
    BaseNotHierarchical,
    /// The reference has a character RFC 1808 §2.2 does not allow
    /// (space, `|`, `{`, a non-ASCII letter, `\`...): WHATWG escapes or
    /// rewrites it, RFC 1808 reports it.
    ReferenceCharacter,
    /// The reference has a `%` without two hex digits after it.
    ReferenceEscape,
    /// The RFC 1808 result is not an RFC 1738 URL (a `/` or `?` in an http
    /// search, a host WHATWG accepts and §3.1 does not...).
    ResultNotRfc1738,
    /// `..` above the root: RFC 1808 §5.2 keeps it, WHATWG drops it.
    DotSegmentsAboveRoot,
    /// A `;params` reference or a `;` in the path: RFC 1808 §2.4.5 splits
    /// the parameters off the path, so `;x` replaces the base's params
    /// (§5.1) and `.`/`..` after the first `;` are not path segments.
    Params,
    /// The empty reference: RFC 1808 §4 step 2a gives the whole base,
    /// fragment included (§5.2); WHATWG drops the base's fragment.
    EmptyReferenceFragment,
    /// `scheme:path` with the base's scheme: RFC 1808 §4 step 2b takes it
    /// as absolute (§5.2 `http:g`), WHATWG as relative for its special
    /// schemes.
    SameSchemeReference,
    /// An empty query (`?` alone): RFC 1808 §4 step 5 treats it like an
    /// absent one, so the base's query (or none) is kept; WHATWG keeps the
    /// `?`.
    EmptyQuery,
    /// `.` and `..` in a reference with a `/` or `//` in front: RFC 1808
    /// §4 steps 3 and 4 take its path as it is (§5.2 `/./g` is
    /// `http://a/./g`), WHATWG removes them.
    DotSegmentsKept,
}

/// Rows where both give the same text (docs/RELATIVE.md).
const IDENTICAL: usize = 9361;

/// The counts docs/RELATIVE.md gives, in the order of [`Why`].
const EXPECTED: [(Why, usize); 7] = [
    (Why::EmptyPathWrittenSlash, 259),
    (Why::BaseNotRfc1738, 169),
    (Why::ReferenceCharacter, 86),
    (Why::ResultNotRfc1738, 40),
    (Why::DotSegmentsAboveRoot, 78),
    (Why::EmptyQuery, 3),
    (Why::DotSegmentsKept, 4),
];

fn corpus() -> Option<PathBuf> {
    let mut dirs = Vec::new();
    if let Ok(d) = std::env::var("RFC1738_CORPUS") {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    dirs.into_iter().map(|d| d.join("relative_urls_cc_10k.csv")).find(|p| p.exists())
}

fn has_dot_segment(path: &str) -> bool {
    path.split(['/', '?', '#']).any(|s| s == "." || s == "..")
}

/// The category of a difference between `ours` and `theirs` (both URLs),
/// tried in this order.
fn explain(base: &Url, reference: &str, ours: &Url, theirs: &url::Url) -> Option<Why> {
    if reference.is_empty() && base.fragment().is_some() {
        return Some(Why::EmptyReferenceFragment);
    }
    if reference.split_once(':').is_some_and(|(s, _)| s.eq_ignore_ascii_case(base.scheme())) {
        return Some(Why::SameSchemeReference);
    }
    let before_fragment = reference.split('#').next().unwrap_or("");
    if before_fragment.ends_with('?') && before_fragment.matches('?').count() == 1 {
        return Some(Why::EmptyQuery);
    }
    let path = ours.url_path().unwrap_or("");
    if path.starts_with("../") || path == ".." {
        return Some(Why::DotSegmentsAboveRoot);
    }
    if has_dot_segment(path.split('?').next().unwrap_or("")) {
        return Some(Why::DotSegmentsKept);
    }
    if ours.url_path().is_none()
        && theirs.path() == "/"
        && url::Url::parse(ours.as_str()).is_ok_and(|o| o == *theirs)
    {
        return Some(Why::EmptyPathWrittenSlash);
    }
    let path_of = |r: &str| r.split(['?', '#']).next().unwrap_or("").contains(';');
    if path_of(reference) || path_of(base.url_path().unwrap_or("")) {
        return Some(Why::Params);
    }
    None
}

#[test]
fn differences_from_the_url_crate_are_the_explained_ones() {
    let Some(path) = corpus() else {
        eprintln!("relative_urls_cc_10k.csv absent: skipped");
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut counts: BTreeMap<Why, (usize, String)> = BTreeMap::new();
    let mut agree = 0;
    let mut unexplained = Vec::new();
    for line in text.lines().skip(1) {
        let (base, reference) = line.split_once(',').unwrap();
        let why = match Url::parse(base) {
            Err(_) => Some(Why::BaseNotRfc1738),
            Ok(b) => {
                let theirs = url::Url::parse(base).and_then(|w| w.join(reference));
                match (b.resolve(reference), theirs) {
                    (Ok(o), Ok(t)) if o.as_str() == t.as_str() => {
                        agree += 1;
                        continue;
                    }
                    (Ok(o), Ok(t)) => explain(&b, reference, &o, &t),
                    (Err(e), _) => match e.kind() {
                        ResolveErrorKind::NotHierarchical(_) => Some(Why::BaseNotHierarchical),
                        ResolveErrorKind::InvalidChar => Some(Why::ReferenceCharacter),
                        ResolveErrorKind::InvalidEscape => Some(Why::ReferenceEscape),
                        ResolveErrorKind::NotRfc1738 { .. } => Some(Why::ResultNotRfc1738),
                        _ => None,
                    },
                    (Ok(_), Err(_)) => None,
                }
            }
        };
        match why {
            Some(why) => {
                let entry = counts.entry(why).or_insert((0, line.to_owned()));
                entry.0 += 1;
            }
            None => unexplained.push(line.to_owned()),
        }
    }
    eprintln!("identical: {agree}");
    for (why, (n, example)) in &counts {
        eprintln!("{why:?}: {n} (e.g. {example})");
    }
    assert!(
        unexplained.is_empty(),
        "{} unexplained: {:#?}",
        unexplained.len(),
        &unexplained[..unexplained.len().min(20)]
    );
    let counts: Vec<(Why, usize)> = counts.into_iter().map(|(w, (n, _))| (w, n)).collect();
    assert_eq!((agree, counts.as_slice()), (IDENTICAL, EXPECTED.as_slice()), "update docs/RELATIVE.md");
}
