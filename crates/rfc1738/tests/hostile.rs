//! Hostile inputs: long runs of the bytes each rule looks for, in every
//! scheme. Each must be answered in time linear in its length (checked by
//! timing it at two sizes, 16 times apart: linear time grows 16 times,
//! quadratic 256 times; the bound, 80, leaves room for a busy machine) and
//! with an error offset inside the input, or a URL that passes its
//! invariants.

use rfc1738::{ParseOptions, Url};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The timing tests run one at a time, not against each other.
static TIMING: Mutex<()> = Mutex::new(());

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

/// The best of eleven runs of `f`: the machine is shared, and only the
/// fastest run says something about the algorithm. Inputs are kept small
/// enough (64 KiB) for a run to fit in a time slice.
fn best(f: impl Fn()) -> Duration {
    (0..11)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

/// Checks the answers for `input`, then times the strict and the lenient
/// parse.
fn time(input: &str) -> Duration {
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
    best(|| drop(Url::parse(input))) + best(|| drop(Url::parse_with(input, &lenient)))
}

#[test]
fn hostile_inputs_take_linear_time() {
    let _one_at_a_time = TIMING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    const SMALL: usize = 1 << 12;
    for &(head, unit, tail) in SHAPES {
        let small = build(head, unit, tail, SMALL);
        let large = build(head, unit, tail, SMALL * 16);
        let (ts, tl) = (time(&small), time(&large));
        // Linear: about 16 times longer; quadratic: 256 times. Allow for
        // noise on a shared machine, and for inputs too fast to time.
        let limit = ts.max(Duration::from_micros(20)) * 80;
        assert!(
            tl <= limit,
            "{head}{unit}...{tail}: {ts:?} at {} bytes, {tl:?} at {}",
            small.len(),
            large.len()
        );
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
    "%4",
    "#",
    "x:// ",
    ".,;:!?",
];

fn time_text(text: &str) -> Duration {
    let count = |text: &str| rfc1738::extract::find_iter(text).map(|m| m.range().len()).sum::<usize>();
    assert!(count(text) <= text.len());
    best(|| {
        std::hint::black_box(count(text));
    })
}

#[test]
fn extraction_takes_linear_time() {
    let _one_at_a_time = TIMING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    const SMALL: usize = 1 << 12;
    for &unit in TEXT_SHAPES {
        let small = build("", unit, "", SMALL);
        let large = build("", unit, "", SMALL * 16);
        let (ts, tl) = (time_text(&small), time_text(&large));
        let limit = ts.max(Duration::from_micros(20)) * 80;
        assert!(tl <= limit, "{unit:?}...: {ts:?} at {} bytes, {tl:?} at {}", small.len(), large.len());
    }
}
