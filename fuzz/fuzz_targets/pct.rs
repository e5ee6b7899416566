//! Oracle: `decode(encode(x, ctx)) == x` for every context; the encoding
//! uses only graphic ASCII; and `decode` never grows its input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738::pct::{self, Context};

fuzz_target!(|data: &[u8]| {
    for ctx in Context::ALL {
        let e = pct::encode(data, ctx);
        assert!(e.bytes().all(|b| b.is_ascii_graphic()), "{ctx:?}");
        assert!(e.len() <= 3 * data.len());
        assert_eq!(&*pct::decode(&e), data, "{ctx:?}");
    }
    if let Ok(s) = std::str::from_utf8(data) {
        let d = pct::decode(s);
        assert!(d.len() <= s.len());
        let _ = pct::decode_lossy(s);
    }
});
