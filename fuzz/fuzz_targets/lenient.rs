//! Oracle: lenient parsing, the normal form, equivalence and the security
//! checks hold their properties on any input.
//!
//! - a text a strict parse accepts, a lenient parse reads the same way,
//!   with no warning but the note on an upper-case scheme;
//! - whatever parses (strictly or leniently) has a normal form that parses
//!   again, is its own normal form, and is equivalent to it; the normal
//!   form of a strict URL is strict;
//! - security warnings and the redacted form never fail.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738::{ParseOptions, Url, WarningKind};

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    let strict = Url::parse(input);
    let Ok((url, warnings)) = Url::parse_with(input, &ParseOptions::lenient()) else {
        assert!(strict.is_err(), "lenient rejects what strict accepts: {input:?}");
        return;
    };
    url.check_invariants();
    if let Ok(s) = &strict {
        assert_eq!(s, &url);
        assert!(warnings.iter().all(|w| w.kind() == WarningKind::UppercaseScheme));
    }
    let n = url.normalize();
    n.check_invariants();
    assert_eq!(n.normalize().as_str(), n.as_str(), "idempotent: {input:?}");
    assert!(url.equivalent(&n) && n.equivalent(&url), "{input:?}");
    if strict.is_ok() {
        assert!(!n.is_lenient());
        assert_eq!(Url::parse(n.as_str()).as_ref(), Ok(&n));
    }
    for w in url.security_warnings() {
        assert!(w.offset() <= input.len());
    }
    let red = url.redacted();
    assert!(Url::parse_with(&red, &ParseOptions::lenient()).is_ok(), "{red:?}");
});
