//! Oracle for the news access outside the readers of the `access`
//! target: the first byte picks the part.
//! - `--news-server` / `$NNTPSERVER`: what is accepted has a host and a
//!   port from 1 to 65535, and reads back the same when written again.
//! - The step from a `GROUP` reply to the overview: at most one line is
//!   sent, `XOVER first-last` with the reply's own numbers (as numbers:
//!   `007` is sent as `7`); the overview
//!   stays within the limit.
//!
//! No error message carries a raw control character to a terminal.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738_access::fuzzing::{nntp_overview, options};
use rfc1738_access::{news_server, AccessError};

fn printable(e: &AccessError) {
    let text = e.to_string();
    assert!(!text.bytes().any(|b| b < 0x20 || b == 0x7f), "raw control in {text:?}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    if pick % 2 == 0 {
        let given = String::from_utf8_lossy(input);
        match news_server(&given) {
            Ok((host, port)) => {
                assert!(!host.is_empty() && port >= 1);
                let again =
                    if host.contains(':') { format!("[{host}]:{port}") } else { format!("{host}:{port}") };
                assert_eq!(news_server(&again).unwrap(), (host, port), "{again}");
            }
            Err(e) => printable(&e),
        }
    } else {
        let cut = input.iter().position(|&b| b == b'\n').unwrap_or(input.len());
        let reply = String::from_utf8_lossy(&input[..cut]);
        let stream = input.get(cut + 1..).unwrap_or_default();
        let (sent, result) = nntp_overview(&reply, stream);
        if !sent.is_empty() {
            let line = std::str::from_utf8(&sent).expect("XOVER is ASCII");
            let range =
                line.strip_prefix("XOVER ").and_then(|l| l.strip_suffix("\r\n")).expect("one XOVER line");
            let nums: Vec<u64> = reply.split(' ').take(3).map(|n| n.parse().unwrap()).collect();
            assert_eq!(range, format!("{}-{}", nums[1], nums[2]), "{reply:?}");
        }
        match result {
            Ok(out) => assert!(out.len() as u64 <= options().max_bytes),
            Err(e) => printable(&e),
        }
    }
});
