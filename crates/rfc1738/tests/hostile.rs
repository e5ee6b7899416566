//! Hostile inputs: long runs of the bytes each rule looks for, in every
//! scheme, at 1 MiB. Each must be answered with an error offset inside the
//! input, or a URL that passes its invariants. Tests assert behaviour, not
//! timings: linear time is measured by `growth-bench` (benches/), and a
//! quadratic path here would take minutes per shape, past CI's limit.

use rfc1738::{ParseOptions, Url};

/// Builds a hostile input of about `n` bytes: `head`, `unit` repeated,
/// `tail`.
fn build(head: &str, unit: &str, tail: &str, n: usize) -> String {
    let mut s = String::with_capacity(n + head.len() + tail.len());
    s.push_str(head);
    while s.len() < n {
        s.push_str(unit);
    }
    s.push_str(tail);
    s
}

const SHAPES: &[(&str, &str, &str)] = &[
    ("ftp://", "a@", "h/"),
    ("ftp://", "a:", "@h/"),
    ("ftp://h/", "a/", ";type=i"),
    ("ftp://h/", ";type=", "i"),
    ("http://", "a.", "a/"),
    ("http://", "a-", "a/"),
    ("http://", "1.", "1/"),
    ("http://h/", "%41", "?"),
    ("http://h/", "?", ""),
    ("http://h:", "0", "/"),
    ("gopher://h/1", "%09", ""),
    ("gopher://h/1", "%0", ""),
    ("mailto:", "a.", "@b"),
    ("mailto:", "%22", "@b"),
    ("mailto:a@", "[", "]"),
    ("mailto:", "\\\"", "@b"),
    ("news:", "a", "@h"),
    ("news:", "a@", ""),
    ("nntp://h/g/", "9", ""),
    ("wais://h/d/", "t/", ""),
    ("prospero://h/p", ";a=b", ""),
    ("prospero://h/p", ";", ""),
    ("x://", "a@", ""),
    ("x://", "//", ""),
    ("x:", "%25", "%"),
    ("", "a", ":"),
    ("", "a", ""),
    ("http://h/#", "a", "#"),
];

/// Checks the answers of the strict and the lenient parse for `input`.
fn answer(input: &str) {
    let lenient = ParseOptions::lenient();
    match Url::parse(input) {
        Ok(url) => url.check_invariants(),
        Err(e) => assert!(e.offset() <= input.len()),
    }
    match Url::parse_with(input, &lenient) {
        Ok((url, warnings)) => {
            url.check_invariants();
            assert!(warnings.iter().all(|w| w.offset() <= input.len()));
        }
        Err(e) => assert!(e.offset() <= input.len()),
    }
}

/// The size of every hostile input.
const LARGE: usize = 1 << 20;

#[test]
fn hostile_inputs_are_answered() {
    for &(head, unit, tail) in SHAPES {
        answer(&build(head, unit, tail, LARGE));
    }
}

/// Text shaped to make a URL finder backtrack: unterminated wrappers,
/// repeated schemes, brackets, quotes and hyphenated line breaks.
const TEXT_SHAPES: &[&str] = &[
    "<URL:",
    "<",
    "<URL:http://a.b/x\n",
    "<http://a.b/",
    "http://",
    "http://a.b/(",
    "http://a.b/)",
    "http://a.b/'",
    "mailto:",
    "news:a",
    "ab:",
    "a-\n",
    "<URL:ftp://a.b/x-\n  ",
    "> > <URL:http://a.b/\n> > ",
    // Blank lines and long runs inside wrappers (deleted up to the bound).
    "<URL:http://a.b/\n\n",
    "<URL:a:b\r\n\r\n c> ",
    "\n\n \t ",
    "%4",
    "#",
    "x:// ",
    ".,;:!?",
];

#[test]
fn hostile_text_is_answered() {
    for &unit in TEXT_SHAPES {
        let text = build("", unit, "", LARGE);
        let mut last_end = 0;
        for m in rfc1738::extract::find_iter(&text) {
            assert!(m.start() >= last_end && m.end() <= text.len(), "{unit:?}");
            last_end = m.end();
        }
    }
}
