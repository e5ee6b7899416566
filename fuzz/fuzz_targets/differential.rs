//! Oracle: the slow reference parser transcribed from the §5 BNF
//! (`crates/rfc1738/tests/reference/mod.rs`) and `Url::parse` agree on
//! validity and on every component.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/rfc1738/tests/reference/mod.rs"]
mod reference;

/// The reference tries every parse; past this length it is too slow to
/// keep the fuzzer productive.
const MAX_INPUT: usize = 160;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Ok(input) = std::str::from_utf8(data) else { return };
    if let Err(why) = reference::compare(input) {
        panic!("{why}");
    }
});
