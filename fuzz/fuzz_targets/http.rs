//! Oracle for what `fetch` does with an http server's answer, fed a
//! scripted stream (no socket): the first byte picks the part.
//! - The body by its framing (chunked, `Content-Length`, read to close):
//!   within the limit; without chunking, a piece of the input as sent; a
//!   status of 1xx or 400 and above never a success.
//! - A redirect's `Location`, made absolute and checked as `fetch` does:
//!   what it would request next stays on http, on port 80 or 1024 and
//!   above, with a request target that starts with `/` and holds no byte
//!   that could end or split the request line.
//!
//! No error message carries a raw control character to a terminal.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738_access::fuzzing::{http_response, options, redirect};
use rfc1738_access::AccessError;

fn printable(e: &AccessError) {
    let text = e.to_string();
    assert!(!text.bytes().any(|b| b < 0x20 || b == 0x7f), "raw control in {text:?}");
}

/// Where a redirect comes from.
const FROM: [&str; 4] = ["http://h.dom/a/b?q", "http://h.dom:8080/", "http://10.0.0.1/x/y/z", "http://h.dom"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    if pick % 2 == 0 {
        match http_response(input) {
            Ok((status, body)) => {
                assert!((200..400).contains(&status), "status {status}");
                assert!(body.len() as u64 <= options().max_bytes);
                let lower = input.to_ascii_lowercase();
                let chunked = lower.windows(7).any(|w| w == b"chunked");
                if !chunked && !body.is_empty() {
                    assert!(input.windows(body.len()).any(|w| w == body), "body not in the input");
                }
            }
            Err(e) => printable(&e),
        }
    } else {
        let from = FROM[usize::from(pick / 2) % FROM.len()];
        let location = String::from_utf8_lossy(input);
        match redirect(from, &location) {
            Ok((host, port, target)) => {
                assert!(port == 80 || port >= 1024, "port {port}");
                assert!(!host.is_empty() && !host.bytes().any(|b| b <= b' ' || b == 0x7f), "host {host:?}");
                assert!(target.starts_with('/'), "target {target:?}");
                assert!(!target.bytes().any(|b| b <= b' ' || b == 0x7f), "target {target:?}");
            }
            Err(e) => printable(&e),
        }
    }
});
