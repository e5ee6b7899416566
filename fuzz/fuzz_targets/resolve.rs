//! Oracle for relative URLs (RFC 1808): the input is a base URL, a line
//! feed, and a reference. `Url::resolve` never panics; a result parses
//! again to itself; resolving the result (an absolute URL) against the
//! same base changes nothing; a reference without scheme or `//` keeps
//! the base's host and port; and `make_relative` gives back a reference
//! that resolves to the result (for a base with a hierarchical path).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738::Url;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    let (base, reference) = input.split_once('\n').unwrap_or((input, ""));
    let Ok(base) = Url::parse(base) else { return };
    let text = base.resolve_to_string(reference);
    match base.resolve(reference) {
        Ok(url) => {
            // The text as §4 writes it; the URL lower-cases the scheme (§2.1).
            assert_eq!(Url::parse(&text.expect("resolve_to_string agrees")).as_ref(), Ok(&url));
            assert_eq!(Url::parse(url.as_str()).as_ref(), Ok(&url), "the result parses to itself");
            assert_eq!(base.resolve(url.as_str()).as_ref(), Ok(&url), "resolving twice changes nothing");
            // §4 step 3: without a scheme or "//", the net_loc is the base's.
            if !reference.contains(':') && !reference.starts_with("//") {
                assert_eq!(url.host(), base.host(), "the host is inherited");
                assert_eq!(url.port_str(), base.port_str(), "the port is inherited");
            }
            // A base without a hierarchical path takes only an absolute
            // URL or a fragment, and make_relative gives no reference.
            let Some(rel) = base.make_relative(&url) else {
                assert!(base.resolve("x").is_err(), "make_relative gives up on a hierarchical base");
                return;
            };
            assert!(rel.len() <= url.as_str().len());
            assert_eq!(base.resolve(&rel).as_ref(), Ok(&url), "make_relative resolves back: {rel:?}");
        }
        Err(e) => {
            let limit = e.resolved().map_or(reference.len(), str::len);
            assert!(e.offset() <= limit, "the offset lies in the text it points into");
            assert!(!e.to_string().is_empty());
        }
    }
});
