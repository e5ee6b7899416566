//! Oracle: the stored text of a parsed URL parses again to an equal `Url`,
//! and the scheme's case is the only thing parsing changes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738::Url;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    let Ok(url) = Url::parse(input) else { return };
    let again = Url::parse(url.as_str()).expect("the stored text parses");
    assert_eq!(again, url);
    assert_eq!(again.as_str(), url.as_str());
    assert!(url.as_str().eq_ignore_ascii_case(input));
    assert_eq!(url.as_str()[url.scheme().len()..], input[url.scheme().len()..]);
    let shown: Url = url.to_string().parse().expect("Display parses");
    assert_eq!(shown, url);
});
