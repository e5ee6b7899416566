//! Oracle for extraction from text: matches come in order, without
//! overlap, each inside the text on character boundaries; a bare match is
//! exactly its span of text; every match maps each of its offsets back
//! into its span; a match that parses passes its invariants, and one that
//! does not has its error offset mapped into its span. And a valid URL
//! written in a `<URL:...>` wrapper between pieces of text without `<` or
//! `>` is found exactly (when its scheme starts with a letter and has two
//! characters or more, as extraction requires). (That every match parses is not a property of
//! extraction: it finds candidates, and `Match::parse` says which are
//! URLs.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738::extract::{Finder, Form};
use rfc1738::Url;

fn check_all(text: &str, bare: bool) -> Vec<String> {
    let mut last_end = 0;
    let mut found = Vec::new();
    for m in Finder::new().bare(bare).find_iter(text) {
        let r = m.range();
        assert!(r.start >= last_end, "overlap or out of order in {text:?}");
        assert!(r.start <= r.end && r.end <= text.len());
        assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
        assert_eq!((m.start(), m.end()), (r.start, r.end));
        last_end = r.end;
        let url = m.as_str();
        assert!(url.len() <= r.len());
        if m.form() == Form::Bare {
            assert_eq!(url, &text[r.clone()]);
            assert!(bare);
        }
        // Each character of the URL is the character of the text that
        // text_offset points to.
        for (i, c) in url.char_indices() {
            let t = m.text_offset(i);
            assert!(r.contains(&t), "offset {i} of {url:?} maps outside {r:?}");
            assert_eq!(text[t..].chars().next(), Some(c));
        }
        assert!(m.text_offset(url.len()) <= r.end);
        for &h in m.hyphen_breaks() {
            assert_eq!(url.as_bytes()[h], b'-');
        }
        if let Some(alt) = m.alternative() {
            assert_eq!(alt.len(), url.len() - m.hyphen_breaks().len());
        }
        assert_eq!(m.validate().err(), m.parse().err());
        match m.parse() {
            Ok(u) => u.check_invariants(),
            Err(e) => assert!(r.contains(&m.text_offset(e.offset())) || m.text_offset(e.offset()) == r.end),
        }
        found.push(url.to_string());
    }
    found
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    check_all(text, true);
    check_all(text, false);
    // A valid URL in a wrapper, between two halves of the text made safe.
    let clean: String = text.chars().map(|c| if c == '<' || c == '>' { ' ' } else { c }).collect();
    let mid = (0..=clean.len() / 2).rev().find(|&i| clean.is_char_boundary(i)).unwrap_or(0);
    for candidate in clean.split_whitespace().take(4) {
        // Extraction takes schemes that start with a letter and have two
        // characters or more (so that `3:2` and `C:\` are not URLs).
        let scheme_ok = candidate.starts_with(|c: char| c.is_ascii_alphabetic())
            && candidate.find(':').is_some_and(|colon| colon >= 2);
        if !scheme_ok || Url::parse(candidate).is_err() {
            continue;
        }
        let wrapped = format!("{} <URL:{candidate}> {}", &clean[..mid], &clean[mid..]);
        let found = check_all(&wrapped, false);
        assert!(found.iter().any(|f| f == candidate), "{candidate:?} not found in {wrapped:?}: {found:?}");
    }
});
