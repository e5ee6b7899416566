//! The differential oracle: the slow reference parser of
//! `tests/reference/mod.rs`, transcribed from the §5 BNF, must agree with
//! `Url::parse` on validity and on every component, for every conformance
//! case and for inputs generated around them.

mod common;
mod reference;

/// Every conformance case input, with whether the case expects it to
/// parse.
#[must_use]
pub fn case_inputs() -> Vec<(String, bool)> {
    common::case_files()
        .iter()
        .flat_map(|f| common::read_cases(f))
        .map(|c| (c.input, matches!(c.expect, common::Expect::Ok(_))))
        .collect()
}

#[test]
fn reference_agrees_on_every_conformance_case() {
    let inputs = case_inputs();
    assert!(inputs.len() > 200);
    let failures: Vec<String> = inputs.iter().filter_map(|(i, _)| reference::compare(i).err()).collect();
    assert!(failures.is_empty(), "{} of {} disagree:\n{}", failures.len(), inputs.len(), failures.join("\n"));
}

#[test]
fn reference_alone_matches_every_case_verdict() {
    for (input, ok) in case_inputs() {
        assert_eq!(reference::parse(&input).is_ok(), ok, "{input:?}: {:?}", reference::parse(&input));
    }
}

/// A small deterministic generator (xorshift64*), so that a failure can be
/// reproduced from its printed input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// Pieces a mutation inserts: the delimiters of §2.2 and §3, escapes,
/// scheme names, and characters of every class.
const TOKENS: &[&str] = &[
    "/",
    "//",
    ":",
    "@",
    ";",
    "?",
    "=",
    "&",
    "#",
    "%",
    "%09",
    "%2F",
    "%25",
    "%0D",
    "%0A",
    "%zz",
    "%4",
    ".",
    "..",
    "-",
    "+",
    "_",
    "*",
    "~",
    " ",
    "\t",
    "\"",
    "[",
    "]",
    "a",
    "Z",
    "0",
    "9",
    "1.2.3.4",
    "65535",
    "65536",
    ";type=",
    ";type=i",
    "ftp:",
    "http:",
    "gopher:",
    "news:",
    "nntp:",
    "mailto:",
    "wais:",
    "file:",
    "prospero:",
    "telnet:",
    "x:",
    "localhost",
    "é",
    "\u{7f}",
    "\\",
    "!",
    "'",
    "(",
    ")",
    ",",
    "$",
];

/// One random edit of `s`: insert, delete or replace a piece, or cut it.
fn mutate(rng: &mut Rng, s: &str) -> String {
    let bounds: Vec<usize> = (0..=s.len()).filter(|&i| s.is_char_boundary(i)).collect();
    let i = *rng.pick(&bounds);
    let j = *rng.pick(&bounds);
    let (i, j) = (i.min(j), i.max(j).min(i + 3));
    let j = bounds.iter().copied().filter(|&b| b >= j).min().unwrap();
    let tok = *rng.pick(TOKENS);
    match rng.below(4) {
        0 => format!("{}{tok}{}", &s[..i], &s[i..]),
        1 => format!("{}{}", &s[..i], &s[j..]),
        2 => format!("{}{tok}{}", &s[..i], &s[j..]),
        _ => s[..i].to_string(),
    }
}

#[test]
fn reference_agrees_on_mutated_cases() {
    let inputs: Vec<String> = case_inputs().into_iter().map(|(i, _)| i).collect();
    let mut rng = Rng(0x1738_1738_1738_1738);
    let (mut failures, mut total, mut accepted) = (Vec::new(), 0, 0);
    for seed in &inputs {
        for _ in 0..mutants_per_case() {
            let mut s = seed.clone();
            for _ in 0..=rng.below(3) {
                s = mutate(&mut rng, &s);
            }
            total += 1;
            accepted += usize::from(rfc1738::Url::parse(&s).is_ok());
            if let Err(why) = reference::compare(&s) {
                failures.push(why);
            }
        }
    }
    // The mutants must exercise both verdicts to mean anything.
    assert!(accepted > total / 10 && accepted < total * 9 / 10, "{accepted} of {total} accepted");
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} of {total} disagree:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

/// 40 mutants per case, or `DIFFERENTIAL_MUTANTS`.
fn mutants_per_case() -> usize {
    std::env::var("DIFFERENTIAL_MUTANTS").ok().and_then(|v| v.parse().ok()).unwrap_or(40)
}
