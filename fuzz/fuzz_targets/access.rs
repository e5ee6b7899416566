//! Oracle for the access crate's readers of a server's bytes, fed a
//! scripted stream (no socket): the first byte picks the reader. Whatever
//! the bytes, no reader panics, each keeps within its limits (a reply, a
//! block, a menu, a body no longer than the options allow), and no error
//! message carries a raw control character to a terminal.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rfc1738_access::fuzzing::{
    chunked, ftp_replies, gopher_menu, gopher_plus, http_head, nntp, options, passive,
};
use rfc1738_access::AccessError;

/// An error's message is one line a terminal shows as text.
fn printable(e: &AccessError) {
    let text = e.to_string();
    assert!(!text.bytes().any(|b| b < 0x20 || b == 0x7f), "raw control in {text:?}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let opts = options();
    match pick % 8 {
        0 => match http_head(input) {
            // An interim 1xx head is read past; the limits hold.
            Ok((status, headers)) => assert!(!(100..200).contains(&status) && headers <= opts.max_headers),
            Err(e) => printable(&e),
        },
        1 => {
            if let Ok(body) = chunked(input, 4096) {
                assert!(body.len() <= 4096 && body.len() <= input.len());
            }
        }
        2 => {
            let (replies, err) = ftp_replies(input);
            for (code, text) in &replies {
                assert!((0..1000).contains(code));
                // The limit counts the octets read; an octet that is not
                // UTF-8 becomes U+FFFD, three octets of text.
                assert!(text.len() <= 3 * opts.max_header_bytes, "{} > reply limit", text.len());
            }
            if let Some(e) = err {
                printable(&e);
            }
        }
        3 => {
            let text = String::from_utf8_lossy(input);
            // An EPSV port is written in the reply in decimal.
            if let (Some(port), _, _) = passive(&text) {
                assert!(text.contains(&port.to_string()), "{port} not in {text:?}");
            }
        }
        4 | 5 => match gopher_menu(input, pick % 8 == 5) {
            Ok((out, bytes, items)) => {
                assert!(out.len() as u64 <= opts.max_bytes);
                assert!(bytes <= input.len() as u64);
                assert!(items <= bytes);
                if pick % 8 == 4 {
                    // Items: every line is three TAB-separated printable fields.
                    for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                        assert!(!line.iter().any(|&b| b == b'\r' || b == 0x1b || b == 0x07), "{line:?}");
                        assert_eq!(line.iter().filter(|&&b| b == b'\t').count(), 2, "{line:?}");
                    }
                }
            }
            Err(e) => printable(&e),
        },
        6 => match gopher_plus(input) {
            Ok(Some(_)) => assert!(input.starts_with(b"+")),
            Ok(None) => {}
            Err(e) => printable(&e),
        },
        _ => match nntp(input) {
            Ok((code, block)) => {
                assert!(code < 1000);
                assert!(block.len() as u64 <= opts.max_bytes);
            }
            Err(e) => printable(&e),
        },
    }
});
